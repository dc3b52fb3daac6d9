import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { json, measure, startProcess } from './harness.js';

const CONTEXT = { '@vocab': 'http://schema.org/', ex: 'http://example.org/vocab/' };

const payload = (i: number, version = 0) => {
  const doc: Record<string, unknown> = { '@context': CONTEXT, '@type': 'Person', name: `person-${i}`, version };
  for (let p = 0; p < 22; p++) doc[`ex:p${p}`] = p % 3 === 0 ? i * p : `value ${p} of ${i}`;
  return doc;
};

/** Throughput of creates, fetches and updates with JSON-LD and SHACL on the main thread, then in the worker pool, in one run. */
export const benchWorkers = async (count: number): Promise<void> => {
  console.log(
    `\nworker pool: ${count} creates, fetches and updates at concurrency 16, main thread (WORKERS=0) against the pool (WORKERS=${availableParallelism()})`,
  );
  const rates: Record<string, number[]> = {};
  for (const workers of ['0', String(availableParallelism())]) {
    const dataDir = mkdtempSync(join(tmpdir(), 'registry-bench-workers-'));
    const port = 19_000 + Math.floor(Math.random() * 1000);
    const server = await startProcess(dataDir, port, { WORKERS: workers });
    const path = (i: number) => `${server.url}/v1/resources/bench/main/_/r${i}`;
    try {
      await json(`${server.url}/v1/orgs/bench`, 'PUT', {});
      await json(`${server.url}/v1/projects/bench/main`, 'PUT', {});
      const rate = async (name: string, n: number, op: (i: number) => Promise<void>) => {
        const started = performance.now();
        await measure(`${name}, WORKERS=${workers}`, n, 16, op);
        (rates[name] ??= []).push((n / (performance.now() - started)) * 1000);
      };
      await rate('create', count, async (i) => void (await json(path(i), 'PUT', payload(i))));
      await rate('fetch (cold)', count, async (i) => void (await json(path((i * 7919) % count))));
      await rate('update', count, async (i) => void (await json(`${path(i)}?rev=1`, 'PUT', payload(i, 1))));
    } finally {
      await server.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }
  for (const [name, [inline, pooled]] of Object.entries(rates)) console.log(`${name.padEnd(14)} pool / main thread: ${(pooled! / inline!).toFixed(2)}x`);
};
