import { expect } from 'chai';
import type { Log } from '../../src/kernel/Log.js';
import { ChangeFeed } from '../../src/projection/ChangeFeed.js';
import type { Change } from '../../src/projection/Projection.js';
import type { StorePosition, WatchedCheckpoints } from '../../src/projection/storeWriter.js';
import type { WriterLease } from '../../src/store/StoreLease.js';
import { SparqlRequestFailed } from '../../src/store/SparqlHttpClient.js';
import { change, storeWriterRunner } from '../support/runners.js';

const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined } as unknown as Log;

const lease = (held: boolean): WriterLease => ({
  acquire: async () => (held ? 1 : undefined),
  renew: async () => held,
  valid: () => held,
  epoch: held ? 1 : undefined,
  release: async () => undefined,
});

/** Checkpoints every runner of the test hears, as replicas hear Redis. */
const announcements = (): WatchedCheckpoints => {
  const positions = new Map<string, number>();
  const listeners = new Set<{ name: string; heard: (position: number) => void }>();
  return {
    get: async (name) => positions.get(name),
    set: async (name, position) => {
      positions.set(name, position);
      for (const l of listeners) if (l.name === name) l.heard(position);
    },
    watch: async (name, heard) => {
      const listener = { name, heard };
      listeners.add(listener);
      return async () => void listeners.delete(listener);
    },
  };
};

describe('the projection into a store every replica shares', () => {
  it("records each batch in the store and announces it; another replica's waiting reader is released by the announcement, with no query to the store", async () => {
    let recorded = 0;
    /** What each replica read of the store's record. */
    const reads: Record<'holder' | 'other', number[]> = { holder: [], other: [] };
    const store = (who: keyof typeof reads): StorePosition => ({
      get: async () => (reads[who].push(recorded), recorded),
      set: async (position) => void (recorded = position),
    });
    const announced = announcements();
    const written: number[] = [];
    // Pauses far longer than the test: only a wake-up (a push, a reader, an announcement) moves a runner.
    const options = { log: quiet, renewMillis: 600_000, pollMillis: 600_000, batch: 2, announce: { checkpoints: announced, as: () => 'store:7' } };
    const feeds = { holder: new ChangeFeed(), other: new ChangeFeed() };
    const other = storeWriterRunner(feeds.other, lease(false), store('other'), async () => true, options);
    await other.start(0);
    const read = other.reach(3);
    const holder = storeWriterRunner(feeds.holder, lease(true), store('holder'), async (cs) => (written.push(...cs.map((c) => c.logged.seq)), true), options);
    await holder.start(0);
    for (const seq of [1, 2, 3])
      for (const feed of Object.values(feeds)) {
        feed.push(change(seq));
        feed.advance(seq);
      }
    await read;
    expect(other.position).to.equal(3);
    expect(reads.other).to.not.include(3);
    expect(written).to.deep.equal([1, 2, 3]);
    expect(recorded).to.equal(3);
    expect(await announced.get('store:7')).to.equal(3);
    expect(holder.status().holder && !other.status().holder).to.equal(true);
    await holder.stop();
    await other.stop();
  });

  it("reads the store's own record while the holder announced nothing, and a new holder resumes from the store's record", async () => {
    let recorded = 2;
    const store: StorePosition = { get: async () => recorded, set: async (position) => void (recorded = position) };
    const options = { log: quiet, renewMillis: 600_000, pollMillis: 600_000, batch: 10, announce: { checkpoints: announcements(), as: () => 'store:1' } };
    const other = storeWriterRunner(new ChangeFeed(), lease(false), store, async () => true, options);
    await other.start(0);
    recorded = 5;
    await other.reach(5);
    expect(other.position).to.equal(5);
    // Stopped while busy, it does not sit out a pause first.
    await other.stop();
    // The announcement is a hint; the store says what it holds.
    const checkpoints = announcements();
    await checkpoints.set('store:1', 9);
    const written: number[] = [];
    const feed = new ChangeFeed();
    for (const seq of [6, 7, 8, 9]) feed.push(change(seq));
    feed.advance(9);
    const holder = storeWriterRunner(feed, lease(true), store, async (cs) => (written.push(...cs.map((c) => c.logged.seq)), true), {
      ...options,
      announce: { checkpoints, as: () => 'store:1' },
    });
    await holder.start(5);
    await holder.reach(9);
    expect(written).to.deep.equal([6, 7, 8, 9]);
    expect(recorded).to.equal(9);
    await holder.stop();
  });

  it('writes again what a store that came back from a crash lost: its record went back, the holder reads those changes again from the log', async () => {
    let recorded = 0;
    const store: StorePosition = { get: async () => recorded, set: async (position) => void (recorded = position) };
    const replayed: [number, number][] = [];
    // The log: every change up to 10, handed again on request (the feed released them).
    const replay = {
      changes: async (after: number, until: number, limit: number) => {
        replayed.push([after, until]);
        const changes = [];
        for (let seq = after + 1; seq <= until && changes.length < limit; seq++) changes.push(change(seq));
        return { changes, through: changes.length ? changes[changes.length - 1]!.logged.seq : until };
      },
    };
    const feed = new ChangeFeed(Infinity, replay);
    const written: number[] = [];
    const holder = storeWriterRunner(feed, lease(true), store, async (cs) => (written.push(...cs.map((c) => c.logged.seq)), true), {
      log: quiet,
      renewMillis: 5,
      pollMillis: 5,
      batch: 10,
    });
    await holder.start(0);
    for (const seq of [1, 2, 3]) (feed.push(change(seq)), feed.advance(seq));
    await holder.reach(3);
    expect(written).to.deep.equal([1, 2, 3]);
    // The store crashed and came back at its checkpoint: it records 1, and lost what came after.
    recorded = 1;
    feed.push(change(4));
    feed.advance(4);
    while (recorded < 4) await new Promise((r) => setTimeout(r, 5));
    expect(written).to.deep.equal([1, 2, 3, 2, 3, 4]);
    expect(replayed[0]).to.deep.equal([1, 3]);
    await holder.stop();
  });

  it('splits a batch the store refuses until the one change it refuses is found, quarantines that change alone (status, log line) and goes on; an unreachable store is waited for', async () => {
    let recorded = 0;
    const store: StorePosition = { get: async () => recorded, set: async (position) => void (recorded = position) };
    const errors: string[] = [];
    const log = { ...quiet, error: (line: string) => void errors.push(line) } as unknown as Log;
    const feed = new ChangeFeed();
    for (let seq = 1; seq <= 20; seq++) feed.push(change(seq));
    feed.advance(20);
    const written: number[] = [];
    const requests: number[][] = [];
    let away = 2;
    const write = async (cs: readonly Change[]) => {
      requests.push(cs.map((c) => c.logged.seq));
      // The store away twice (no answer): waited for, nothing given up on.
      if (away > 0 && away--) throw new SparqlRequestFailed('cannot reach the store', undefined);
      // More than 8 changes at once is too much for the store; change 13 is refused whatever its company.
      if (cs.length > 8) throw new SparqlRequestFailed('400: SP031: generated SQL text has exceeded 10000 lines', 400);
      if (cs.some((c) => c.logged.seq === 13)) throw new SparqlRequestFailed("400: SP030: Bad character '\\' (0x5c)", 400);
      written.push(...cs.map((c) => c.logged.seq));
      return true;
    };
    const holder = storeWriterRunner(feed, lease(true), store, write, { log, renewMillis: 5, pollMillis: 5, batch: 20 });
    await holder.start(0);
    await holder.reach(20);
    expect(written).to.deep.equal([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 14, 15, 16, 17, 18, 19, 20]);
    expect(recorded).to.equal(20);
    expect(holder.status()).to.include({ quarantined: 1, failures: 0, position: 20 });
    expect(errors).to.have.length(1);
    expect(errors[0]).to.match(/event 13 quarantined/);
    expect(requests.filter((r) => r.length === 1 && r[0] === 13)).to.have.length(1);
    await holder.stop();
  });
});
