import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { json, measure, startProcess, summarize } from './harness.js';
import type { ServerProcess } from './harness.js';

const CONTEXT = { '@vocab': 'http://schema.org/', ex: 'http://example.org/vocab/' };
const CITIES = ['Oxford', 'Cambridge', 'London', 'Geneva', 'Lausanne', 'Zurich', 'Bern', 'Basel'];
/** Writes go in batches alternating between the two registries, so a change of the shared machine's speed weighs on both alike. */
const BATCH = 2_500;

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

interface Registry {
  server: ServerProcess;
  dir: string;
  millis: number;
  times: number[];
}

const start = async (env: Record<string, string>): Promise<Registry> => {
  const dir = mkdtempSync(join(tmpdir(), 'registry-bench-search-'));
  const server = await startProcess(dir, 19_000 + Math.floor(Math.random() * 1000), env);
  await json(`${server.url}/v1/orgs/bench`, 'PUT', {});
  await json(`${server.url}/v1/projects/bench/main`, 'PUT', {});
  return { server, dir, millis: 0, times: [] };
};

const stop = async (r: Registry) => {
  await r.server.stop();
  rmSync(r.dir, { recursive: true, force: true });
};

/** Creates resources [from, to) at concurrency 8, adding the wall time and latencies to the registry's. */
const createBatch = async (r: Registry, from: number, to: number): Promise<void> => {
  let next = from;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      for (let i = next++; i < to; i = next++) {
        const t = performance.now();
        await json(`${r.server.url}/v1/resources/bench/main/_/r${i}`, 'PUT', payload(i));
        r.times.push(performance.now() - t);
      }
    }),
  );
  r.millis += performance.now() - started;
};

/** Runs each operation once, one at a time, and prints the figures; `name` says which queries. */
const timed = async (name: string, ops: (() => Promise<unknown>)[]): Promise<void> => {
  const times: number[] = [];
  const started = performance.now();
  for (const op of ops) {
    const t = performance.now();
    // An operation may time itself (the part of it that is measured) by returning milliseconds.
    const own = await op();
    times.push(typeof own === 'number' ? own : performance.now() - t);
  }
  console.log(summarize(name, times, performance.now() - started));
};

/**
 * Issue 11's benchmark: create throughput with and without the text index (both registries run
 * side by side, created in alternating batches), then `q` listings and search API queries over
 * `count` resources in one project.
 */
export const benchSearch = async (count: number): Promise<void> => {
  console.log(`\nsearch: ${count} resources, ~25 properties, one project, concurrency 8 for writes, reads one at a time`);
  // BENCH_SEARCH_BASELINE=off: the reads alone, without the registry the create throughput is compared with.
  const baseline = process.env['BENCH_SEARCH_BASELINE'] !== 'off';
  const off = baseline ? await start({ TEXT_INDEX: 'off' }) : undefined;
  const on = await start({});
  try {
    for (let from = 0; from < count; from += BATCH) {
      const to = Math.min(count, from + BATCH);
      // Which registry goes first alternates too.
      for (const r of (from / BATCH) % 2 ? [on, off] : [off, on]) if (r) await createBatch(r, from, to);
    }
    if (off) console.log(summarize('create, text index off', off.times, off.millis));
    console.log(summarize('create, text index on', on.times, on.millis));
    if (off) {
      console.log(`create throughput with the text index: ${((off.millis / on.millis) * 100).toFixed(1)} % of the figure without it`);
      await stop(off);
    }

    const listing = `${on.server.url}/v1/resources/bench/main`;
    const get =
      (q: string, extra = '') =>
      () =>
        json(`${listing}?q=${encodeURIComponent(q)}${extra}`);
    const rare = (i: number) => String((i * 7919) % count).padStart(7, '0');
    // The mix: 40 % a word of one item, 20 % a common word (an eighth of the items), 20 % a two-word
    // phrase (a fifth of the items), 20 % a prefix (a hundred items, or an eighth).
    const mix = Array.from({ length: 500 }, (_, i) => {
      const k = i % 10;
      if (k < 4) return get(rare(i));
      if (k < 6) return get(CITIES[i % CITIES.length]!);
      if (k < 8) return get(`ex:Kind${i % 5}`);
      return get(i % 2 ? `person ${rare(i).slice(0, 5)}` : CITIES[i % CITIES.length]!.slice(0, 4));
    });
    await timed('q listing, mix (warm-up)', mix.slice(0, 50));
    await timed('q listing, mix', mix);
    await timed(
      'q listing, one item (rare word)',
      Array.from({ length: 200 }, (_, i) => get(rare(i))),
    );
    await timed(
      'q listing, 1/8 of items',
      Array.from({ length: 200 }, (_, i) => get(CITIES[i % CITIES.length]!)),
    );
    await timed(
      'q listing, phrase, 1/5 of items',
      Array.from({ length: 200 }, (_, i) => get(`ex:Kind${i % 5}`)),
    );
    // The worst case: one word in every item, ranked in full for the exact total.
    await timed(
      'q, every item (worst case)',
      Array.from({ length: 100 }, () => get('value')),
    );
    await timed(
      'q, prefix, every item',
      Array.from({ length: 100 }, () => get('valu')),
    );
    await timed(
      'q, every item, next page',
      Array.from({ length: 100 }, () => get('value', '&from=100')),
    );
    // The worst case right after a write: nothing of an earlier query can be reused.
    await timed(
      'q, every item, after a write',
      Array.from({ length: 50 }, (_, i) => async () => {
        await json(`${listing}/_/touched${i}`, 'PUT', { '@context': CONTEXT, name: `touched ${i}` });
        const t = performance.now();
        await get('value')();
        return performance.now() - t;
      }),
    );

    const search = `${on.server.url}/v1/search/query`;
    await measure('search, first (loads documents)', 1, 1, async () => void (await json(search, 'POST', { query: { match_all: {} } })));
    await measure('search match', 100, 1, async (i) => void (await json(search, 'POST', { query: { match: { city: CITIES[i % CITIES.length] } } })));
    const boolTerms = (i: number) => ({
      size: 10,
      query: { bool: { must: [{ match: { name: 'person' } }], filter: [{ range: { age: { gte: 20 + (i % 10), lt: 60 } } }] } },
      aggs: { cities: { terms: { field: 'city.keyword' } } },
    });
    await measure('search bool + terms aggregation', 200, 1, async (i) => void (await json(search, 'POST', boolTerms(i))));
    // Right after a write: a write makes a new set of documents, whose columns the search reads again.
    await timed(
      'search bool + terms, after a write',
      Array.from({ length: 20 }, (_, i) => async () => {
        await json(`${listing}/_/searched${i}`, 'PUT', { '@context': CONTEXT, name: `searched ${i}` });
        const t = performance.now();
        await json(search, 'POST', boolTerms(i));
        return performance.now() - t;
      }),
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
    if (off && off.server.child.exitCode === null) await stop(off);
    await stop(on);
  }
};
