import type { Redis } from 'ioredis';

/**
 * Lua scripts run by Redis as one atomic step each, so several server processes sharing one Redis
 * keep the revision check, the position, the append and the item's state consistent with each other.
 * Every item is one field of the items hash, `{rev} {seqs}` or `{rev} {seqs} {state}` (itemRecord.ts):
 * its key is stored once, and nothing derived from it twice.
 */

/** The record's parts: `rev`, `seqs` (comma-separated) and `rest` (' ' and the state, or ''); nothing for a key never written. */
const PARSE_RECORD = `
local function parse(record)
  if not record then return nil end
  local a = string.find(record, ' ', 1, true)
  local b = string.find(record, ' ', a + 1, true)
  return tonumber(string.sub(record, 1, a - 1)), string.sub(record, a + 1, (b or 0) - 1), b and string.sub(record, b) or ''
end
`;

/**
 * KEYS: items, seq (counter), stream, deleted (hash key → position of its last deletion, an event
 * taking its revision to 0).
 * ARGV: key, expectedRev, newRev, payload, withinKey ('' for none), withinSince, state (the encoded
 * state, or '' when the item is gone or the writer did not say: it is then folded again from the
 * log by whoever reads it).
 * Returns {1, seq} on success, {0, actualRev} on a revision conflict, {2, deletedAt} when the key
 * the item lives within was deleted after `withinSince` (a write that outlived its project).
 */
export const APPEND_SCRIPT = `${PARSE_RECORD}
local actual, seqs = parse(redis.call('HGET', KEYS[1], ARGV[1]))
actual = actual or 0
if actual ~= tonumber(ARGV[2]) then return {0, actual} end
if ARGV[5] ~= '' then
  local deleted = tonumber(redis.call('HGET', KEYS[4], ARGV[5]) or '0')
  if deleted > tonumber(ARGV[6]) then return {2, deleted} end
end
local seq = redis.call('INCR', KEYS[2])
redis.call('XADD', KEYS[3], seq .. '-0', 'e', ARGV[4])
if seqs then seqs = seqs .. ',' .. seq else seqs = tostring(seq) end
local record = ARGV[3] .. ' ' .. seqs
if tonumber(ARGV[3]) == 0 then
  redis.call('HSET', KEYS[4], ARGV[1], seq)
elseif ARGV[7] ~= '' then
  record = record .. ' ' .. ARGV[7]
end
redis.call('HSET', KEYS[1], ARGV[1], record)
return {1, seq}
`;

/**
 * KEYS: items, stream. ARGV: key, beforeSeq.
 * Deletes the key's stream entries before beforeSeq and keeps the later positions (its state, of
 * the last, with them); a key left with none is at revision 0 again, with no state. Returns how
 * many were deleted.
 */
const PRUNE_SCRIPT = `${PARSE_RECORD}
local rev, seqs, rest = parse(redis.call('HGET', KEYS[1], ARGV[1]))
if not rev then return 0 end
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
else
  redis.call('HSET', KEYS[1], ARGV[1], rev .. ' ' .. table.concat(kept, ',') .. rest)
end
return deleted
`;

/**
 * KEYS: items, seq, stream, deleted. ARGV: key, seq, rev, payload.
 * Appends an event of another log at its own position (a journal moved onto Redis): positions only
 * increase, and the item's revision becomes the event's; its state is dropped, folded again from
 * the log by whoever reads it first. Returns 1, or 0 when `seq` is not past the head.
 */
const COPY_SCRIPT = `${PARSE_RECORD}
local seq = tonumber(ARGV[2])
if tonumber(redis.call('GET', KEYS[2]) or '0') >= seq then return 0 end
redis.call('SET', KEYS[2], seq)
redis.call('XADD', KEYS[3], seq .. '-0', 'e', ARGV[4])
if tonumber(ARGV[3]) == 0 then redis.call('HSET', KEYS[4], ARGV[1], seq) end
local _, seqs = parse(redis.call('HGET', KEYS[1], ARGV[1]))
redis.call('HSET', KEYS[1], ARGV[1], ARGV[3] .. ' ' .. (seqs and seqs .. ',' .. ARGV[2] or ARGV[2]))
return 1
`;

/** KEYS: seq. ARGV: seq. Moves the head to `seq` when it is behind (positions of pruned events at the end of a copied log). */
const ADVANCE_SCRIPT = `
if tonumber(redis.call('GET', KEYS[1]) or '0') < tonumber(ARGV[1]) then redis.call('SET', KEYS[1], ARGV[1]) end
return tonumber(redis.call('GET', KEYS[1]))
`;

/**
 * KEYS: items, stream, deleted. ARGV: pairs of a key and the log key of its project ('' for none).
 * For each key, {record, payload, deletedAt}: its record (nil for a key never written); when the
 * record holds a state, the JSON of the event it was stored with (the state's dictionary); and the
 * position of its project's last deletion (0 for none): a state older than that is the item of a
 * project since deleted, its record not yet pruned. All read in the same step, so a prune or a
 * deletion cannot come between.
 */
const READ_STATES_SCRIPT = `
local out = {}
for i = 1, #ARGV, 2 do
  local record = redis.call('HGET', KEYS[1], ARGV[i])
  local payload = false
  local deletedAt = 0
  if record then
    local a = string.find(record, ' ', 1, true)
    local b = string.find(record, ' ', a + 1, true)
    if b then
      local last = string.match(string.sub(record, a + 1, b - 1), '(%d+)$')
      local entry = redis.call('XRANGE', KEYS[2], last .. '-0', last .. '-0')[1]
      if entry then
        for f = 1, #entry[2], 2 do
          if entry[2][f] == 'e' then payload = entry[2][f + 1] end
        end
      end
    end
    if ARGV[i + 1] ~= '' then deletedAt = tonumber(redis.call('HGET', KEYS[3], ARGV[i + 1]) or '0') end
  end
  out[#out + 1] = {record or false, payload, deletedAt}
end
return out
`;

/**
 * KEYS: items. ARGV: cursor, MATCH pattern, COUNT. One HSCAN step: {next cursor, the matched keys at
 * a revision above 0}, without sending their records.
 */
const KEYS_OF_SCRIPT = `
local step = redis.call('HSCAN', KEYS[1], ARGV[1], 'MATCH', ARGV[2], 'COUNT', ARGV[3])
local keys = {}
for i = 1, #step[2], 2 do
  if string.sub(step[2][i + 1], 1, 2) ~= '0 ' then table.insert(keys, step[2][i]) end
end
return {step[1], keys}
`;

/**
 * KEYS: items, and the older layout's revs, seqs, states. ARGV: triples of key, its positions as
 * the older layout held them, its record. Moves each key whose positions did not change meanwhile
 * (no append came between) into the items hash, unless it is there already (another process moved
 * it first), and removes it from the older hashes. Returns how many it removed.
 */
const MERGE_SCRIPT = `
local moved = 0
for i = 1, #ARGV, 3 do
  local key = ARGV[i]
  if (redis.call('HGET', KEYS[3], key) or '') == ARGV[i + 1] then
    if redis.call('HEXISTS', KEYS[1], key) == 0 then redis.call('HSET', KEYS[1], key, ARGV[i + 2]) end
    redis.call('HDEL', KEYS[2], key)
    redis.call('HDEL', KEYS[3], key)
    redis.call('HDEL', KEYS[4], key)
    moved = moved + 1
  end
end
return moved
`;

type Arg = string | number | Buffer;

/** The scripted commands, registered with `defineCommand` (ioredis sends EVALSHA, falling back to EVAL). */
export interface Scripted {
  registryAppend(
    ...args: [
      items: string,
      seq: string,
      stream: string,
      deleted: string,
      key: string,
      expected: number,
      rev: number,
      payload: string,
      withinKey: string,
      withinSince: number,
      state: Arg,
    ]
  ): Promise<[number, number]>;
  registryPrune(items: string, stream: string, key: string, beforeSeq: number): Promise<number>;
  registryCopy(items: string, seq: string, stream: string, deleted: string, key: string, at: number, rev: number, payload: string): Promise<number>;
  registryAdvance(seq: string, to: number): Promise<number>;
  registryReadStatesBuffer(items: string, stream: string, deleted: string, ...keysAndProjects: string[]): Promise<[Buffer | null, Buffer | null, number][]>;
  registryKeysOfBuffer(items: string, cursor: string, pattern: string, count: number): Promise<[Buffer, Buffer[]]>;
  registryMerge(items: string, revs: string, seqs: string, states: string, ...triples: Arg[]): Promise<number>;
}

/** A pipeline of scripted commands. */
export type ScriptedPipeline = { [name in keyof Scripted]: (...args: Parameters<Scripted[name]>) => ScriptedPipeline } & {
  exec(): Promise<[Error | null, unknown][] | null>;
};

/** Registers the scripts on a connection (and its pipelines). */
export const defineScripts = (redis: Redis): Scripted => {
  redis.defineCommand('registryAppend', { lua: APPEND_SCRIPT, numberOfKeys: 4 });
  redis.defineCommand('registryPrune', { lua: PRUNE_SCRIPT, numberOfKeys: 2 });
  redis.defineCommand('registryCopy', { lua: COPY_SCRIPT, numberOfKeys: 4 });
  redis.defineCommand('registryAdvance', { lua: ADVANCE_SCRIPT, numberOfKeys: 1 });
  redis.defineCommand('registryReadStates', { lua: READ_STATES_SCRIPT, numberOfKeys: 3, readOnly: true });
  redis.defineCommand('registryKeysOf', { lua: KEYS_OF_SCRIPT, numberOfKeys: 1, readOnly: true });
  redis.defineCommand('registryMerge', { lua: MERGE_SCRIPT, numberOfKeys: 4 });
  return redis as unknown as Scripted;
};

/** The scripted commands of a connection `defineScripts` prepared. */
export const scripted = (redis: Redis): Scripted => redis as unknown as Scripted;

/** A pipeline of a connection `defineScripts` prepared. */
export const scriptedPipeline = (redis: Redis): ScriptedPipeline => redis.pipeline() as unknown as ScriptedPipeline;
