import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { documentTriples, searchGraphOf, valueOf, wordsOf } from '../src/search/store/searchGraph.js';
import { itemNode } from '../src/store/graphNames.js';
import { SparqlHttpClient } from '../src/store/SparqlHttpClient.js';
import { releaseVirtuoso, useVirtuoso } from '../test/support/virtuoso.js';
import { summarize } from './harness.js';

/**
 * The two text indexes the store search could use, on Virtuoso over the same documents: one triple
 * per distinct word (what searchGraph.ts writes, standard SPARQL) against Virtuoso's free-text index
 * on the values (`bif:contains`, after `DB.DBA.RDF_OBJ_FT_RULE_ADD`). Count of a frequent word's
 * matches, and a rare word's first page.
 * `VIRTUOSO_BUFFERS=100000 node dist/bench/storeTextIndex.js [count]` (default 10,000).
 */
const count = Number(process.argv[2] ?? 10_000);
const CITIES = ['Oxford', 'Cambridge', 'London', 'Geneva', 'Lausanne', 'Zurich', 'Bern', 'Basel'];
const project = 'bench/text';
const virtuoso = await useVirtuoso();
const client = new SparqlHttpClient(virtuoso.server, { timeoutMillis: 120_000 });
let batch: string[] = [];
for (let i = 0; i < count; i++) {
  const doc = { '@id': `urn:doc:${i}`, name: `person ${String(i).padStart(7, '0')} ${CITIES[i % CITIES.length]}`, age: i % 60 };
  batch.push(documentTriples(itemNode('resources', project, doc['@id']), doc));
  if (batch.length === 500 || i === count - 1) (await client.addToGraph(searchGraphOf(project), batch.join('')), (batch = []));
}
const port = /\[Parameters\]\nServerPort = ([\d.:]+)/.exec(readFileSync(join(virtuoso.dir, 'virtuoso.ini'), 'utf8'))![1]!;
const t0 = performance.now();
await promisify(execFile)('isql-vt', [port, 'dba', 'dba', `exec=DB.DBA.RDF_OBJ_FT_RULE_ADD (null, null, 'all'); DB.DBA.VT_INC_INDEX_DB_DBA_RDF_OBJ ();`]);
console.log(`${count} documents; Virtuoso's free-text index built in ${Math.round(performance.now() - t0)} ms`);

const time = async (name: string, query: (i: number) => string) => {
  const first = JSON.parse((await client.query(query(0), 'application/sparql-results+json')).body) as { results: { bindings: unknown[] } };
  // What it found, so that a text index that matched nothing is seen.
  console.log(`${name}: ${JSON.stringify(first.results.bindings[0] ?? 'nothing')}`);
  for (let i = 1; i < 3; i++) await client.query(query(i), 'application/sparql-results+json');
  const times: number[] = [];
  const started = performance.now();
  for (let i = 0; i < 50; i++) {
    const t = performance.now();
    await client.query(query(i), 'application/sparql-results+json');
    times.push(performance.now() - t);
  }
  console.log(summarize(name, times, performance.now() - started));
};
const g = `<${searchGraphOf(project)}>`;
const city = (i: number) => CITIES[i % CITIES.length]!.toLowerCase();
const rare = (i: number) => String((i * 37) % count).padStart(7, '0');
await time('word triples: count of a frequent word', (i) => `SELECT (COUNT(DISTINCT ?d) AS ?n) WHERE { GRAPH ${g} { ?d <${wordsOf('name')}> "${city(i)}" } }`);
await time(
  'bif:contains: count of a frequent word',
  (i) => `SELECT (COUNT(DISTINCT ?d) AS ?n) WHERE { GRAPH ${g} { ?d <${valueOf('name')}> ?o . ?o bif:contains "'${city(i)}'" } }`,
);
await time('word triples: a rare word, first page', (i) => `SELECT ?d WHERE { GRAPH ${g} { ?d <${wordsOf('name')}> "${rare(i)}" } } LIMIT 10`);
await time(
  'bif:contains: a rare word, first page by score',
  (i) => `SELECT ?d ?sc WHERE { GRAPH ${g} { ?d <${valueOf('name')}> ?o . ?o bif:contains "'${rare(i)}'" OPTION (score ?sc) } } ORDER BY DESC(?sc) LIMIT 10`,
);
await releaseVirtuoso();
