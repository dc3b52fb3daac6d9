import { expect } from 'chai';
import type { Log } from '../../src/kernel/Log.js';
import { ChangeFeed } from '../../src/projection/ChangeFeed.js';
import type { Change } from '../../src/projection/Projection.js';
import { ProjectionRuntime } from '../../src/projection/ProjectionRuntime.js';
import type { ExecutionStrategy, RuntimeControl } from '../../src/projection/ProjectionRuntime.js';
import { change } from '../support/runners.js';

const logged = (lines: string[]): Log =>
  ({ info: (l: string) => lines.push(`info ${l}`), warn: (l: string) => lines.push(`warn ${l}`), error: (l: string) => lines.push(`error ${l}`) }) as never;

const fed = (last: number): ChangeFeed => {
  const feed = new ChangeFeed();
  for (let seq = 1; seq <= last; seq++) feed.push(change(seq));
  feed.advance(last);
  return feed;
};

const seqs = (changes: readonly Change[]) => changes.map((c) => c.logged.seq);

class Away extends Error {}

/** A strategy of the test's own: it writes batches of `chunk` changes; `overrides` change one behaviour at a time. */
const fake = (write: ExecutionStrategy['write'], overrides: Partial<ExecutionStrategy> = {}) => {
  const calls = { stopped: 0, recorded: [] as number[], reached: [] as number[] };
  let control!: RuntimeControl;
  const strategy: ExecutionStrategy = {
    batch: 100,
    chunk: 100,
    maxAttempts: 1,
    wakeOnWait: false,
    bind: (c) => void (control = c),
    start: async (snapshot) => snapshot,
    begin: async () => undefined,
    write,
    transient: (error) => error instanceof Away,
    record: async (position) => (calls.recorded.push(position), true),
    reached: (position) => void calls.reached.push(position),
    backoff: () => 1,
    pause: (failing) => (failing ? 2 : undefined),
    wakeOnPush: () => true,
    stop: () => void calls.stopped++,
    ...overrides,
  };
  return { strategy, calls, control: () => control };
};

describe('the projection runtime, whatever its strategy', () => {
  it('splits a batch its strategy refuses in halves down to the one change refused, quarantines that change alone and goes on', async () => {
    const lines: string[] = [];
    const requests: number[][] = [];
    const written: number[] = [];
    const { strategy, calls } = fake(async (changes) => {
      requests.push(seqs(changes));
      if (changes.some((c) => c.logged.seq === 5)) throw new Error('refused');
      written.push(...seqs(changes));
      return true;
    });
    const runtime = new ProjectionRuntime('fake', fed(8), strategy, logged(lines));
    runtime.startAt(0);
    await runtime.reach(8);
    expect(written).to.deep.equal([1, 2, 3, 4, 6, 7, 8]);
    expect(requests).to.deep.equal([[1, 2, 3, 4, 5, 6, 7, 8], [1, 2, 3, 4], [5, 6, 7, 8], [5, 6], [5], [6], [7, 8]]);
    expect(runtime.status()).to.include({ position: 8, quarantined: 1, failures: 0 });
    expect(lines.filter((l) => l.startsWith('error'))).to.deep.equal(['error projection fake: event 5 quarantined after 1 attempt: orgs k5 T: refused']);
    // The position is recorded once for the batch, as it is reached.
    expect(calls.recorded).to.deep.equal([8]);
    expect(calls.reached).to.deep.equal([8]);
    await runtime.stop();
  });

  it('retries the one change refused with back-off up to its attempts; writes stop waiting for it at once, reads wait', async () => {
    const lines: string[] = [];
    let attempts = 0;
    const { strategy } = fake(
      async (changes) => {
        if (changes[0]!.logged.seq === 2 && ++attempts < 3) throw new Error('index locked');
        return true;
      },
      { chunk: 1, maxAttempts: 5, backoff: () => 20 },
    );
    const runtime = new ProjectionRuntime('fake', fed(3), strategy, logged(lines));
    const read = runtime.reach(3);
    const write = runtime.settle(3);
    runtime.startAt(0);
    await write;
    expect(runtime.status()).to.include({ failures: 1, lastError: 'index locked' });
    // One change at a time: the one before the failing change is reached already.
    expect(runtime.position).to.equal(1);
    await read;
    expect(runtime.status()).to.include({ position: 3, failures: 0, quarantined: 0 });
    expect(lines.filter((l) => l.includes('event 2 failed'))).to.have.length(2);
    expect(lines).to.include('info projection fake: applies again from event 2');
    await runtime.stop();
  });

  it('writes the whole batch again later when the failure is transient (no split), counting it as a failed turn', async () => {
    const lines: string[] = [];
    const requests: number[][] = [];
    let away = 2;
    const { strategy } = fake(
      async (changes) => {
        requests.push(seqs(changes));
        if (away-- > 0) throw new Away('cannot reach the store');
        return true;
      },
      { label: 'fake store' },
    );
    const runtime = new ProjectionRuntime('fake', fed(4), strategy, logged(lines));
    runtime.startAt(0);
    await runtime.reach(4);
    expect(requests).to.deep.equal([
      [1, 2, 3, 4],
      [1, 2, 3, 4],
      [1, 2, 3, 4],
    ]);
    expect(lines.filter((l) => l.startsWith('warn'))).to.deep.equal([
      'warn fake store: cannot reach the store (attempt 1)',
      'warn fake store: cannot reach the store (attempt 2)',
    ]);
    expect(runtime.status()).to.include({ failures: 0, quarantined: 0 });
    await runtime.stop();
  });

  it('does not move when its strategy may not record the position (a lease lost); follows a position another replica writes', async () => {
    let allowed = false;
    let writing = true;
    const written: number[] = [];
    const { strategy, control } = fake(async (changes) => (written.push(...seqs(changes)), true), {
      record: async () => allowed,
      begin: async () => (writing ? undefined : 7),
      pause: () => 5,
    });
    const runtime = new ProjectionRuntime('fake', fed(3), strategy, logged([]));
    const read = runtime.reach(3);
    runtime.startAt(0);
    while (written.length < 6) await new Promise((r) => setTimeout(r, 5));
    // Written again each turn (idempotent writes), never reached.
    expect(runtime.position).to.equal(0);
    allowed = true;
    await read;
    expect(runtime.position).to.equal(3);
    // Another replica writes: the runtime follows its position without reading the feed.
    writing = false;
    const count = written.length;
    await runtime.reach(7);
    expect(written).to.have.length(count);
    // A strategy moves the position back (a store that lost writes).
    control().moveTo(2);
    expect(runtime.position).to.equal(2);
    await runtime.stop();
  });

  it('runs an idle turn when woken only; stopping releases its readers and lets the strategy go once its turn ended', async () => {
    let turns = 0;
    const { strategy, calls } = fake(async () => true, {
      begin: async () => (turns++, undefined),
      wakeOnPush: () => false,
    });
    const feed = fed(0);
    const runtime = new ProjectionRuntime('fake', feed, strategy, logged([]));
    runtime.startAt(0);
    await new Promise((r) => setTimeout(r, 20));
    expect(turns).to.equal(1);
    // A push this strategy does not write (another replica's) wakes nothing.
    feed.push(change(1));
    feed.advance(1);
    await new Promise((r) => setTimeout(r, 20));
    expect(turns).to.equal(1);
    const read = runtime.reach(1);
    await runtime.stop();
    await read;
    expect(runtime.position).to.equal(0);
    expect(calls.stopped).to.equal(1);
  });
});
