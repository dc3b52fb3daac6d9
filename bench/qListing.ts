import { execSync } from 'node:child_process';
import { CatalogueIndex } from '../src/catalogue/CatalogueIndex.js';
import type { CatalogueItem } from '../src/catalogue/catalogue.js';
import { catalogueTriples } from '../src/catalogue/catalogue.js';
import type { ListingFilter } from '../src/catalogue/ListingQuery.js';
import type { RankedQuery } from '../src/catalogue/textRanking.js';
import { rankMatches } from '../src/catalogue/textRanking.js';
import { words } from '../src/kernel/analyzer.js';
import { searchableText } from '../src/search/searchDocument.js';
import { StoreTextMatcher } from '../src/search/store/StoreTextMatcher.js';
import { LENGTH, TEXT, textGraphOf, textTriples, WORD } from '../src/search/store/textGraph.js';
import { CATALOGUE, itemNode, revisionGraph } from '../src/store/graphNames.js';
import { SparqlHttpClient } from '../src/store/SparqlHttpClient.js';
import { releaseVirtuoso, useVirtuoso } from '../test/support/virtuoso.js';
import { percentile } from './harness.js';

/**
 * A `q` listing's first page on the external store (Virtuoso 7) for a word of an eighth of the items,
 * alternating in one run: "before" is the matcher and Listings before this change (`before` below);
 * "old" fetches every match (`match`, as now) and ranks, filters and pages them in process over the
 * catalogue (what Listings did), "new" asks the store for the page (`rank`: the catalogue's
 * conditions, order, page and total in SPARQL). Items of ~25 properties as bench/scale.ts
 * makes them, in 10 projects; the listing of one project (as scale.ts's `q` figure) and of all ten.
 * `node dist/bench/qListing.js [count]` (default 10,000; BENCH_RUNS, default 200).
 * At 10,000 (BENCH_RUNS=100, load 3.3 -> 3.2), p50 / p99 ms, before -> new: one project (125 matches)
 * 33.1 / 89.0 -> 21.3 / 37.9; one project by type 32.4 / 90.5 -> 15.7 / 35.5; ten projects (1,250
 * matches) 214.7 / 296.7 -> 92.9 / 151.4.
 */
const count = Number(process.argv[2] ?? 10_000);
const RUNS = Number(process.env['BENCH_RUNS'] ?? 200);
const CITIES = ['Oxford', 'Cambridge', 'London', 'Geneva', 'Lausanne', 'Zurich', 'Bern', 'Basel'];
const PROJECTS = Array.from({ length: 10 }, (_, i) => `bench/p${i}`);
const BASE = 'http://registry.bench/v1/resources';

const virtuoso = await useVirtuoso();
const client = new SparqlHttpClient(virtuoso.server, { timeoutMillis: 120_000 });
const catalogue = new CatalogueIndex();
const items: CatalogueItem[] = [];
const text = new Map<string, string[]>();
const flush = async () => {
  for (const [p, b] of text) if (b.length) await client.addToGraph(textGraphOf('resources', p), b.join(''));
  await client.addToGraph(CATALOGUE, items.slice(-200).map(catalogueTriples).join(''));
  text.clear();
};
const started = performance.now();
for (let i = 0; i < count; i++) {
  const project = PROJECTS[i % PROJECTS.length]!;
  const j = Math.floor(i / PROJECTS.length);
  const id = `${BASE}/${project}/_/r${j}`;
  const payload: Record<string, string | number> = {
    name: `person ${String(j).padStart(7, '0')} ${CITIES[j % CITIES.length]}`,
    age: 18 + (j % 60),
    city: CITIES[(j * 7) % CITIES.length]!,
  };
  for (let p = 0; p < 20; p++) payload[`p${p}`] = p % 3 === 0 ? j * p : `value ${p} of ${j}`;
  const item: CatalogueItem = {
    kind: 'resources',
    project,
    id,
    rev: 1,
    deprecated: j % 50 === 7,
    types: ['http://schema.org/Person', `http://example.org/vocab/Kind${j % 5}`],
    schema: 'https://bluebrain.github.io/nexus/schemas/unconstrained.json',
    createdAt: new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString(),
    createdBy: 'http://registry.bench/v1/anonymous',
    updatedAt: new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString(),
    updatedBy: 'http://registry.bench/v1/anonymous',
    head: revisionGraph('resources', project, id, 1),
    links: [],
  };
  items.push(item);
  const batch = text.get(project) ?? [];
  batch.push(textTriples(itemNode('resources', project, id), searchableText(id, payload)));
  text.set(project, batch);
  if (items.length % 200 === 0) await flush();
}
if (items.length % 200)
  await client.addToGraph(
    CATALOGUE,
    items
      .slice(-(items.length % 200))
      .map(catalogueTriples)
      .join(''),
  );
for (const [p, b] of text) if (b.length) await client.addToGraph(textGraphOf('resources', p), b.join(''));
catalogue.load(items);
console.log(`${count} items loaded in ${((performance.now() - started) / 1000).toFixed(1)} s`);

const store = new StoreTextMatcher(client);
/** Listings' query for `q` (the first page of 20, deprecated left out), as Listings builds it. */
const query = (i: number, scope: string[], more: Partial<ListingFilter> = {}): RankedQuery => {
  const city = CITIES[i % CITIES.length]!;
  const filter: ListingFilter = { kind: 'resources', projects: scope, deprecated: false, types: [], typeOperator: 'or', ...more };
  const one = scope.length === 1 ? scope[0]! : undefined;
  const idNode = one && itemNode('resources', one, `${BASE}/${one}/_/${city}`);
  return {
    words: words(city),
    filter,
    projects: catalogue.projects(filter),
    exact: [...(idNode ? [idNode] : []), ...scope.map((p) => itemNode('resources', p, city))],
    ...(idNode ? { idNode } : {}),
    offset: 0,
    limit: 21,
  };
};
/**
 * The matches as the matcher found them before this bench's change (commit 8a36494): the items holding
 * a word the lone word begins (STRSTARTS over every word triple), BM25 in process. Written out here
 * as the query text it sent, to compare in one run.
 */
const before = async (q: RankedQuery) => {
  const graphs = `VALUES ?g { ${q.projects.map((p) => `<${textGraphOf('resources', p)}>`).join(' ')} }`;
  const phrase = JSON.stringify(` ${q.words.join(' ')}`);
  const select = async (text: string) =>
    (JSON.parse((await client.query(text, 'application/sparql-results+json')).body) as { results: { bindings: Record<string, { value: string }>[] } }).results
      .bindings;
  const [matched, stats] = await Promise.all([
    select(
      `SELECT DISTINCT ?doc ?n (((STRLEN(?t) - STRLEN(REPLACE(?t, ${phrase}, ""))) / STRLEN(${phrase})) AS ?f) WHERE { ${graphs} GRAPH ?g { ?doc <${WORD}> ?last FILTER(STRSTARTS(?last, ${JSON.stringify(q.words[0])})) ?doc <${TEXT}> ?t . ?doc <${LENGTH}> ?n } FILTER(CONTAINS(?t, ${phrase})) }`,
    ),
    select(`SELECT (COUNT(?doc) AS ?items) (AVG(?n) AS ?length) WHERE { ${graphs} GRAPH ?g { ?doc <${LENGTH}> ?n } }`),
  ]);
  const items = Number(stats[0]!['items']!.value);
  const average = Number(stats[0]!['length']!.value) || 1;
  const idf = Math.log(1 + (items - matched.length + 0.5) / (matched.length + 0.5));
  const matches = matched.map((row) => {
    const f = Math.max(1, Number(row['f']!.value));
    return { node: row['doc']!.value, score: (idf * (f * 2.2)) / (f + 1.2 * (1 - 0.75 + (0.75 * Number(row['n']!.value)) / average)) };
  });
  return rankMatches(catalogue, q, matches);
};
const ways = {
  before,
  old: async (q: RankedQuery) => rankMatches(catalogue, q, await store.match(q.words, q.filter.kind, q.projects)),
  new: (q: RankedQuery) => store.rank(q),
};
const cases: [string, (i: number) => RankedQuery][] = [
  ['1 project', (i) => query(i, [PROJECTS[i % PROJECTS.length]!])],
  ['1 project, by type', (i) => query(i, [PROJECTS[i % PROJECTS.length]!], { types: [`http://example.org/vocab/Kind${i % 5}`] })],
  ['10 projects', (i) => query(i, PROJECTS)],
];
const uptime = () => execSync('uptime').toString().trim();
console.log(uptime());
for (const [label, make] of cases) {
  // Both give the same page first.
  const [a, b, c] = [await ways.old(make(0)), await ways.new(make(0)), await ways.before(make(0))];
  if (JSON.stringify(a) !== JSON.stringify(b)) throw new Error(`${label}: old and new differ\n${JSON.stringify(a)}\n${JSON.stringify(b)}`);
  if (JSON.stringify(a.rows.map((r) => r.node)) !== JSON.stringify(c.rows.map((r) => r.node))) throw new Error(`${label}: before and new differ`);
  const times = { before: [] as number[], old: [] as number[], new: [] as number[] };
  for (let i = 0; i < 5; i++) for (const way of Object.values(ways)) await way(make(i));
  for (let i = 0; i < RUNS; i++)
    for (const name of (i % 2 ? ['before', 'old', 'new'] : ['new', 'old', 'before']) as (keyof typeof ways)[]) {
      const t = performance.now();
      await ways[name](make(i));
      times[name].push(performance.now() - t);
    }
  const fig = (t: number[]) => `p50 ${percentile(t, 50).toFixed(1)} ms, p99 ${percentile(t, 99).toFixed(1)} ms`;
  console.log(
    `${label} (${a.total} matches): before ${fig(times.before)}; old ${fig(times.old)}; new ${fig(times.new)}; p50 before/new ${(percentile(times.before, 50) / percentile(times.new, 50)).toFixed(2)}, old/new ${(percentile(times.old, 50) / percentile(times.new, 50)).toFixed(2)}`,
  );
}
console.log(uptime());
await releaseVirtuoso();
