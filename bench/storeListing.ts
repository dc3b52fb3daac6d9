import { CatalogueIndex } from '../src/catalogue/CatalogueIndex.js';
import type { CatalogueItem } from '../src/catalogue/catalogue.js';
import { catalogueTriples } from '../src/catalogue/catalogue.js';
import { CatalogueQueries } from '../src/catalogue/CatalogueQueries.js';
import type { ListingFilter, SortKey } from '../src/catalogue/ListingQuery.js';
import { PayloadSortIndexes } from '../src/catalogue/PayloadSortIndexes.js';
import type { RankedQuery } from '../src/catalogue/textRanking.js';
import { words } from '../src/kernel/analyzer.js';
import { integer, iri, literal } from '../src/rdf/terms.js';
import { searchableText } from '../src/search/searchDocument.js';
import { StoreTextMatcher } from '../src/search/store/StoreTextMatcher.js';
import { textGraphOf, textTriples } from '../src/search/store/textGraph.js';
import { CATALOGUE, itemNode, revisionGraph } from '../src/store/graphNames.js';
import type { Binding } from '../src/store/GraphStore.js';
import { RemoteGraphStore } from '../src/store/RemoteGraphStore.js';
import { SparqlHttpClient } from '../src/store/SparqlHttpClient.js';
import { releaseVirtuoso, useVirtuoso } from '../test/support/virtuoso.js';
import { percentile } from './harness.js';

/**
 * Listings on the external store (Virtuoso 7), alternating in one run: "index" answers from the
 * replica's in-memory catalogue index and payload sort indexes (what every replica held before),
 * "store" by SPARQL over the store's catalogue graph (what a replica that holds nothing per item
 * asks). Items as bench/qListing.ts makes them (10 projects, a word of an eighth of them), each
 * with a `rank` in its revision graph. `node dist/bench/storeListing.js [count]` (default 10,000;
 * BENCH_RUNS, default 100). Run under `flock /tmp/heavy.lock`.
 *
 * 28 November (load 2.3-3.1, BENCH_RUNS=50), p50 / p99 ms, index -> store. At 10,000: default order
 * 1 project 0.1 / 0.2 -> 9.5 / 17.9, 10 projects 0.2 / 2.1 -> 44.1 / 52.8, after a cursor 0.1 / 1.6
 * -> 11.6 / 18.7, by type 0.2 / 4.5 -> 6.2 / 15.9, sort=-rank 0.1 / 66.0 -> 6.9 / 21.2, q ranked (the
 * store's matcher either way) 10.8 / 29.8 -> 8.9 / 28.4, q aggregated 52.0 / 61.0 -> 69.9 / 87.0.
 * At 50,000: 0.1 / 0.2 -> 29.5 / 39.6; 0.2 / 4.7 -> 212.7 / 278.9; 0.1 / 0.2 -> 38.2 / 48.0;
 * 0.2 / 0.4 -> 12.1 / 33.1; 0.3 / 521.2 -> 19.4 / 29.4; 24.4 / 66.7 -> 20.3 / 49.1; 39.1 / 81.5 ->
 * 110.4 / 160.3. A page in the default order sorts its whole scope in the store: ~4 µs an item, so
 * linear in the scope (1 project: 1,000 -> 5,000 items, 9.5 -> 29.5 ms). Measured variants of the
 * page query (without DISTINCT, without the kind or the second `nxv:id` triple) changed nothing.
 */
const count = Number(process.argv[2] ?? 10_000);
const RUNS = Number(process.env['BENCH_RUNS'] ?? 100);
const CITIES = ['Oxford', 'Cambridge', 'London', 'Geneva', 'Lausanne', 'Zurich', 'Bern', 'Basel'];
const PROJECTS = Array.from({ length: 10 }, (_, i) => `bench/p${i}`);
const BASE = 'http://registry.bench/v1/resources';
const RANK = 'http://schema.org/rank';

const virtuoso = await useVirtuoso();
const client = new SparqlHttpClient(virtuoso.server, { timeoutMillis: 120_000 });
const store = new RemoteGraphStore(client, { graphPrefix: 'urn:registry:', markerGraph: 'urn:registry:store' });
const items: CatalogueItem[] = [];
const started = performance.now();
let text = new Map<string, string[]>();
let heads: string[] = [];
const flush = async (from: number) => {
  await client.addToGraph(CATALOGUE, items.slice(from).map(catalogueTriples).join(''));
  for (const [p, b] of text) if (b.length) await client.addToGraph(textGraphOf('resources', p), b.join(''));
  await client.update(`INSERT DATA { ${heads.join(' ')} }`);
  text = new Map();
  heads = [];
};
let flushed = 0;
for (let i = 0; i < count; i++) {
  const project = PROJECTS[i % PROJECTS.length]!;
  const j = Math.floor(i / PROJECTS.length);
  const id = `${BASE}/${project}/_/r${j}`;
  const city = CITIES[j % CITIES.length]!;
  const payload = { name: `person ${String(j).padStart(7, '0')} ${city}`, rank: (j * 7919) % 100_003 };
  const head = revisionGraph('resources', project, id, 1);
  items.push({
    kind: 'resources',
    project,
    id,
    rev: 1,
    deprecated: j % 50 === 7,
    types: ['http://schema.org/Person', `http://example.org/vocab/Kind${j % 5}`],
    schema: 'https://bluebrain.github.io/nexus/schemas/unconstrained.json',
    createdAt: new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString(),
    createdBy: `http://registry.bench/v1/realms/r/users/u${j % 3}`,
    updatedAt: new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString(),
    updatedBy: 'http://registry.bench/v1/anonymous',
    head,
    links: [],
  });
  heads.push(`GRAPH ${iri(head)} { ${iri(id)} ${iri(RANK)} ${integer(payload.rank)} . ${iri(id)} <http://schema.org/name> ${literal(payload.name)} . }`);
  const batch = text.get(project) ?? [];
  batch.push(textTriples(itemNode('resources', project, id), searchableText(id, payload)));
  text.set(project, batch);
  if (items.length - flushed === 200) {
    await flush(flushed);
    flushed = items.length;
  }
}
if (items.length > flushed) await flush(flushed);
const index = new CatalogueIndex();
index.load(items);
console.log(`${count} items loaded in ${((performance.now() - started) / 1000).toFixed(1)} s`);

const ways = {
  index: new CatalogueQueries(store, { index, sorts: new PayloadSortIndexes(store, index) }, () => PROJECTS),
  store: new CatalogueQueries(store, undefined, () => PROJECTS),
};
const matcher = new StoreTextMatcher(client);
const DEFAULT: SortKey[] = [
  { field: { metadata: 'createdBy' }, descending: false },
  { field: { metadata: 'id' }, descending: false },
];
const filter = (scope: string[], more: Partial<ListingFilter> = {}): ListingFilter => ({
  kind: 'resources',
  projects: scope,
  deprecated: false,
  types: [],
  typeOperator: 'or',
  ...more,
});
const one = (i: number) => [PROJECTS[i % PROJECTS.length]!];
// A cursor a few pages in, as `_next` gives it (the same for both: the index's cursors are the SPARQL ones).
const cursors = new Map<string, Binding[]>();
for (const p of PROJECTS) {
  const page = await ways.store.listing(filter([p]), DEFAULT, { offset: 100, limit: 1 });
  cursors.set(p, page.rows[0]!.cursor);
}
const rankedQuery = (i: number, queries: CatalogueQueries): RankedQuery => {
  const f = filter(one(i));
  return { words: words(CITIES[i % CITIES.length]!), filter: f, projects: queries.projects(f), exact: [], offset: 0, limit: 21 };
};
const cases: [string, (q: CatalogueQueries, i: number) => Promise<unknown>][] = [
  ['default order, 1 project', (q, i) => q.listing(filter(one(i)), DEFAULT, { offset: 0, limit: 21 })],
  ['default order, 10 projects', (q) => q.listing(filter(PROJECTS), DEFAULT, { offset: 0, limit: 21 })],
  ['default order, after a cursor', (q, i) => q.listing(filter(one(i)), DEFAULT, { offset: 0, limit: 21, after: cursors.get(one(i)[0]!)! })],
  [
    'default order, 1 project by type',
    (q, i) => q.listing(filter(one(i), { types: [`http://example.org/vocab/Kind${i % 5}`] }), DEFAULT, { offset: 0, limit: 21 }),
  ],
  ['sort=-rank, 1 project', (q, i) => q.listing(filter(one(i)), [{ field: { predicate: RANK }, descending: true }], { offset: 0, limit: 21 })],
  ['q ranked, 1 project', (q, i) => matcher.rank(rankedQuery(i, q))],
  [
    'q aggregated, 1 project',
    async (q, i) => {
      const query = rankedQuery(i, q);
      return q.selectedMatches(query, await matcher.match(query.words, 'resources', query.projects));
    },
  ],
];
for (const [name, run] of cases) {
  const times: Record<string, number[]> = { index: [], store: [] };
  // Alternating, the first runs of each left out (caches, the payload sort index's fill).
  for (let i = -5; i < RUNS; i++)
    for (const [way, queries] of Object.entries(ways)) {
      const t = performance.now();
      await run(queries, i + 5);
      if (i >= 0) times[way]!.push(performance.now() - t);
    }
  const line = Object.entries(times)
    .map(([way, ms]) => `${way} p50 ${percentile(ms, 50).toFixed(1)} p99 ${percentile(ms, 99).toFixed(1)}`)
    .join('  |  ');
  console.log(`${name.padEnd(34)} ${line}  (store/index p50 ${(percentile(times['store']!, 50) / percentile(times['index']!, 50)).toFixed(1)}x)`);
}
await releaseVirtuoso();
