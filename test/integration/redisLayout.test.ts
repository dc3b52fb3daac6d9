import { expect } from 'chai';
import { Redis } from 'ioredis';
import type { EventDraft, Kind, LogEvent } from '../../src/events/EventLog.js';
import { RedisEventLog } from '../../src/events/RedisEventLog.js';
import { splitItemKeys } from '../../src/events/redisLogKeys.js';
import { stateTemplate } from '../../src/kernel/stateTemplate.js';
import type { Log } from '../../src/kernel/Log.js';
import { dropPrefix, REDIS_URL, uniquePrefix } from '../support/redis.js';

/** The append script of the layout before one field an item (three hashes: revs, seqs, states), as that version ran it. */
const SPLIT_APPEND = `
local actual = tonumber(redis.call('HGET', KEYS[1], ARGV[1]) or '0')
if actual ~= tonumber(ARGV[2]) then return {0, actual} end
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

interface Counter {
  rev: number;
  total: number;
  seqs: number[];
}

const next = (state: Counter | undefined, logged: LogEvent): Counter | undefined => {
  const event = logged.event as unknown as { type: string; add: number };
  return event.type === 'Deleted' ? undefined : { rev: logged.rev, total: (state?.total ?? 0) + event.add, seqs: [...(state?.seqs ?? []), logged.seq] };
};
const fold = (_kind: Kind, events: readonly LogEvent[]) => events.reduce<Counter | undefined>(next, undefined);

const quiet: Log = { info: () => undefined, warn: () => undefined, error: () => undefined };

/** Writes as the previous version did: `writes` of [key, add, type], each with the state it leads to (a copied one without). */
const writeSplit = async (redis: Redis, prefix: string, writes: [string, number, string?][]): Promise<void> => {
  const states = new Map<string, Counter>();
  const old = splitItemKeys(prefix);
  for (const [key, add, type = 'Added'] of writes) {
    const previous = states.get(key);
    const rev = type === 'Deleted' ? 0 : (previous?.rev ?? 0) + 1;
    const draft: EventDraft = { key, kind: 'resources', rev, event: { type, instant: '2026-01-01T00:00:00.000Z', add } as EventDraft['event'] };
    const template = type === 'Copied' ? undefined : stateTemplate((seq) => next(previous, { ...draft, seq }));
    const keys = [old.revs, `{${prefix}}:seq`, `{${prefix}}:events`, old.seqs, `{${prefix}}:deleted`, old.states];
    const [, seq] = (await redis.eval(SPLIT_APPEND, 6, ...keys, key, previous?.rev ?? 0, rev, JSON.stringify(draft), '', 0, ...(template ?? []))) as [
      number,
      number,
    ];
    const state = next(previous, { ...draft, seq });
    if (state) states.set(key, state);
    else states.delete(key);
  }
};

describe('a Redis log written in the layout before one field an item', function () {
  this.timeout(60_000);
  let redis: Redis;
  let prefix: string;
  beforeEach(() => {
    redis = new Redis(REDIS_URL);
    prefix = uniquePrefix('layout');
  });
  afterEach(async () => {
    redis.disconnect();
    await dropPrefix(prefix);
  });

  it('is moved at start: states, histories, revisions, deletions and listings read as before, and writes go on', async () => {
    await writeSplit(redis, prefix, [
      ['resources/o/p/a', 1],
      ['resources/o/p/b', 10],
      ['resources/o/p/a', 2],
      ['resources/o/p/c', 5],
      ['resources/o/p/c', 0, 'Deleted'],
      ['resources/o/p/d', 3, 'Copied'],
    ]);
    const log = await RedisEventLog.open(REDIS_URL, prefix, undefined, quiet);
    try {
      expect(await redis.exists(...Object.values(splitItemKeys(prefix)))).to.equal(0);
      const states = log.itemStates(fold, 10);
      expect(await states.getMany('resources', ['resources/o/p/a', 'resources/o/p/b', 'resources/o/p/c', 'resources/o/p/d'])).to.deep.equal([
        { rev: 2, total: 3, seqs: [1, 3] },
        { rev: 1, total: 10, seqs: [2] },
        undefined,
        { rev: 1, total: 3, seqs: [6] },
      ]);
      expect((await log.history('resources/o/p/a', 10)).map((e) => e.seq)).to.deep.equal([1, 3]);
      expect((await states.keysOf('resources', 'o/p')).sort()).to.deep.equal(['resources/o/p/a', 'resources/o/p/b', 'resources/o/p/d']);
      const refused = await log
        .append({ key: 'resources/o/p/a', kind: 'resources', rev: 2, event: { type: 'Added', instant: 'now' } }, 1)
        .catch((e: unknown) => e);
      expect(refused).to.have.property('actual', 2);
      const written = await log.append({ key: 'resources/o/p/a', kind: 'resources', rev: 3, event: { type: 'Added', instant: 'now' } }, 2);
      expect(written.seq).to.equal(7);
      expect((await log.history('resources/o/p/a', 10)).map((e) => e.seq)).to.deep.equal([1, 3, 7]);
      await log.prune('resources/o/p/c', 100);
      expect((await log.history('resources/o/p/c', 100)).length).to.equal(0);
    } finally {
      await log.close();
    }
  });

  it('is moved once when several replicas start on it together', async () => {
    await writeSplit(
      redis,
      prefix,
      Array.from({ length: 1_200 }, (_, n) => [`resources/o/p/i${n % 1_100}`, n] as [string, number]),
    );
    const logs = await Promise.all([1, 2, 3].map(() => RedisEventLog.open(REDIS_URL, prefix, undefined, quiet)));
    try {
      expect(await redis.hlen(`{${prefix}}:items`)).to.equal(1_100);
      expect(await redis.exists(...Object.values(splitItemKeys(prefix)))).to.equal(0);
      const read = await logs[2]!.itemStates(fold, 10).getMany<Counter>('resources', ['resources/o/p/i5', 'resources/o/p/i1099']);
      expect(read).to.deep.equal([
        { rev: 2, total: 1_110, seqs: [6, 1_106] },
        { rev: 1, total: 1_099, seqs: [1_100] },
      ]);
    } finally {
      await Promise.all(logs.map((l) => l.close()));
    }
  });
});
