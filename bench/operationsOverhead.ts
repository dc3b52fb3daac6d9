import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { json, measure, startProcess } from './harness.js';

/** Request logs and metrics on against off, in one run: creates and fetches at concurrency 8. */
export const benchOperationsOverhead = async (count: number): Promise<void> => {
  console.log(`\nlogs and metrics: ${count} creates and fetches at concurrency 8, LOG_LEVEL=silent METRICS=off against LOG_LEVEL=info METRICS=permission`);
  const rates: Record<string, number[]> = {};
  // Alternated (off, on, off, on) so that a drift of the machine's speed weighs on both alike.
  for (const env of [
    { LOG_LEVEL: 'silent', METRICS: 'off' },
    { LOG_LEVEL: 'info', METRICS: 'permission' },
    { LOG_LEVEL: 'silent', METRICS: 'off' },
    { LOG_LEVEL: 'info', METRICS: 'permission' },
  ]) {
    const dataDir = mkdtempSync(join(tmpdir(), 'registry-bench-ops-'));
    const server = await startProcess(dataDir, 21_000 + Math.floor(Math.random() * 1000), env);
    const path = (i: number) => `${server.url}/v1/resources/bench/main/_/r${i}`;
    try {
      await json(`${server.url}/v1/orgs/bench`, 'PUT', {});
      await json(`${server.url}/v1/projects/bench/main`, 'PUT', {});
      const rate = async (name: string, op: (i: number) => Promise<void>) => {
        const started = performance.now();
        await measure(`${name}, LOG_LEVEL=${env.LOG_LEVEL}`, count, 8, op);
        (rates[name] ??= []).push(count / ((performance.now() - started) / 1000));
      };
      await rate('create', async (i) => void (await json(path(i), 'PUT', { '@context': { '@vocab': 'http://schema.org/' }, name: `n${i}`, i })));
      await rate('fetch', async (i) => void (await json(path((i * 7919) % count))));
    } finally {
      await server.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }
  for (const [name, [off1, on1, off2, on2]] of Object.entries(rates)) {
    const [off, on] = [(off1! + off2!) / 2, (on1! + on2!) / 2];
    console.log(`${name.padEnd(8)} overhead of logs and metrics: ${((1 - on / off) * 100).toFixed(1)} % (mean of two alternated runs each; target < 5 %)`);
  }
};
