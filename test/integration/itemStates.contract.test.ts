import { expect } from 'chai';
import { Redis } from 'ioredis';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { EventDraft, EventLog, Kind, LogEvent } from '../../src/events/EventLog.js';
import { EventLogUnavailable, RevisionConflict } from '../../src/events/EventLog.js';
import type { ItemStates } from '../../src/events/ItemStates.js';
import { JournalEventLog } from '../../src/events/JournalEventLog.js';
import { decodeState, parseRecord } from '../../src/events/itemRecord.js';
import { RedisEventLog } from '../../src/events/RedisEventLog.js';
import type { KindDefinition } from '../../src/domain/KindDefinition.js';
import { stateTemplate } from '../../src/kernel/stateTemplate.js';
import { EmbeddedItemStates } from '../../src/projection/EmbeddedItemStates.js';
import { States } from '../../src/projection/States.js';
import { dropPrefix, REDIS_URL, uniquePrefix } from '../support/redis.js';

/** A toy kind: a counter whose state records every position of its events, as resources do. */
interface Counter {
  key: string;
  rev: number;
  total: number;
  seqs: number[];
}

const counters: KindDefinition<Counter> = {
  kind: 'resources',
  stateKey: (logged) => logged.key,
  keyOf: (state) => state.key,
  next: (state, logged) => {
    const event = logged.event as unknown as { type: string; add: number };
    if (event.type === 'Deleted') return undefined;
    return { key: logged.key, rev: logged.rev, total: (state?.total ?? 0) + event.add, seqs: [...(state?.seqs ?? []), logged.seq] };
  },
  render: () => ({}),
};

const fold = (_kind: Kind, events: readonly LogEvent[]) => events.reduce<Counter | undefined>((state, event) => counters.next(state, event), undefined);

/** One process's view: the port, and the fold of the log it runs (the projector's part: folding in process, or keeping the cache true). */
interface Replica {
  states: ItemStates;
  log: EventLog;
  /** Brings this process up to the log head, as the read barrier and a writer's wait do. */
  settle(): Promise<void>;
  close(): Promise<void>;
}

interface Subject {
  name: string;
  shared: boolean;
  bounded: boolean;
  fresh(capacity: number): Promise<{ open(): Promise<Replica>; dispose(): Promise<void> }>;
}

const follower = (log: EventLog, apply: (event: LogEvent) => void) => {
  let applied = 0;
  return async () => {
    for (;;) {
      const events = await log.read(applied, 1000);
      if (!events.length) return;
      for (const event of events) {
        apply(event);
        applied = event.seq;
      }
    }
  };
};

const subjects: Subject[] = [
  {
    name: 'EmbeddedItemStates (journal)',
    shared: false,
    bounded: false,
    fresh: async () => {
      const dir = mkdtempSync(join(tmpdir(), 'states-contract-'));
      return {
        open: async () => {
          const log = await JournalEventLog.open(join(dir, 'events.log'));
          const states = new States([counters as KindDefinition]);
          const map = states.of(counters);
          const settle = follower(log, (event) => {
            const next = counters.next(map.get(event.key), event);
            if (next === undefined) map.delete(event.key);
            else map.set(event.key, next);
          });
          return { states: new EmbeddedItemStates(states), log, settle, close: () => log.close() };
        },
        dispose: async () => rmSync(dir, { recursive: true, force: true }),
      };
    },
  },
  {
    name: 'RedisItemStates',
    shared: true,
    bounded: true,
    fresh: async (capacity) => {
      const prefix = uniquePrefix('states');
      return {
        open: async () => {
          const log = await RedisEventLog.open(REDIS_URL, prefix);
          const states = log.itemStates(fold, capacity);
          return { states, log, settle: follower(log, (event) => states.observe(event)), close: () => log.close() };
        },
        dispose: () => dropPrefix(prefix),
      };
    },
  },
];

/** What a writer does: read the state, append the event with the state it leads to, wait for its own write. */
const write = async (replica: Replica, key: string, add: number, type = 'Added'): Promise<LogEvent> => {
  const previous = await replica.states.get<Counter>('resources', key);
  const rev = type === 'Deleted' ? 0 : (previous?.rev ?? 0) + 1;
  const draft: EventDraft = { key, kind: 'resources', rev, event: { type, instant: '2026-01-01T00:00:00.000Z', add } as EventDraft['event'] };
  const state = stateTemplate((seq) => counters.next(previous, { ...draft, seq }));
  const logged = await replica.log.append(state ? { ...draft, state } : draft, previous?.rev ?? 0);
  await replica.settle();
  return logged;
};

for (const subject of subjects) {
  describe(`item states contract: ${subject.name}`, () => {
    let store: Awaited<ReturnType<Subject['fresh']>>;
    let replica: Replica;
    beforeEach(async () => {
      store = await subject.fresh(50);
      replica = await store.open();
    });
    afterEach(async () => {
      await replica.close();
      await store.dispose();
    });

    it('has no state for an item never written, and answers several keys at their indexes', async () => {
      expect(await replica.states.get('resources', 'resources/o/p/none')).to.equal(undefined);
      await write(replica, 'resources/o/p/a', 2);
      const many = await replica.states.getMany<Counter>('resources', ['resources/o/p/none', 'resources/o/p/a', 'resources/o/p/none']);
      expect(many.map((s) => s?.total)).to.deep.equal([undefined, 2, undefined]);
    });

    it('holds the state the log folds to, with the positions the log assigned', async () => {
      const seqs = [(await write(replica, 'resources/o/p/a', 1)).seq];
      await write(replica, 'resources/o/p/b', 10);
      seqs.push((await write(replica, 'resources/o/p/a', 2)).seq, (await write(replica, 'resources/o/p/a', 3)).seq);
      const state = await replica.states.get<Counter>('resources', 'resources/o/p/a');
      expect(state).to.deep.equal({ key: 'resources/o/p/a', rev: 3, total: 6, seqs });
      expect(state).to.deep.equal(fold('resources', await replica.log.history('resources/o/p/a', Number.MAX_SAFE_INTEGER)));
    });

    it('reads its own writes at once, the cached state included', async () => {
      await write(replica, 'resources/o/p/a', 1);
      expect((await replica.states.get<Counter>('resources', 'resources/o/p/a'))?.total).to.equal(1);
      await write(replica, 'resources/o/p/a', 4);
      expect((await replica.states.get<Counter>('resources', 'resources/o/p/a'))?.total).to.equal(5);
    });

    it('has no state once the item is deleted, nor once its events are pruned; the key starts again from revision 1', async () => {
      await write(replica, 'resources/o/p/a', 1);
      const deleted = await write(replica, 'resources/o/p/a', 0, 'Deleted');
      expect(await replica.states.get('resources', 'resources/o/p/a')).to.equal(undefined);
      await replica.log.prune('resources/o/p/a', deleted.seq + 1);
      await replica.settle();
      expect(await replica.states.get('resources', 'resources/o/p/a')).to.equal(undefined);
      await write(replica, 'resources/o/p/a', 7);
      expect(await replica.states.get<Counter>('resources', 'resources/o/p/a')).to.include({ rev: 1, total: 7 });
    });

    it('never judges rev: a write evaluated on an overtaken state is refused by the log', async () => {
      await write(replica, 'resources/o/p/a', 1);
      const draft: EventDraft = { key: 'resources/o/p/a', kind: 'resources', rev: 1, event: { type: 'Added', instant: '2026-01-01T00:00:00.000Z' } };
      const refused = await replica.log.append(draft, 0).catch((error: unknown) => error);
      expect(refused).to.be.instanceOf(RevisionConflict);
      expect((await replica.states.get<Counter>('resources', 'resources/o/p/a'))?.total).to.equal(1);
    });

    it("lists a project's keys of a kind that hold a state: not another project's, another kind's, nor a deleted item's", async () => {
      await write(replica, 'resources/o/p/a', 1);
      await write(replica, 'resources/o/p/b', 1);
      await write(replica, 'resources/o/p-2/c', 1);
      await write(replica, 'resources/o/p*/d', 1);
      await write(replica, 'resources/o/p/b', 0, 'Deleted');
      expect((await replica.states.keysOf('resources', 'o/p')).sort()).to.deep.equal(['resources/o/p/a']);
      expect(await replica.states.keysOf('resources', 'o/p*')).to.deep.equal(['resources/o/p*/d']);
      expect(await replica.states.keysOf('schemas', 'o/p')).to.deep.equal([]);
    });

    if (subject.shared)
      it('answers alike on two processes: a state written by one is read by the other once it reached the log head, never an older one', async () => {
        const other = await store.open();
        try {
          await write(replica, 'resources/o/p/a', 1);
          await other.settle();
          expect((await other.states.get<Counter>('resources', 'resources/o/p/a'))?.total).to.equal(1);
          // The other now caches it; a write here must not leave it answering the old state once it follows.
          await write(replica, 'resources/o/p/a', 2);
          await other.settle();
          expect((await other.states.get<Counter>('resources', 'resources/o/p/a'))?.total).to.equal(3);
          await write(other, 'resources/o/p/a', 4);
          await replica.settle();
          expect(await replica.states.get<Counter>('resources', 'resources/o/p/a')).to.include({ rev: 3, total: 7 });
        } finally {
          await other.close();
        }
      });

    if (subject.bounded)
      it('holds at most its bound of states in memory, however many items the log holds', async () => {
        for (let n = 0; n < 300; n++) await write(replica, `resources/o/p/i${n}`, n);
        const read = await replica.states.getMany<Counter>(
          'resources',
          Array.from({ length: 300 }, (_, n) => `resources/o/p/i${n}`),
        );
        expect(read.map((s) => s?.total)).to.deep.equal(Array.from({ length: 300 }, (_, n) => n));
        expect(replica.states.held()).to.be.at.most(50);
      });
  });
}

describe('item states on Redis: kept beside the events', () => {
  const prefix = uniquePrefix('states-copied');
  after(() => dropPrefix(prefix));

  it('writes the state in the step that appends its event, the position filled in, and drops it with a deletion', async () => {
    const log = await RedisEventLog.open(REDIS_URL, `${prefix}-kept`);
    const redis = new Redis(REDIS_URL);
    try {
      const draft: EventDraft = {
        key: 'resources/o/p/a',
        kind: 'resources',
        rev: 1,
        event: { type: 'Added', instant: '2026-01-01T00:00:00.000Z', add: 2 } as EventDraft['event'],
      };
      const logged = await log.append({ ...draft, state: stateTemplate((seq) => counters.next(undefined, { ...draft, seq })) }, 0);
      const record = parseRecord((await redis.hgetBuffer(`{${prefix}-kept}:items`, 'resources/o/p/a'))!);
      expect(record).to.deep.include({ rev: 1, seqs: [logged.seq] });
      // Kept as what it adds to its event: read with the event's JSON.
      const [[, [, payload]]] = (await redis.xrangeBuffer(`{${prefix}-kept}:events`, `${logged.seq}-0`, `${logged.seq}-0`)) as [Buffer, Buffer[]][];
      expect(decodeState(record.state!, payload!, logged.seq)).to.deep.equal({ key: 'resources/o/p/a', rev: 1, total: 2, seqs: [logged.seq] });
      expect(JSON.stringify(await log.get(logged.seq))).not.to.include('state');
      await log.append({ ...draft, rev: 0, event: { type: 'Deleted', instant: '2026-01-01T00:00:00.000Z' } }, 1);
      expect(parseRecord((await redis.hgetBuffer(`{${prefix}-kept}:items`, 'resources/o/p/a'))!).state).to.equal(undefined);
    } finally {
      redis.disconnect();
      await log.close();
      await dropPrefix(`${prefix}-kept`);
    }
  });

  it("answers from the replica's own fold while Redis cannot be reached, and caches none of it", async () => {
    const log = await RedisEventLog.open(REDIS_URL, `${prefix}-away`);
    const own = new Map([['resources/o/p/a', { key: 'resources/o/p/a', rev: 1, total: 9, seqs: [1] }]]);
    const states = log.itemStates(fold, 10, (_kind, keys) => keys.map((key) => own.get(key)));
    await log.close();
    expect(await states.getMany('resources', ['resources/o/p/a', 'resources/o/p/b'])).to.deep.equal([own.get('resources/o/p/a'), undefined]);
    expect(states.held()).to.equal(0);
    const without = log.itemStates(fold, 10);
    expect(await without.get('resources', 'resources/o/p/a').catch((error: unknown) => error)).to.be.instanceOf(EventLogUnavailable);
  });

  it('folds the history of a key whose state the log does not hold (a log copied from a journal)', async () => {
    const log = await RedisEventLog.open(REDIS_URL, prefix);
    try {
      const event = (seq: number, rev: number, add: number): LogEvent => ({
        key: 'resources/o/p/a',
        kind: 'resources',
        rev,
        seq,
        event: { type: 'Added', instant: '2026-01-01T00:00:00.000Z', add } as EventDraft['event'],
      });
      await log.copy([event(3, 1, 5), event(8, 2, 6)]);
      const states = log.itemStates(fold, 10);
      expect(await states.get('resources', 'resources/o/p/a')).to.deep.equal({ key: 'resources/o/p/a', rev: 2, total: 11, seqs: [3, 8] });
    } finally {
      await log.close();
    }
  });
});
