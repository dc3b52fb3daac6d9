import { expect } from 'chai';
import { Worker } from 'node:worker_threads';
import { WorkerPool } from '../../src/workers/WorkerPool.js';
import { Rejection } from '../../src/kernel/Rejection.js';
import type { CpuOperations } from '../../src/platform/cpuOperations.js';
import { cpuWorkerScript } from '../../src/platform/cpuOperations.js';

const expand = (pool: WorkerPool<CpuOperations>, values: number) =>
  pool.run('expand', {
    document: { '@context': { '@vocab': 'http://x/' }, '@id': 'http://e/a', a: Array.from({ length: values }, (_, i) => i) },
    base: 'http://e/',
    contexts: [],
  });

/** Counts the messages posted to worker threads while `work` runs. */
const posts = async <T>(work: () => Promise<T>): Promise<{ result: T; count: number }> => {
  const original = Worker.prototype.postMessage;
  let count = 0;
  Worker.prototype.postMessage = function (this: Worker, ...args: Parameters<Worker['postMessage']>) {
    count++;
    return original.apply(this, args);
  };
  try {
    return { result: await work(), count };
  } finally {
    Worker.prototype.postMessage = original;
  }
};

describe('the worker pool posts the tasks waiting for a worker together', function () {
  this.timeout(60_000);

  it('sends the tasks queued behind a busy worker in one message, each answered with its own value', async () => {
    const pool = new WorkerPool<CpuOperations>(cpuWorkerScript, 1, 30_000, () => undefined);
    try {
      await expand(pool, 1); // started
      const { result, count } = await posts(() => Promise.all(Array.from({ length: 8 }, (_, i) => expand(pool, i + 1))));
      expect(result.map((expanded) => (expanded[0]!['http://x/a'] as unknown[]).length)).to.deep.equal([1, 2, 3, 4, 5, 6, 7, 8]);
      // The first alone (the worker was idle), the seven queued behind it together.
      expect(count).to.equal(2);
    } finally {
      await pool.close();
    }
  });

  it('refuses the task over budget alone: the tasks sent with it are run again by the new worker', async () => {
    const pool = new WorkerPool<CpuOperations>(cpuWorkerScript, 1, 1_500, () => undefined);
    try {
      await expand(pool, 1);
      const small = expand(pool, 2); // sent alone: the heavy one and the next wait for it, then travel together
      const heavy = pool
        .run('expandWithTriples', {
          document: { '@context': { '@vocab': 'http://x/' }, '@id': 'http://e/big', a: Array.from({ length: 45_000 }, (_, i) => i) },
          base: 'http://e/',
          contexts: [],
          rootId: 'http://e/big',
        })
        .then(
          () => 'expanded',
          (e: unknown) => (e instanceof Rejection ? e.type : String(e)),
        );
      const next = expand(pool, 3);
      await small;
      expect(await heavy).to.equal('ProcessingTimeExceeded');
      // Run again by the replacement, with what is left of its budget, or refused for having waited it out.
      const after = await next.then(
        (expanded) => (expanded[0]!['http://x/a'] as unknown[]).length,
        (e: unknown) => (e as Rejection).type,
      );
      expect([3, 'ProcessingTimeExceeded']).to.include(after);
      // The replacement serves the next tasks (a task queued while it starts may wait out its budget on a busy machine).
      let served: unknown;
      for (let attempt = 0; attempt < 5 && served === undefined; attempt++) served = await expand(pool, 4).catch(() => undefined);
      expect((served as Record<string, unknown[]>[])[0]!['http://x/a']).to.have.length(4);
    } finally {
      await pool.close();
    }
  });
});
