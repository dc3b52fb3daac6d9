import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RedisEventLog } from '../../src/events/RedisEventLog.js';
import { ChangeFeed } from '../../src/projection/ChangeFeed.js';
import { LogReplay } from '../../src/projection/LogReplay.js';
import { Projector } from '../../src/projection/Projector.js';
import { RevisionProjection } from '../../src/projection/RevisionProjection.js';
import { Snapshots } from '../../src/projection/Snapshots.js';
import { States } from '../../src/projection/States.js';
import { dropPrefix, REDIS_URL, uniquePrefix } from '../support/redis.js';
import { counted, draft, quiet, seen } from '../support/countedKind.js';
import { everyReplicaRunner } from '../support/runners.js';

/** The fold of one log, holding every state (embedded) or none of the shared kind (Redis with the external store), its changes recorded. */
const fold = (log: RedisEventLog, dir: string, shared: boolean, capacity: number) => {
  const states = new States([counted], new Set(shared ? ['resources'] : []));
  const revisions = new RevisionProjection(undefined as never, undefined as never, false);
  const feed = new ChangeFeed(Infinity, new LogReplay(log, states, revisions));
  const store = { checkpoint: () => 0, persist: async () => undefined, restore: async () => ({ restored: true as const }) };
  const projector = new Projector(log, states, revisions, feed, new Snapshots(join(dir, `${shared}.json`), quiet), store, {
    snapshotEvents: 1e9,
    snapshotMillis: 1e9,
    log: quiet,
    restored: async (position) => feed.clear(position),
    sharedCapacity: capacity,
    shared: { keysOf: async () => [], getMany: async (_kind, keys) => keys.map(() => undefined) },
  });
  const changes: string[] = [];
  const runner = everyReplicaRunner('record', async (c) => void changes.push(seen(c)), feed, { maxAttempts: 1, backoffMillis: 1, log: quiet });
  return { states, projector, changes, runner };
};

describe('a replica folding a kind it does not hold (the states kept beside the log) keeps a bounded cache, and makes the changes a full fold makes', function () {
  this.timeout(180_000);
  let log: RedisEventLog;
  let prefix: string;
  let dir: string;
  before(async () => {
    prefix = uniquePrefix('shared-fold');
    log = await RedisEventLog.open(REDIS_URL, prefix, undefined, quiet);
    dir = mkdtempSync(join(tmpdir(), 'shared-fold-'));
  });
  after(async () => {
    await log.close();
    await dropPrefix(prefix);
    rmSync(dir, { recursive: true, force: true });
  });

  it('10,000 creates then updates and deletions of items long out of a 50-state cache: the same changes, at most 50 states held, none in the maps', async () => {
    const capacity = 50;
    const full = fold(log, dir, false, capacity);
    const lean = fold(log, dir, true, capacity);
    for (const f of [full, lean]) {
      await f.projector.restore();
      f.runner.startAt(f.projector.position);
    }
    const ITEMS = 10_000;
    for (let at = 0; at < ITEMS; at += 500) {
      const appended = await Promise.all(Array.from({ length: 500 }, (_, i) => log.append(draft(`resources/o/p/r${at + i}`, 1), 0)));
      await lean.projector.catchUp(Math.max(...appended.map((e) => e.seq)));
    }
    // Every 97th item again, from the first: long out of the cache, its state before is read from its history.
    const again = Array.from({ length: Math.floor(ITEMS / 97) }, (_, i) => `resources/o/p/r${i * 97}`);
    for (const key of again) await log.append(draft(key, 2), 1);
    for (const key of again.filter((_, i) => i % 3 === 0)) await log.append(draft(key, 0), 2);
    for (const key of again.slice(0, 5)) await log.append(draft(key, 3), 2).catch(() => log.append(draft(key, 1), 0));
    const head = await log.lastSeq();
    for (const f of [full, lean]) {
      await f.projector.catchUp(head);
      await f.runner.reach(head);
      f.runner.stop();
      f.projector.close();
    }
    expect(lean.changes.length).to.equal(full.changes.length);
    expect(lean.changes).to.deep.equal(full.changes);
    expect(full.states.size).to.be.above(ITEMS / 2);
    expect(lean.states.size, 'states in the maps').to.equal(0);
    expect(lean.projector.heldShared, 'states the fold holds').to.be.at.most(capacity);
  });
});
