import { executeSearch } from '../src/search/dsl/executeSearch.js';
import { DocSet } from '../src/search/dsl/DocSet.js';
import type { SearchDoc } from '../src/search/dsl/fields.js';
import { documentTriples, searchGraphOf } from '../src/search/store/searchGraph.js';
import { StoreSearchEngine } from '../src/search/store/StoreSearchEngine.js';
import { FILL_TEXT_INDEX } from '../src/search/store/storeSearch.js';
import { itemNode } from '../src/store/graphNames.js';
import { SparqlHttpClient } from '../src/store/SparqlHttpClient.js';
import { releaseVirtuoso, useVirtuoso } from '../test/support/virtuoso.js';
import { GraphPosts } from './graphPosts.js';
import { summarize } from './harness.js';

/**
 * The search API on the external store (Virtuoso 7 on loopback, started here on its own data
 * directory) beside the in-process evaluator, over the same documents in 10 projects:
 * `VIRTUOSO_BUFFERS=100000 node dist/bench/storeSearch.js [count]` (default 10,000). The documents are
 * written as StoreSearchProjection writes them (searchGraph.ts), in batches, twice (other projects):
 * their words as word triples, and as texts in Virtuoso's free-text index (`SPARQL_TEXT_INDEX=virtuoso`);
 * each query is timed on both, one after the other.
 */
const count = Number(process.argv[2] ?? 10_000);
const RUNS = Number(process.env['BENCH_RUNS'] ?? 100);
const CITIES = ['Oxford', 'Cambridge', 'London', 'Geneva', 'Lausanne', 'Zurich', 'Bern', 'Basel'];
const PROJECTS = Array.from({ length: 10 }, (_, i) => `bench/p${i}`);
const INDEXED = PROJECTS.map((p) => `${p}x`);

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
for (const indexed of [false, true]) {
  const started = performance.now();
  const posts = new GraphPosts(client);
  for (let i = 0; i < count; i++) {
    const doc = source(i);
    const project = (indexed ? INDEXED : PROJECTS)[i % PROJECTS.length]!;
    if (!indexed) docs.push({ id: String(doc['@id']), project, source: doc });
    await posts.add(searchGraphOf(project), documentTriples(itemNode('resources', project, String(doc['@id'])), doc, indexed));
  }
  await posts.flush();
  const written = performance.now();
  if (indexed) await client.query(FILL_TEXT_INDEX, 'application/sparql-results+json');
  console.log(
    `${count} documents in ${PROJECTS.length} projects written into Virtuoso (Graph Store Protocol, 200 documents a request), ` +
      `${indexed ? 'texts in its text index' : 'word triples'}: ${(posts.triples / count).toFixed(1)} triples a document, ` +
      `in ${((written - started) / 1000).toFixed(1)} s${indexed ? `, then indexed in ${((performance.now() - written) / 1000).toFixed(1)} s` : ''}`,
  );
}

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
// A prefix of the words every document's `p1` holds ("value 1 of {i}"), and an `and` of two words.
const prefix = (i: number) => ({ size: 10, query: { prefix: { p1: `valu` } }, from: i % 10 });
const bothWords = (i: number) => ({ size: 10, query: { match: { p2: { query: `value ${i % count}`, operator: 'and' } } } });

const store = new StoreSearchEngine(client);
const indexedStore = new StoreSearchEngine(client, true);
const set = new DocSet(docs);
for (const [label, body] of [
  ['bool + terms aggregation', boolTerms],
  ['one rare word (q-like)', oneWord],
  ['bool: a word and a type, sorted by age', selective],
  ['prefix of a word every document holds', prefix],
  ['match of two words, operator and', bothWords],
] as const) {
  await time(`in process:      ${label}`, RUNS, (i) => executeSearch(body(i), set, () => 'i', PROJECTS.length));
  await time(`on the store:    ${label}`, RUNS, (i) => store.search(body(i), PROJECTS));
  await time(`text index:      ${label}`, RUNS, (i) => indexedStore.search(body(i), INDEXED));
  await time(`on the store:    ${label}`, RUNS, (i) => store.search(body(i), PROJECTS));
  await time(`text index:      ${label}`, RUNS, (i) => indexedStore.search(body(i), INDEXED));
}
await releaseVirtuoso();
