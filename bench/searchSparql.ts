import oxigraph from 'oxigraph';
import { executeSearch } from '../src/search/dsl/executeSearch.js';
import { DocSet } from '../src/search/dsl/DocSet.js';
import type { SearchDoc } from '../src/search/dsl/fields.js';
import { summarize } from './harness.js';

/**
 * Why the search API does not run its queries as SPARQL (issue 11): the benchmark's `bool` + `terms`
 * search over the same documents, once as the SPARQL a translation would give (documents as
 * triples in Oxigraph, one predicate per field) and once by the search API's own evaluation.
 * `node dist/bench/searchSparql.js [count]` (default 100,000).
 */
const count = Number(process.argv[2] ?? 100_000);
const CITIES = ['Oxford', 'Cambridge', 'London', 'Geneva', 'Lausanne', 'Zurich', 'Bern', 'Basel'];
const F = 'urn:field:';
const XSD_INTEGER = 'http://www.w3.org/2001/XMLSchema#integer';

const source = (i: number): Record<string, string | number> => {
  const doc: Record<string, string | number> = {
    '@id': `urn:doc:${i}`,
    name: `person ${String(i).padStart(7, '0')} ${CITIES[i % CITIES.length]}`,
    age: 18 + (i % 60),
    city: CITIES[(i * 7) % CITIES.length]!,
  };
  for (let p = 0; p < 20; p++) doc[`p${p}`] = p % 3 === 0 ? i * p : `value ${p} of ${i}`;
  return doc;
};

const literal = (v: string | number) => (typeof v === 'number' ? `"${v}"^^<${XSD_INTEGER}>` : JSON.stringify(v));

const store = new oxigraph.Store();
const docs: SearchDoc[] = [];
let chunk: string[] = [];
const started = performance.now();
for (let i = 0; i < count; i++) {
  const doc = source(i);
  docs.push({ id: String(doc['@id']), project: 'bench/main', source: doc });
  for (const [k, v] of Object.entries(doc)) if (k !== '@id') chunk.push(`<${doc['@id']}> <${F}${k}> ${literal(v)} .`);
  // Loaded in pieces: one string of every triple is slow to parse and may pass V8's string limit.
  if (chunk.length >= 50_000 || i === count - 1) {
    store.load(chunk.join('\n'), { format: 'application/n-triples' });
    chunk = [];
  }
}
console.log(`${count} documents, ${store.size} triples loaded in ${((performance.now() - started) / 1000).toFixed(1)} s`);

const time = async (name: string, runs: number, op: (i: number) => unknown) => {
  await op(0);
  const times: number[] = [];
  const t0 = performance.now();
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    await op(i);
    times.push(performance.now() - t);
  }
  console.log(summarize(name, times, performance.now() - t0));
};

// The search's three parts as SPARQL: its matches counted, its first page, its aggregation.
const where = (i: number) => `?d <${F}name> ?name . FILTER(CONTAINS(LCASE(?name), "person")) ?d <${F}age> ?age . FILTER(?age >= ${20 + (i % 10)} && ?age < 60)`;
await time('SPARQL: total of the matches', 20, (i) => store.query(`SELECT (COUNT(?d) AS ?n) WHERE { ${where(i)} }`));
await time('SPARQL: first page (10 by @id)', 20, (i) => store.query(`SELECT ?d WHERE { ${where(i)} } ORDER BY ?d LIMIT 10`));
await time('SPARQL: terms aggregation', 20, (i) =>
  store.query(`SELECT ?c (COUNT(?d) AS ?n) WHERE { ${where(i)} ?d <${F}city> ?c } GROUP BY ?c ORDER BY DESC(?n)`),
);

const set = new DocSet(docs);
const body = (i: number) => ({
  size: 10,
  query: { bool: { must: [{ match: { name: 'person' } }], filter: [{ range: { age: { gte: 20 + (i % 10), lt: 60 } } }] } },
  aggs: { cities: { terms: { field: 'city.keyword' } } },
});
await time('search API: the whole search', 100, (i) => executeSearch(body(i), set, () => 'search_bench_main', 1));
