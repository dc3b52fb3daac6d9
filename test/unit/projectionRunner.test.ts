import { expect } from 'chai';
import type { Log } from '../../src/kernel/Log.js';
import { ChangeFeed } from '../../src/projection/ChangeFeed.js';
import type { Change } from '../../src/projection/Projection.js';
import { ProjectionRunner } from '../../src/projection/ProjectionRunner.js';

const change = (seq: number): Change =>
  ({
    definition: { kind: 'orgs' },
    logged: { seq, key: `k${seq}`, kind: 'orgs', rev: 1, event: { type: 'T', instant: '' } },
    previous: undefined,
    next: {},
  }) as never;

const quietLog = (lines: string[]): Log =>
  ({ info: (l: string) => lines.push(l), warn: (l: string) => lines.push(l), error: (l: string) => lines.push(l) }) as never;

describe('projection runners on their own positions', () => {
  it('retries a failing projection with back-off and reports it, while another runner goes on and writes are not held', async () => {
    const feed = new ChangeFeed();
    const lines: string[] = [];
    let healthy = false;
    const appliedByGood: number[] = [];
    const good = new ProjectionRunner('good', async (c) => void appliedByGood.push(c.logged.seq), feed, {
      maxAttempts: Infinity,
      backoffMillis: 5,
      log: quietLog(lines),
    });
    const flaky = new ProjectionRunner(
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
    const poisoned = new ProjectionRunner(
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
    const upstream = new ProjectionRunner('revisions', () => gate, feed, { maxAttempts: 1, backoffMillis: 1, log: quietLog([]) });
    const seen: number[] = [];
    const downstream = new ProjectionRunner('catalogue', async (c) => void seen.push(c.logged.seq), feed, {
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
