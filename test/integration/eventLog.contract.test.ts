import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { EventDraft, EventLog } from '../../src/events/EventLog.js';
import { RevisionConflict, ScopeDeleted } from '../../src/events/EventLog.js';
import { JournalEventLog } from '../../src/events/JournalEventLog.js';
import { RedisEventLog } from '../../src/events/RedisEventLog.js';
import { dropPrefix, REDIS_URL, uniquePrefix } from '../support/redis.js';

/** How to get a fresh log, the same log again, and whether two open instances can share it. */
interface Subject {
  name: string;
  fresh(): Promise<{ open(): Promise<EventLog>; dispose(): Promise<void> }>;
  shared: boolean;
}

const subjects: Subject[] = [
  {
    name: 'JournalEventLog',
    shared: false,
    fresh: async () => {
      const dir = mkdtempSync(join(tmpdir(), 'journal-contract-'));
      return { open: () => JournalEventLog.open(join(dir, 'events.log')), dispose: async () => rmSync(dir, { recursive: true, force: true }) };
    },
  },
  {
    name: 'RedisEventLog',
    shared: true,
    fresh: async () => {
      const prefix = uniquePrefix('contract');
      return { open: () => RedisEventLog.open(REDIS_URL, prefix), dispose: () => dropPrefix(prefix) };
    },
  },
];

const draft = (key: string, rev: number, type = rev === 1 ? 'ResourceCreated' : 'ResourceUpdated'): EventDraft => ({
  key,
  kind: 'resources',
  org: 'o',
  project: 'o/p',
  rev,
  event: { type, instant: '2026-01-01T00:00:00.000Z', id: key, rev, source: { name: `${key}@${rev}`, ünï: '\n\t"' } } as EventDraft['event'],
});

const settledWithin = async (promise: Promise<unknown>, ticks: number): Promise<boolean> => {
  let done = false;
  void promise.then(() => (done = true));
  for (let i = 0; i < ticks && !done; i++) await new Promise((r) => setTimeout(r, 5));
  return done;
};

for (const subject of subjects) {
  describe(`event log contract: ${subject.name}`, () => {
    let store: Awaited<ReturnType<Subject['fresh']>>;
    let log: EventLog;
    beforeEach(async () => {
      store = await subject.fresh();
      log = await store.open();
    });
    afterEach(async () => {
      await log.close();
      await store.dispose();
    });

    it('appends, reads in order, gets by position and knows its end', async () => {
      expect(await log.lastSeq()).to.equal(0);
      expect(await log.read(0, 10)).to.deep.equal([]);
      const a1 = await log.append(draft('a', 1), 0);
      const b1 = await log.append(draft('b', 1), 0);
      const a2 = await log.append(draft('a', 2), 1);
      expect([a1.seq, b1.seq, a2.seq]).to.deep.equal([1, 2, 3]);
      const all = await log.read(0, 10);
      expect(all).to.deep.equal([a1, b1, a2]);
      expect(all[0]).to.deep.equal({ ...draft('a', 1), seq: 1 });
      expect(await log.read(1, 1)).to.deep.equal([b1]);
      expect(await log.read(3, 10)).to.deep.equal([]);
      expect(await log.get(2)).to.deep.equal(b1);
      expect(await log.get(99)).to.equal(undefined);
      expect(await log.lastSeq()).to.equal(3);
    });

    it('refuses an append whose expected revision is not the current one', async () => {
      await log.append(draft('a', 1), 0);
      const conflict = await log.append(draft('a', 1), 0).catch((e: unknown) => e);
      expect(conflict).to.be.instanceOf(RevisionConflict);
      expect(conflict).to.include({ key: 'a', expected: 0, actual: 1 });
      expect(await log.append(draft('a', 3), 2).catch((e: unknown) => e)).to.include({ actual: 1 });
      expect(await log.lastSeq()).to.equal(1);
      // Revision 0 after a deletion lets the id be created again.
      await log.append({ ...draft('a', 0, 'ResourceDeleted') }, 1);
      expect((await log.append(draft('a', 1), 0)).seq).to.equal(3);
    });

    it('appends a batch judging each entry on its own, in order, as that many appends would', async () => {
      await log.append(draft('a', 1), 0);
      const outcomes = await log.appendBatch([
        { draft: draft('b', 1), expectedRev: 0 },
        // Refused alone: `a` is at 1.
        { draft: draft('a', 1), expectedRev: 0 },
        // Sees the batch's own earlier entry.
        { draft: draft('b', 2), expectedRev: 1 },
        { draft: draft('c', 1), expectedRev: 0 },
      ]);
      expect(outcomes[0]).to.deep.equal({ ...draft('b', 1), seq: 2 });
      expect(outcomes[1]).to.be.instanceOf(RevisionConflict);
      expect(outcomes[1]).to.include({ key: 'a', expected: 0, actual: 1 });
      expect(outcomes[2]).to.deep.equal({ ...draft('b', 2), seq: 3 });
      expect(outcomes[3]).to.deep.equal({ ...draft('c', 1), seq: 4 });
      expect(await log.read(0, 10)).to.deep.equal([{ ...draft('a', 1), seq: 1 }, outcomes[0], outcomes[2], outcomes[3]]);
      expect(await log.lastSeq()).to.equal(4);
      expect(await log.appendBatch([])).to.deep.equal([]);
      // The scope check applies per entry too.
      await log.append(draft('p', 1), 0);
      await log.append({ ...draft('p', 0, 'ProjectDeleted') }, 1);
      const scoped = await log.appendBatch([{ draft: { ...draft('d', 1), within: { key: 'p', since: 5 } }, expectedRev: 0 }]);
      expect(scoped[0]).to.be.instanceOf(ScopeDeleted);
    });

    it('lets exactly one of N concurrent appends with the same expected revision win', async () => {
      await log.append(draft('a', 1), 0);
      const results = await Promise.allSettled(Array.from({ length: 25 }, () => log.append(draft('a', 2), 1)));
      const won = results.filter((r) => r.status === 'fulfilled');
      const lost = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
      expect(won).to.have.length(1);
      expect(lost.every((r) => r.reason instanceof RevisionConflict && r.reason.actual === 2)).to.equal(true);
      expect(await log.lastSeq()).to.equal(2);
      expect((await log.read(0, 100)).map((e) => e.seq)).to.deep.equal([1, 2]);
    });

    it('wakes a waiter on a new event, at once when one exists, and on abort', async () => {
      await log.append(draft('a', 1), 0);
      await log.waitForNew(0);
      const waiting = log.waitForNew(1);
      expect(await settledWithin(waiting, 10)).to.equal(false);
      await log.append(draft('b', 1), 0);
      await waiting;
      const abort = new AbortController();
      const aborted = log.waitForNew(2, abort.signal);
      expect(await settledWithin(aborted, 4)).to.equal(false);
      abort.abort();
      await aborted;
      await log.waitForNew(2, abort.signal);
    });

    it('prunes a key so that only its events from the marker on remain', async () => {
      await log.append(draft('a', 1), 0);
      await log.append(draft('b', 1), 0);
      await log.append(draft('a', 2), 1);
      const marker = await log.append(draft('a', 0, 'ResourceDeleted'), 2);
      await log.prune('a', marker.seq);
      expect((await log.read(0, 10)).map((e) => [e.key, e.seq])).to.deep.equal([
        ['b', 2],
        ['a', 4],
      ]);
      expect(await log.get(1)).to.equal(undefined);
      expect(await log.get(3)).to.equal(undefined);
      expect(await log.lastSeq()).to.equal(4);
      expect((await log.append(draft('a', 1), 0)).seq).to.equal(5);
    });

    it('puts a key pruned of every event back at revision 0 (the items of a deleted project)', async () => {
      await log.append(draft('item', 1), 0);
      await log.append(draft('item', 2), 1);
      const marker = await log.append(draft('project', 1), 0);
      await log.prune('item', marker.seq);
      let stale: unknown;
      await log.append(draft('item', 3), 2).catch((error) => (stale = error));
      expect(stale).to.be.instanceOf(RevisionConflict);
      expect((await log.append(draft('item', 1), 0)).rev).to.equal(1);
    });

    it('refuses an append within a key deleted after the writer saw it, across close and reopen (a write that outlived its project)', async () => {
      const project = (rev: number, type: string): EventDraft => ({ ...draft('projects/o/p', rev, type), kind: 'projects' });
      const created = await log.append(project(1, 'ProjectCreated'), 0);
      const within = { key: 'projects/o/p', since: created.seq };
      // Seen as it is: accepted, and the event is recorded without `within`.
      const a = await log.append({ ...draft('a', 1), within }, 0);
      expect(a).to.deep.equal({ ...draft('a', 1), seq: a.seq });
      expect(await log.get(a.seq)).to.deep.equal(a);
      const deleted = await log.append(project(0, 'ProjectMarkedForDeletion'), 1);
      const again = await log.append(project(1, 'ProjectCreated'), 0);
      expect(again.seq).to.equal(deleted.seq + 1);
      for (let round = 0; round < 2; round++) {
        // Started before the deletion: refused, whatever its revision says, and nothing appended.
        const head = await log.lastSeq();
        const refused = await log.append({ ...draft('b', 1), within }, 0).catch((e: unknown) => e);
        expect(refused).to.be.instanceOf(ScopeDeleted);
        expect(refused).to.include({ key: 'projects/o/p', deletedAt: deleted.seq });
        expect(await log.lastSeq()).to.equal(head);
        // Started in the project created again: accepted; a key never deleted judges nothing.
        await log.append({ ...draft(`c${round}`, 1), within: { key: 'projects/o/p', since: again.seq } }, 0);
        await log.append({ ...draft(`d${round}`, 1), within: { key: 'projects/o/other', since: 0 } }, 0);
        await log.close();
        log = await store.open();
      }
    });

    it("reads one key's history up to a position, in order, pruned events skipped, across close and reopen", async () => {
      const a1 = await log.append(draft('a', 1), 0);
      await log.append(draft('b', 1), 0);
      const a2 = await log.append(draft('a', 2), 1);
      const a3 = await log.append(draft('a', 3), 2);
      expect(await log.history('a', 4)).to.deep.equal([a1, a2, a3]);
      expect(await log.history('a', 3)).to.deep.equal([a1, a2]);
      expect(await log.history('a', 0)).to.deep.equal([]);
      expect(await log.history('unknown', 10)).to.deep.equal([]);
      const marker = await log.append(draft('a', 0, 'ResourceDeleted'), 3);
      await log.prune('a', marker.seq);
      const again = await log.append(draft('a', 1), 0);
      expect(await log.history('a', 10)).to.deep.equal([marker, again]);
      await log.close();
      log = await store.open();
      expect(await log.history('a', 10)).to.deep.equal([marker, again]);
      expect((await log.history('b', 10)).map((e) => e.seq)).to.deep.equal([2]);
    });

    it('keeps events, revisions and prunes across close and reopen', async () => {
      await log.append(draft('a', 1), 0);
      await log.append(draft('b', 1), 0);
      const marker = await log.append(draft('b', 0, 'ResourceDeleted'), 1);
      await log.prune('b', marker.seq);
      await log.append(draft('a', 2), 1);
      const before = await log.read(0, 10);
      await log.close();
      log = await store.open();
      expect(await log.read(0, 10)).to.deep.equal(before);
      expect(await log.lastSeq()).to.equal(4);
      expect(await log.append(draft('a', 2), 1).catch((e: unknown) => e)).to.be.instanceOf(RevisionConflict);
      expect((await log.append(draft('a', 3), 2)).seq).to.equal(5);
    });

    if (subject.shared) {
      it('shares positions, revisions and wake-ups between two open instances', async () => {
        const other = await store.open();
        try {
          const waiting = log.waitForNew(0);
          await other.append(draft('a', 1), 0);
          await waiting;
          expect(await log.append(draft('a', 1), 0).catch((e: unknown) => e)).to.be.instanceOf(RevisionConflict);
          const results = await Promise.allSettled([
            ...Array.from({ length: 10 }, () => log.append(draft('a', 2), 1)),
            ...Array.from({ length: 10 }, () => other.append(draft('a', 2), 1)),
          ]);
          expect(results.filter((r) => r.status === 'fulfilled')).to.have.length(1);
          expect(await other.read(0, 10)).to.deep.equal(await log.read(0, 10));
        } finally {
          await other.close();
        }
      });
    }
  });
}
