import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { json, measure, percentile, put, startProcess } from './harness.js';
import { clearVirtuoso, releaseVirtuoso, storeEnv, useVirtuoso } from '../test/support/virtuoso.js';

const VOCAB = 'http://ex.org/';
const TYPES = ['Person', 'Organization', 'Dataset', 'Cell', 'Experiment'];

/** A resource of one of five types, with ten literal properties, a nested address, and two links to other resources. */
const payload = (i: number, count: number) => ({
  '@context': { '@vocab': VOCAB },
  '@id': `${VOCAB}r${i}`,
  '@type': TYPES[i % TYPES.length],
  ...Object.fromEntries(Array.from({ length: 10 }, (_, p) => [`p${p}`, p % 3 === 0 ? i + p : `value ${p} of ${i}`])),
  address: { city: i % 2 ? 'Paris' : 'Lyon', zip: 1000 + (i % 90) },
  knows: { '@id': `${VOCAB}r${(i * 7 + 1) % count}` },
  partOf: { '@id': `${VOCAB}r${(i * 13 + 5) % count}` },
});

/**
 * Graph analytics' aggregations (relationships, properties of a type, progress) over a project of
 * `count` resources in a registry process: p50/p99 of each. BENCH_STORE=external runs it over
 * Virtuoso (started as the tests start it).
 */
export const benchGraphAnalytics = async (
  count = Number(process.env['BENCH_GA_N'] ?? 5_000),
  runs = Number(process.env['BENCH_RUNS'] ?? 50),
): Promise<void> => {
  const dir = mkdtempSync(join(tmpdir(), 'registry-bench-ga-'));
  const port = 23_000 + Math.floor(Math.random() * 1000);
  const external = process.env['BENCH_STORE'] === 'external' ? (await useVirtuoso()).server : undefined;
  if (external) await clearVirtuoso(external);
  console.log(`graph analytics bench: ${count} resources, ${external ? 'external store (Virtuoso)' : 'embedded store'}`);
  const server = await startProcess(join(dir, 'data'), port, { LOG_LEVEL: 'silent', ...(external ? storeEnv(external) : {}) });
  try {
    await json(`${server.url}/v1/orgs/bench`, 'PUT', {});
    await json(`${server.url}/v1/projects/bench/ga`, 'PUT', {});
    await measure('graph analytics: create', count, 4, (i) =>
      put(`${server.url}/v1/resources/bench/ga/_/${encodeURIComponent(`${VOCAB}r${i}`)}`, payload(i, count)),
    );
    const G = `${server.url}/v1/graph-analytics/bench/ga`;
    const ok = async (url: string) => {
      for (let tries = 0; ; tries++) {
        const res = await fetch(url, { headers: { accept: 'application/json' } });
        await res.arrayBuffer();
        if (res.status === 200) return;
        // The external store is written behind the log: 503 until it holds every write.
        if (tries > 600 || res.status !== 503) throw new Error(`${url}: ${res.status}`);
        await new Promise((r) => setTimeout(r, 1000));
      }
    };
    await ok(`${G}/relationships`);
    // Answers are kept while the store's position does not move: cold, a write elsewhere first (not timed); warm, asked again.
    await json(`${server.url}/v1/projects/bench/other`, 'PUT', {});
    let writes = 0;
    const moved = async () =>
      put(`${server.url}/v1/resources/bench/other/_/${encodeURIComponent(`${VOCAB}w${writes++}`)}`, { '@context': { '@vocab': VOCAB }, n: writes });
    const cold = (url: (i: number) => string) => {
      const times: number[] = [];
      return async () => {
        for (let i = 0; i < runs; i++) {
          await moved();
          const started = performance.now();
          await ok(url(i));
          times.push(performance.now() - started);
        }
        return `p50 ${percentile(times, 50).toFixed(2)} ms  p99 ${percentile(times, 99).toFixed(2)} ms`;
      };
    };
    const properties = (i: number) => `${G}/properties/${encodeURIComponent(VOCAB + TYPES[i % TYPES.length]!)}`;
    console.log(`relationships, cold                   ${await cold(() => `${G}/relationships`)()}`);
    console.log(`properties of a type, cold            ${await cold(properties)()}`);
    await measure('relationships, warm', runs, 1, () => ok(`${G}/relationships`));
    await measure('properties of a type, warm', runs, 1, (i) => ok(properties(i)));
    await measure('progress', runs, 1, () => ok(`${G}/progress`));
  } finally {
    await server.stop();
    if (external) await releaseVirtuoso();
    rmSync(dir, { recursive: true, force: true });
  }
};

if (process.argv[1]?.endsWith('graphAnalytics.js')) await benchGraphAnalytics(Number(process.argv[2] ?? process.env['BENCH_GA_N'] ?? 5_000));
