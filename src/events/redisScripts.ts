/**
 * Lua scripts run by Redis as one atomic step each, so several server processes sharing one Redis
 * keep the revision check, the position and the append consistent with each other.
 */

/**
 * KEYS: revs (hash key → rev), seq (counter), stream, seqs (hash key → comma-separated positions),
 * deleted (hash key → position of its last deletion, an event taking its revision to 0),
 * states (hash key → `{seq} {state as JSON}`, the item's latest state, written with its event).
 * ARGV: key, expectedRev, newRev, payload, withinKey ('' for none), withinSince, then the parts of
 * the state's template (none: the item is gone, or the writer did not say, and the state is dropped
 * to be folded again from the log by whoever reads it).
 * Returns {1, seq} on success, {0, actualRev} on a revision conflict, {2, deletedAt} when the key
 * the item lives within was deleted after `withinSince` (a write that outlived its project).
 */
export const APPEND_SCRIPT = `
local actual = tonumber(redis.call('HGET', KEYS[1], ARGV[1]) or '0')
if actual ~= tonumber(ARGV[2]) then return {0, actual} end
if ARGV[5] ~= '' then
  local deleted = tonumber(redis.call('HGET', KEYS[5], ARGV[5]) or '0')
  if deleted > tonumber(ARGV[6]) then return {2, deleted} end
end
local seq = redis.call('INCR', KEYS[2])
redis.call('XADD', KEYS[3], seq .. '-0', 'e', ARGV[4])
redis.call('HSET', KEYS[1], ARGV[1], ARGV[3])
if tonumber(ARGV[3]) == 0 then redis.call('HSET', KEYS[5], ARGV[1], seq) end
local seqs = redis.call('HGET', KEYS[4], ARGV[1])
if seqs then
  redis.call('HSET', KEYS[4], ARGV[1], seqs .. ',' .. seq)
else
  redis.call('HSET', KEYS[4], ARGV[1], tostring(seq))
end
if #ARGV >= 7 and tonumber(ARGV[3]) ~= 0 then
  redis.call('HSET', KEYS[6], ARGV[1], seq .. ' ' .. table.concat(ARGV, seq, 7))
else
  redis.call('HDEL', KEYS[6], ARGV[1])
end
return {1, seq}
`;

/**
 * KEYS: seqs, stream, revs, states. ARGV: key, beforeSeq.
 * Deletes the key's stream entries before beforeSeq and keeps the later positions; a key left with
 * none is at revision 0 again, with no state. Returns how many were deleted.
 */
export const PRUNE_SCRIPT = `
local seqs = redis.call('HGET', KEYS[1], ARGV[1])
if not seqs then return 0 end
local before = tonumber(ARGV[2])
local kept = {}
local deleted = 0
for s in string.gmatch(seqs, '%d+') do
  if tonumber(s) < before then
    deleted = deleted + redis.call('XDEL', KEYS[2], s .. '-0')
  else
    table.insert(kept, s)
  end
end
if #kept == 0 then
  redis.call('HDEL', KEYS[1], ARGV[1])
  redis.call('HDEL', KEYS[3], ARGV[1])
  redis.call('HDEL', KEYS[4], ARGV[1])
else
  redis.call('HSET', KEYS[1], ARGV[1], table.concat(kept, ','))
end
return deleted
`;

/**
 * KEYS: revs, seq, stream, seqs, deleted, states. ARGV: key, seq, rev, payload.
 * Appends an event of another log at its own position (a journal moved onto Redis): positions only
 * increase, and the item's revision becomes the event's; its state is dropped, folded again from
 * the log by whoever reads it first. Returns 1, or 0 when `seq` is not past the head.
 */
export const COPY_SCRIPT = `
local seq = tonumber(ARGV[2])
if tonumber(redis.call('GET', KEYS[2]) or '0') >= seq then return 0 end
redis.call('SET', KEYS[2], seq)
redis.call('XADD', KEYS[3], seq .. '-0', 'e', ARGV[4])
redis.call('HSET', KEYS[1], ARGV[1], ARGV[3])
if tonumber(ARGV[3]) == 0 then redis.call('HSET', KEYS[5], ARGV[1], seq) end
local seqs = redis.call('HGET', KEYS[4], ARGV[1])
if seqs then
  redis.call('HSET', KEYS[4], ARGV[1], seqs .. ',' .. seq)
else
  redis.call('HSET', KEYS[4], ARGV[1], tostring(seq))
end
redis.call('HDEL', KEYS[6], ARGV[1])
return 1
`;

/** KEYS: seq. ARGV: seq. Moves the head to `seq` when it is behind (positions of pruned events at the end of a copied log). */
export const ADVANCE_SCRIPT = `
if tonumber(redis.call('GET', KEYS[1]) or '0') < tonumber(ARGV[1]) then redis.call('SET', KEYS[1], ARGV[1]) end
return tonumber(redis.call('GET', KEYS[1]))
`;
