import { executeSearch } from '../src/search/dsl/executeSearch.js';
import { DocSet } from '../src/search/dsl/DocSet.js';
import type { SearchDoc } from '../src/search/dsl/fields.js';
import { documentTriples, searchGraphOf } from '../src/search/store/searchGraph.js';
import { StoreSearchEngine } from '../src/search/store/StoreSearchEngine.js';
import { itemNode } from '../src/store/graphNames.js';
import { SparqlHttpClient } from '../src/store/SparqlHttpClient.js';
import { releaseVirtuoso, useVirtuoso } from '../test/support/virtuoso.js';
import { summarize } from './harness.js';

/**
 * The search API on the external store (Virtuoso 7 on loopback, started here on its own data
 * directory) beside the in-process evaluator, over the same documents in 10 projects:
 * `VIRTUOSO_BUFFERS=100000 node dist/bench/storeSearch.js [count]` (default 10,000). The documents are
 * written as StoreSearchProjection writes them (searchGraph.ts), in batches.
 */
const count = Number(process.argv[2] ?? 10_000);
const RUNS = Number(process.env['BENCH_RUNS'] ?? 100);
const CITIES = ['Oxford', 'Cambridge', 'London', 'Geneva', 'Lausanne', 'Zurich', 'Bern', 'Basel'];
const PROJECTS = Array.from({ length: 10 }, (_, i) => `bench/p${i}`);

const source = (i: number): Record<string, string | number> => {
  const doc: Record<string, string | number> = {
    '@id': `urn:doc:${i}`,
    '@type': i % 5 === 0 ? 'Dataset' : 'Person',
    name: `person ${String(i).padStart(7, '0')} ${CITIES[i % CITIES.length]}`,
    age: 18 + (i % 60),
    city: CITIES[(i * 7) % CITIES.length]!,
  };
  for (let p = 0; p < 20; p++) doc[`p${p}`] = p % 3 === 0 ? i * p : `value ${p} of ${i}`;
  return doc;
};

const virtuoso = await useVirtuoso();
const client = new SparqlHttpClient(virtuoso.server, { timeoutMillis: 120_000 });
const docs: SearchDoc[] = [];
const started = performance.now();
const batches = new Map<string, string[]>();
for (let i = 0; i < count; i++) {
  const doc = source(i);
  const project = PROJECTS[i % PROJECTS.length]!;
  docs.push({ id: String(doc['@id']), project, source: doc });
  const batch = batches.get(project) ?? [];
  batch.push(documentTriples(itemNode('resources', project, String(doc['@id'])), doc));
  batches.set(project, batch);
  if (batch.length >= 200 || i === count - 1)
    for (const [p, b] of batches) {
      if (!b.length) continue;
      await client.addToGraph(searchGraphOf(p), b.join(''));
      b.length = 0;
    }
}
console.log(
  `${count} documents in ${PROJECTS.length} projects written into Virtuoso (Graph Store Protocol, 200 documents a request) in ${((performance.now() - started) / 1000).toFixed(1)} s`,
);

const time = async (name: string, runs: number, op: (i: number) => Promise<unknown>) => {
  for (let i = 0; i < 3; i++) await op(i);
  const times: number[] = [];
  const t0 = performance.now();
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    await op(i);
    times.push(performance.now() - t);
  }
  console.log(summarize(name, times, performance.now() - t0));
};

const boolTerms = (i: number) => ({
  size: 10,
  query: { bool: { must: [{ match: { name: 'person' } }], filter: [{ range: { age: { gte: 20 + (i % 10), lt: 60 } } }] } },
  aggs: { cities: { terms: { field: 'city.keyword' } } },
});
// What a `q` of one word asks: the few documents holding it, ranked (the rest of `q` listings is not on the store).
const oneWord = (i: number) => ({ size: 10, query: { match: { name: String((i * 37) % count).padStart(7, '0') } } });
const selective = (i: number) => ({
  size: 10,
  query: { bool: { must: [{ match: { name: CITIES[i % CITIES.length]!.toLowerCase() } }], filter: [{ term: { '@type.keyword': 'Dataset' } }] } },
  sort: [{ age: 'desc' }],
});

const store = new StoreSearchEngine(client);
const set = new DocSet(docs);
for (const [label, body] of [
  ['bool + terms aggregation', boolTerms],
  ['one rare word (q-like)', oneWord],
  ['bool: a word and a type, sorted by age', selective],
] as const) {
  await time(`in process:      ${label}`, RUNS, (i) => executeSearch(body(i), set, () => 'i', PROJECTS.length));
  await time(`on the store:    ${label}`, RUNS, (i) => store.search(body(i), PROJECTS));
}
await releaseVirtuoso();
