import { expect } from 'chai';
import type { Log } from '../../src/kernel/Log.js';
import { ChangeFeed } from '../../src/projection/ChangeFeed.js';
import type { Change } from '../../src/projection/Projection.js';
import type { ProjectionCheckpoints } from '../../src/projection/ProjectionCheckpoints.js';
import { change, everyReplicaRunner } from '../support/runners.js';

const quietLog = (lines: string[]): Log =>
  ({ info: (l: string) => lines.push(l), warn: (l: string) => lines.push(l), error: (l: string) => lines.push(l) }) as never;

describe('projection runners on their own positions', () => {
  it('retries a failing projection with back-off and reports it, while another runner goes on and writes are not held', async () => {
    const feed = new ChangeFeed();
    const lines: string[] = [];
    let healthy = false;
    const appliedByGood: number[] = [];
    const good = everyReplicaRunner('good', async (c) => void appliedByGood.push(c.logged.seq), feed, {
      maxAttempts: Infinity,
      backoffMillis: 5,
      log: quietLog(lines),
    });
    const flaky = everyReplicaRunner(
      'flaky',
      async () => {
        if (!healthy) throw new Error('store away');
      },
      feed,
      { maxAttempts: Infinity, backoffMillis: 5, log: quietLog(lines) },
    );
    good.startAt(0);
    flaky.startAt(0);
    feed.push(change(1));
    feed.advance(1);
    feed.push(change(2));
    feed.advance(2);
    await good.reach(2);
    expect(appliedByGood).to.deep.equal([1, 2]);
    // A write waiting for every projection (indexing=sync) is not held by the failing one...
    await flaky.settle(2);
    expect(flaky.status()).to.include({ position: 0 }).and.have.property('failures').above(0);
    expect(flaky.status().lastError).to.equal('store away');
    expect(lines.some((l) => l.includes('projection flaky: event 1 failed'))).to.equal(true);
    // ...while a read of it waits until it has caught up.
    const read = flaky.reach(2).then(() => flaky.position);
    healthy = true;
    expect(await read).to.equal(2);
    expect(flaky.status().failures).to.equal(0);
    good.stop();
    flaky.stop();
  });

  it('quarantines a change after its attempts for that runner only, and passes positions that made no change', async () => {
    const feed = new ChangeFeed();
    const lines: string[] = [];
    const poisoned = everyReplicaRunner(
      'poisoned',
      async (c) => {
        if (c.logged.seq === 1) throw new Error('bad event');
      },
      feed,
      { maxAttempts: 2, backoffMillis: 1, log: quietLog(lines) },
    );
    poisoned.startAt(0);
    feed.push(change(1));
    feed.advance(5);
    await poisoned.reach(5);
    expect(poisoned.status()).to.include({ position: 5, quarantined: 1, failures: 0 });
    expect(lines.some((l) => l.includes('event 1 quarantined after 2 attempts'))).to.equal(true);
    poisoned.stop();
  });

  it('runs behind the runner it reads from', async () => {
    const feed = new ChangeFeed();
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const upstream = everyReplicaRunner('revisions', () => gate, feed, { maxAttempts: 1, backoffMillis: 1, log: quietLog([]) });
    const seen: number[] = [];
    const downstream = everyReplicaRunner('catalogue', async (c) => void seen.push(c.logged.seq), feed, {
      after: upstream,
      maxAttempts: 1,
      backoffMillis: 1,
      log: quietLog([]),
    });
    upstream.startAt(0);
    downstream.startAt(0);
    feed.push(change(1));
    feed.advance(1);
    await new Promise((r) => setImmediate(r));
    expect(seen).to.deep.equal([]);
    release();
    await downstream.reach(1);
    expect(seen).to.deep.equal([1]);
  });
});

/** Checkpoints kept in memory: what a data directory or Redis keeps across the restart of a runner. */
const memoryCheckpoints = (): ProjectionCheckpoints & { positions: Map<string, number> } => {
  const positions = new Map<string, number>();
  return { positions, get: async (name) => positions.get(name), set: async (name, position) => void positions.set(name, position) };
};

/** What the fold pushes at a (re)start: every change after the snapshot's position, up to `last`. */
const fed = (from: number, last: number): ChangeFeed => {
  const feed = new ChangeFeed();
  feed.clear(from);
  for (let seq = from + 1; seq <= last; seq++) {
    feed.push(change(seq));
    feed.advance(seq);
  }
  return feed;
};

describe('projection runners resume from their recorded positions', () => {
  const options = (checkpoints?: ProjectionCheckpoints) => ({
    maxAttempts: Infinity,
    backoffMillis: 5,
    log: quietLog([]),
    ...(checkpoints ? { checkpoints } : {}),
  });

  it('records its position after a batch and, restarted, applies nothing it had applied', async () => {
    const checkpoints = memoryCheckpoints();
    const applied: number[] = [];
    const first = everyReplicaRunner('text', async (c) => void applied.push(c.logged.seq), fed(0, 3), options(checkpoints));
    expect(await first.start(0, 3, async () => undefined)).to.equal(0);
    await first.reach(3);
    for (let i = 0; i < 300 && checkpoints.positions.get('text') !== 3; i++) await new Promise((r) => setTimeout(r, 10));
    first.stop();
    expect(checkpoints.positions.get('text')).to.equal(3);
    // A restart from an older snapshot (0): the fold pushes 1..5 again; the runner applies 4 and 5 only.
    let rebuilt = false;
    const again = everyReplicaRunner('text', async (c) => void applied.push(c.logged.seq), fed(0, 5), options(checkpoints));
    expect(await again.start(0, 5, async () => void (rebuilt = true))).to.equal(3);
    await again.reach(5);
    again.stop();
    expect(applied).to.deep.equal([1, 2, 3, 4, 5]);
    expect(rebuilt).to.equal(false);
  });

  it('rebuilds from the states at the snapshot when its position is behind it or past the log, and when it keeps none', async () => {
    const checkpoints = memoryCheckpoints();
    checkpoints.positions.set('text', 2);
    const rebuilds: string[] = [];
    const behind = everyReplicaRunner('text', async () => undefined, fed(4, 6), options(checkpoints));
    expect(await behind.start(4, 6, async () => void rebuilds.push('behind'))).to.equal(4);
    expect(checkpoints.positions.get('text')).to.equal(4);
    behind.stop();
    checkpoints.positions.set('text', 9);
    const ahead = everyReplicaRunner('text', async () => undefined, fed(4, 6), options(checkpoints));
    expect(await ahead.start(4, 6, async () => void rebuilds.push('past the log'))).to.equal(4);
    ahead.stop();
    const inMemory = everyReplicaRunner('catalogue', async () => undefined, fed(4, 6), options());
    expect(await inMemory.start(4, 6, async () => void rebuilds.push('in memory'))).to.equal(4);
    inMemory.stop();
    expect(rebuilds).to.deep.equal(['behind', 'past the log', 'in memory']);
  });

  it('a failing runner, restarted, resumes from the change it stopped at', async () => {
    const checkpoints = memoryCheckpoints();
    const applied: number[] = [];
    const failing = everyReplicaRunner(
      'store',
      async (c) => {
        if (c.logged.seq === 3) throw new Error('store away');
        applied.push(c.logged.seq);
      },
      fed(0, 5),
      options(checkpoints),
    );
    await failing.start(0, 5, async () => undefined);
    await failing.settle(5);
    // Waiting on change 3, it recorded what it applied before it.
    for (let i = 0; i < 300 && checkpoints.positions.get('store') !== 2; i++) await new Promise((r) => setTimeout(r, 10));
    expect(checkpoints.positions.get('store')).to.equal(2);
    failing.stop();
    const restarted = everyReplicaRunner('store', async (c) => void applied.push(c.logged.seq), fed(0, 5), options(checkpoints));
    expect(await restarted.start(0, 5, async () => undefined)).to.equal(2);
    await restarted.reach(5);
    for (let i = 0; i < 300 && checkpoints.positions.get('store') !== 5; i++) await new Promise((r) => setTimeout(r, 10));
    restarted.stop();
    expect(applied).to.deep.equal([1, 2, 3, 4, 5]);
    expect(checkpoints.positions.get('store')).to.equal(5);
  });
});
