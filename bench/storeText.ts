import { words } from '../src/kernel/analyzer.js';
import { CatalogueIndex } from '../src/catalogue/CatalogueIndex.js';
import { EmbeddedTextMatcher } from '../src/search/EmbeddedTextMatcher.js';
import { searchableText } from '../src/search/searchDocument.js';
import { StoreTextMatcher } from '../src/search/store/StoreTextMatcher.js';
import { textGraphOf, textTriples } from '../src/search/store/textGraph.js';
import { TextIndex } from '../src/search/TextIndex.js';
import { itemNode } from '../src/store/graphNames.js';
import { SparqlHttpClient } from '../src/store/SparqlHttpClient.js';
import { releaseVirtuoso, useVirtuoso } from '../test/support/virtuoso.js';
import { GraphPosts } from './graphPosts.js';
import { summarize } from './harness.js';

/**
 * Listings' text matcher (`q`) on the external store (Virtuoso 7, word triples, textGraph.ts) beside
 * the embedded SQLite FTS5 index, over the same items in 10 projects: a rare word, a frequent word
 * (an eighth of the items), a two-word phrase, each in one project and in all ten. The matches only:
 * ranking them into a page is the same code for both.
 * `VIRTUOSO_BUFFERS=100000 node dist/bench/storeText.js [count]` (default 10,000). The store's
 * candidates come from Virtuoso's free-text index as the tests' Virtuoso sets it up
 * (`VIRTUOSO_TEXT_INDEX=off`: from word triples); the triples written per item are counted.
 */
const count = Number(process.argv[2] ?? 10_000);
const RUNS = Number(process.env['BENCH_RUNS'] ?? 50);
const CITIES = ['Oxford', 'Cambridge', 'London', 'Geneva', 'Lausanne', 'Zurich', 'Bern', 'Basel'];
const PROJECTS = Array.from({ length: 10 }, (_, i) => `bench/p${i}`);

const virtuoso = await useVirtuoso();
const client = new SparqlHttpClient(virtuoso.server, { timeoutMillis: 120_000 });
const indexed = virtuoso.server.textIndex === 'virtuoso';
const index = TextIndex.open(':memory:');
const posts = new GraphPosts(client);
for (let i = 0; i < count; i++) {
  const project = PROJECTS[i % PROJECTS.length]!;
  const id = `urn:doc:${i}`;
  const payload: Record<string, string | number> = { name: `person ${String(i).padStart(7, '0')} ${CITIES[i % CITIES.length]}`, age: 18 + (i % 60) };
  for (let p = 0; p < 20; p++) payload[`p${p}`] = p % 3 === 0 ? i * p : `value ${p} of ${i}`;
  const node = itemNode('resources', project, id);
  const body = searchableText(id, payload);
  index.put({ node, kind: 'resources', project, id, contentSeq: i + 1, rev: 1, deprecated: false, doc: {}, body });
  await posts.add(textGraphOf('resources', project), textTriples(node, body, indexed));
}
await posts.flush();
index.commit();
if (indexed) await client.query('SELECT (<sql:VT_INC_INDEX_DB_DBA_RDF_OBJ>() AS ?done) WHERE {}', 'application/sparql-results+json');
console.log(`${count} items, ${(posts.triples / count).toFixed(1)} text triples an item (${indexed ? "Virtuoso's free-text index" : 'word triples'})`);

const time = async (name: string, op: (i: number) => Promise<unknown>) => {
  for (let i = 0; i < 3; i++) await op(i);
  const times: number[] = [];
  const t0 = performance.now();
  for (let i = 0; i < RUNS; i++) {
    const t = performance.now();
    await op(i);
    times.push(performance.now() - t);
  }
  console.log(summarize(name, times, performance.now() - t0));
};

const matchers = {
  ...(process.env['BENCH_EMBEDDED'] === 'off' ? {} : { embedded: new EmbeddedTextMatcher(index, new CatalogueIndex()) }),
  store: new StoreTextMatcher(client, indexed),
};
const queries = {
  'a rare word': (i: number) => String((i * 37) % count).padStart(7, '0'),
  'a frequent word': (i: number) => CITIES[i % CITIES.length]!.toLowerCase(),
  'a phrase, last word a prefix': (i: number) => `value ${i % 20} o`,
  "a frequent word's prefix": (i: number) => CITIES[i % CITIES.length]!.toLowerCase().slice(0, 5),
};
for (const [label, q] of Object.entries(queries))
  for (const scope of [PROJECTS.slice(0, 1), PROJECTS])
    for (const [name, matcher] of Object.entries(matchers))
      await time(`${name.padEnd(8)} ${label}, ${scope.length} project(s)`, (i) => matcher.match(words(q(i)), 'resources', scope));
index.close();
await releaseVirtuoso();
