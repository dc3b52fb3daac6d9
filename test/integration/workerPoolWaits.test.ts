import { expect } from 'chai';
import { WorkerPool } from '../../src/workers/WorkerPool.js';
import { Rejection } from '../../src/kernel/Rejection.js';
import type { CpuOperations } from '../../src/platform/cpuOperations.js';
import { cpuWorkerScript } from '../../src/platform/cpuOperations.js';

/** An ordinary task whose cost grows with `values`. */
const expand = (pool: WorkerPool<CpuOperations>, values: number) =>
  pool
    .run('expandWithTriples', {
      document: { '@context': { '@vocab': 'http://x/' }, '@id': 'http://e/a', a: Array.from({ length: values }, (_, i) => i) },
      base: 'http://e/',
      contexts: [],
      rootId: 'http://e/a',
    })
    .then(
      () => 'done',
      (e: unknown) => (e instanceof Rejection ? e.type : String(e)),
    );

/** How long one such task takes alone here (the machine's pace varies: the budgets below are set from it). */
const timed = async (values: number): Promise<number> => {
  const pool = new WorkerPool<CpuOperations>(cpuWorkerScript, 1, 600_000, () => undefined);
  try {
    await expand(pool, 1);
    const started = performance.now();
    for (let i = 0; i < 3; i++) await expand(pool, values);
    return (performance.now() - started) / 3;
  } finally {
    await pool.close();
  }
};

/** A pool of one worker whose budget is four tasks' time, started (its first task run). */
const withPool = async (task: number, use: (pool: WorkerPool<CpuOperations>) => Promise<void>): Promise<void> => {
  const pool = new WorkerPool<CpuOperations>(cpuWorkerScript, 1, Math.max(300, Math.round(task * 4)), () => undefined);
  try {
    await expand(pool, 1);
    await use(pool);
  } finally {
    await pool.close();
  }
};

describe('the worker pool charges a task with its own running time, not with its waits', function () {
  this.timeout(120_000);
  const VALUES = 6_000;
  let task = 0;
  before(async () => (task = await timed(VALUES)));

  it('runs tasks queued and posted behind others, together longer than the budget, each within it', async () => {
    // Each task takes a quarter of the budget; the last of eight waits and runs behind seven others.
    await withPool(task, async (pool) => {
      const results = await Promise.all(Array.from({ length: 8 }, () => expand(pool, VALUES)));
      expect(results).to.deep.equal(Array(8).fill('done'));
    });
  });

  it('refuses a task that waited for a worker as long as the budget with 503 ServerBusy, not its payload with ProcessingTimeExceeded', async () => {
    // 40 tasks of a quarter of the budget on one worker: the first 17 start within it (one, then a
    // batch of 16), those behind wait past it. None is blamed on its payload.
    await withPool(task, async (pool) => {
      const results = await Promise.all(Array.from({ length: 40 }, () => expand(pool, VALUES)));
      expect(results).to.not.include('ProcessingTimeExceeded');
      expect(results).to.include('ServerBusy');
      expect(results.filter((r) => r === 'done').length).to.be.greaterThan(10);
      expect(new Set(results)).to.deep.equal(new Set(['done', 'ServerBusy']));
      // The worker was never replaced: it serves the next task at once.
      expect(await expand(pool, 2)).to.equal('done');
    });
  });
});
