import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { json, measure, startProcess } from './harness.js';

const CONTEXT = { '@vocab': 'http://schema.org/', ex: 'http://example.org/vocab/' };
const CITIES = ['Oxford', 'Cambridge', 'London', 'Geneva', 'Lausanne', 'Zurich', 'Bern', 'Basel'];

/** A resource of ~25 properties: words shared by all, by a few, and by one. */
const payload = (i: number) => {
  const doc: Record<string, unknown> = {
    '@context': CONTEXT,
    '@type': ['Person', `ex:Kind${i % 5}`],
    name: `person ${String(i).padStart(7, '0')} ${CITIES[i % CITIES.length]}`,
    age: 18 + (i % 60),
    city: CITIES[(i * 7) % CITIES.length],
    born: `${1950 + (i % 50)}-0${1 + (i % 9)}-1${i % 10}`,
  };
  for (let p = 0; p < 20; p++) doc[`ex:p${p}`] = p % 3 === 0 ? i * p : `value ${p} of ${i}`;
  return doc;
};

const createAll = async (
  label: string,
  count: number,
  env: Record<string, string>,
): Promise<{ rate: number; url: string; stop: () => Promise<void>; dir: string }> => {
  const dir = mkdtempSync(join(tmpdir(), 'registry-bench-search-'));
  const port = 19_000 + Math.floor(Math.random() * 1000);
  const server = await startProcess(dir, port, env);
  await json(`${server.url}/v1/orgs/bench`, 'PUT', {});
  await json(`${server.url}/v1/projects/bench/main`, 'PUT', {});
  const started = performance.now();
  await measure(label, count, 8, async (i) => void (await json(`${server.url}/v1/resources/bench/main/_/r${i}`, 'PUT', payload(i))));
  return { rate: (count / (performance.now() - started)) * 1000, url: server.url, stop: () => server.stop(), dir };
};

/**
 * Issue 11's benchmark: create throughput with and without the text index (one run, same machine),
 * `q` listings and search API queries over `count` resources in one project.
 */
export const benchSearch = async (count: number): Promise<void> => {
  console.log(`\nsearch: ${count} resources, ~25 properties, one project, concurrency 8 for writes, reads one at a time`);
  const off = await createAll('create, text index off', count, { TEXT_INDEX: 'off' });
  await off.stop();
  rmSync(off.dir, { recursive: true, force: true });
  const on = await createAll('create, text index on', count, {});
  console.log(`create throughput with the text index: ${((on.rate / off.rate) * 100).toFixed(1)} % of the figure without it`);
  const { url } = on;
  try {
    const listing = `${url}/v1/resources/bench/main`;
    await measure('q listing, one item (rare word)', 200, 1, async (i) => void (await json(`${listing}?q=${String((i * 7919) % count).padStart(7, '0')}`)));
    await measure('q listing, 1/8 of items', 200, 1, async (i) => void (await json(`${listing}?q=${CITIES[i % CITIES.length]}`)));
    await measure('q listing, every item (common word)', 100, 1, async () => void (await json(`${listing}?q=value`)));
    await measure('q listing, prefix, every item', 100, 1, async () => void (await json(`${listing}?q=valu`)));
    await measure('q listing, every item, next page', 100, 1, async () => void (await json(`${listing}?q=value&from=100`)));
    const search = `${url}/v1/search/query`;
    await measure('search, first (loads documents)', 1, 1, async () => void (await json(search, 'POST', { query: { match_all: {} } })));
    await measure('search match', 100, 1, async (i) => void (await json(search, 'POST', { query: { match: { city: CITIES[i % CITIES.length] } } })));
    await measure(
      'search bool + terms aggregation',
      100,
      1,
      async (i) =>
        void (await json(search, 'POST', {
          size: 10,
          query: { bool: { must: [{ match: { name: 'person' } }], filter: [{ range: { age: { gte: 20 + (i % 10), lt: 60 } } }] } },
          aggs: { cities: { terms: { field: 'city.keyword' } } },
        })),
    );
    // Searchable delay: a write is indexed before it is acknowledged, in both modes.
    let worst = 0;
    for (let i = 0; i < 50; i++) {
      const word = `fresh${i}x${Date.now()}`;
      await json(`${listing}/_/fresh${i}?indexing=${i % 2 ? 'async' : 'sync'}`, 'PUT', { '@context': CONTEXT, name: word });
      const acknowledged = performance.now();
      const found = (await json(`${listing}?q=${word}`)) as { _total: number };
      if (found._total !== 1) throw new Error(`write ${i} not searchable right after its response`);
      worst = Math.max(worst, performance.now() - acknowledged);
    }
    console.log(`searchable after acknowledgement: 50 of 50 writes found by the next query (worst query ${worst.toFixed(1)} ms)`);
  } finally {
    await on.stop();
    rmSync(on.dir, { recursive: true, force: true });
  }
};
