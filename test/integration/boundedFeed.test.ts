import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { EventLog } from '../../src/events/EventLog.js';
import { JournalEventLog } from '../../src/events/JournalEventLog.js';
import { RedisEventLog } from '../../src/events/RedisEventLog.js';
import { ChangeFeed } from '../../src/projection/ChangeFeed.js';
import { LogReplay } from '../../src/projection/LogReplay.js';
import type { Change } from '../../src/projection/Projection.js';
import { Projector } from '../../src/projection/Projector.js';
import { RevisionProjection } from '../../src/projection/RevisionProjection.js';
import { Snapshots } from '../../src/projection/Snapshots.js';
import { States } from '../../src/projection/States.js';
import { soleWriter } from '../../src/store/StoreLease.js';
import { dropPrefix, REDIS_URL, uniquePrefix } from '../support/redis.js';
import { counted, draft, quiet, seen } from '../support/countedKind.js';
import { everyReplicaRunner, storeWriterRunner } from '../support/runners.js';

/** Resolves when `open()` is called. */
const gate = () => {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
};

interface Subject {
  name: string;
  open(): Promise<{ log: EventLog; dispose(): Promise<void> }>;
}

const subjects: Subject[] = [
  {
    name: 'the journal',
    open: async () => {
      const dir = mkdtempSync(join(tmpdir(), 'bounded-feed-'));
      // No fsync: the test is about positions, not the disk.
      const log = await JournalEventLog.open(join(dir, 'events.log'), quiet, async () => undefined);
      return { log, dispose: async () => (await log.close(), rmSync(dir, { recursive: true, force: true })) };
    },
  },
  {
    name: 'Redis',
    open: async () => {
      const prefix = uniquePrefix('feed');
      const log = await RedisEventLog.open(REDIS_URL, prefix, undefined, quiet);
      return { log, dispose: async () => (await log.close(), await dropPrefix(prefix)) };
    },
  },
];

for (const subject of subjects) {
  describe(`the change feed is a bounded window (on ${subject.name})`, function () {
    this.timeout(120_000);
    let log: EventLog;
    let dispose: () => Promise<void>;
    let dir: string;
    let states: States;
    let feed: ChangeFeed;
    let projector: Projector;
    const bound = 200;

    beforeEach(async () => {
      ({ log, dispose } = await subject.open());
      dir = mkdtempSync(join(tmpdir(), 'bounded-feed-snapshots-'));
      states = new States([counted]);
      // Never called for a kind kept out of the triple store.
      const revisions = new RevisionProjection(undefined as never, undefined as never, false);
      feed = new ChangeFeed(bound, new LogReplay(log, states, revisions));
      const store = { checkpoint: () => 0, persist: async () => undefined, restore: async () => ({ restored: true as const }) };
      projector = new Projector(log, states, revisions, feed, new Snapshots(join(dir, 'snapshot.json'), quiet), store, {
        snapshotEvents: 1e9,
        snapshotMillis: 1e9,
        log: quiet,
        restored: async (position) => feed.clear(position),
      });
    });
    afterEach(async () => {
      projector.close();
      await dispose();
      rmSync(dir, { recursive: true, force: true });
    });

    /** Appends `count` events, a hundred at a time over distinct items, one in a hundred a permanent deletion. */
    const write = async (count: number, afterEach: () => void): Promise<number> => {
      const revs = new Map<string, number>();
      let deletions = 0;
      for (let round = 0; round * 100 < count; round++) {
        const drafts = Array.from({ length: 100 }, (_, j) => {
          const key = `item${(round * 37 + j * 11) % 1_500}`;
          const rev = revs.get(key) ?? 0;
          const deleting = j === 0 && rev > 0;
          if (deleting) deletions++;
          return { next: draft(key, deleting ? 0 : rev + 1), expected: rev };
        });
        const appended = await Promise.all(drafts.map(({ next, expected }) => log.append(next, expected)));
        for (const { key, rev } of appended) revs.set(key, rev);
        await projector.catchUp(appended.reduce((max, e) => Math.max(max, e.seq), 0));
        afterEach();
      }
      return deletions;
    };

    it('holds at most its bound while runners are held back for 10,000 changes; released, each applies every change once, as the fold made it', async () => {
      await projector.restore();
      const made: string[] = [];
      const quick = everyReplicaRunner('quick', async (c) => void made.push(seen(c)), feed, { maxAttempts: 1, backoffMillis: 1, log: quiet });
      const held = gate();
      const applied: string[] = [];
      const slow = everyReplicaRunner(
        'slow',
        async (c) => {
          await held.opened;
          applied.push(seen(c));
        },
        feed,
        { maxAttempts: Infinity, backoffMillis: 1, log: quiet },
      );
      // The store's writer, held back as when the store is slower than the writes.
      let stored = 0;
      const written: string[] = [];
      const storeHeld = gate();
      const store = storeWriterRunner(
        feed,
        soleWriter(),
        { get: async () => stored, set: async (position) => void (stored = position) },
        async (changes) => {
          await storeHeld.opened;
          written.push(...changes.map(seen));
          return true;
        },
        { log: quiet, renewMillis: 20, pollMillis: 20, batch: 100 },
      );
      quick.startAt(0);
      slow.startAt(0);
      await store.start(0);
      let most = 0;
      const deletions = await write(10_000, () => (most = Math.max(most, feed.length)));
      const head = await log.lastSeq();
      expect(head).to.equal(10_000);
      await quick.reach(head);
      expect(made).to.have.length.above(9_000);
      // The window never held more than its bound, besides the permanent deletions kept aside.
      expect(deletions).to.be.above(0);
      expect(most).to.be.at.most(bound + deletions);
      expect(slow.position).to.be.below(bound);
      expect(store.position).to.equal(0);

      held.open();
      storeHeld.open();
      await slow.reach(head);
      await store.reach(head);
      expect(applied).to.deep.equal(made);
      expect(written).to.deep.equal(made);
      expect(feed.length).to.equal(0);
      quick.stop();
      slow.stop();
      await store.stop();
    });

    it("hands a runner behind the window a permanent deletion whose item's events were pruned from the log", async () => {
      await projector.restore();
      const held = gate();
      const applied: Change[] = [];
      const slow = everyReplicaRunner(
        'slow',
        async (c) => {
          await held.opened;
          applied.push(c);
        },
        feed,
        { maxAttempts: Infinity, backoffMillis: 1, log: quiet },
      );
      slow.startAt(0);
      await log.append(draft('first', 1), 0);
      await log.append(draft('gone', 1), 0);
      await log.append(draft('gone', 2), 1);
      const deleted = await log.append(draft('gone', 0), 2);
      await projector.catchUp(deleted.seq);
      // As a permanent deletion does: the item's events before its deletion are blanked.
      await log.prune('gone', deleted.seq);
      for (let i = 0; i < bound * 2; i++) await log.append(draft(`other${i}`, 1), 0);
      await projector.catchUp(await log.lastSeq());
      expect(feed.length).to.be.at.most(bound + 1);

      held.open();
      await slow.reach(await log.lastSeq());
      const removal = applied.find((c) => c.logged.seq === deleted.seq);
      expect(removal?.previous).to.deep.equal({ key: 'gone', rev: 2, updates: 1 });
      expect(removal?.next).to.equal(undefined);
      expect(applied.map((c) => c.logged.seq)).to.deep.equal([1, deleted.seq, ...Array.from({ length: bound * 2 }, (_, i) => deleted.seq + 1 + i)]);
      slow.stop();
    });
  });
}
