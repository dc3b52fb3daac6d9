import { mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import oxigraph from 'oxigraph';
import { ProjectDatasets } from '../src/store/ProjectDatasets.js';
import { json, measure, startProcess, summarize } from './harness.js';

const CONTEXT = { '@vocab': 'http://schema.org/', ex: 'http://example.org/vocab/', knows: { '@id': 'http://schema.org/knows', '@type': '@id' } };
const PREFIXES = 'PREFIX schema: <http://schema.org/> PREFIX ex: <http://example.org/vocab/> ';

/** A resource of ~12 properties, one link to an earlier one. */
const payload = (i: number, base: string, version = 0) => {
  const doc: Record<string, unknown> = {
    '@context': CONTEXT,
    '@type': ['Person', `ex:Kind${i % 5}`],
    name: `person-${String(i).padStart(7, '0')}`,
    knows: `${base}r${Math.max(0, i - 1)}`,
    version,
  };
  for (let p = 0; p < 9; p++) doc[`ex:p${p}`] = p % 3 === 0 ? (i * (p + 1)) % 1000 : `value ${p} of ${i}`;
  return doc;
};

/** The queries measured, each over the whole project. */
const QUERIES: Record<string, string> = {
  'SELECT join, selective': `${PREFIXES}SELECT ?s ?name ?v WHERE { ?s ex:p0 42 ; schema:name ?name ; ex:p3 ?v }`,
  'SELECT join, 100 rows': `${PREFIXES}SELECT ?s ?name ?v WHERE { ?s schema:name ?name ; ex:p3 ?v } LIMIT 100`,
  'SELECT join, counted over all': `${PREFIXES}SELECT (COUNT(*) AS ?c) WHERE { ?s schema:name ?name ; ex:p3 ?v }`,
};

const time = (runs: number, op: () => void): number[] =>
  Array.from({ length: runs }, () => {
    const t = performance.now();
    op();
    return performance.now() - t;
  });
const p50 = (millis: number[]) => [...millis].sort((a, b) => a - b)[Math.floor(millis.length / 2)]!;

/**
 * Issue 12's benchmark: multi-fetch of 100 entries and SELECTs joining two properties over HTTP (the
 * endpoint's worker), then the same SELECTs on the project's dataset (default graph restricted to the
 * current heads) against the raw store (every graph, no restriction), in process.
 */
export const benchSparql = async (count: number): Promise<void> => {
  const dataDir = mkdtempSync(join(tmpdir(), 'registry-bench-sparql-'));
  const port = 19_000 + Math.floor(Math.random() * 1000);
  const server = await startProcess(dataDir, port);
  const { url } = server;
  const base = `${url}/v1/resources/bq/main/_/`;
  const path = (i: number) => `${base}r${i}`;
  const updated = Math.floor(count / 10);
  const deprecated = Math.floor(count / 100);
  try {
    await json(`${url}/v1/orgs/bq`, 'PUT', {});
    await json(`${url}/v1/projects/bq/main`, 'PUT', {});
    console.log(`\nsparql: ${count} resources (~12 properties), ${updated} updated once, ${deprecated} deprecated; concurrency 8 / 4`);
    const seeding = performance.now();
    await measure('seed: create (PUT)', count, 8, async (i) => void (await json(path(i), 'PUT', payload(i, base))));
    await measure('seed: update (rev=1)', updated, 8, async (i) => void (await json(`${path(i)}?rev=1`, 'PUT', payload(i, base, 1))));
    await measure('seed: deprecate', deprecated, 8, async (i) => void (await json(`${path(count - 1 - i)}?rev=1`, 'DELETE')));
    console.log(`seeded in ${((performance.now() - seeding) / 1000).toFixed(0)} s`);
    const pick = (i: number) => (i * 7919) % count;
    for (const format of ['source', 'compacted']) {
      await measure(`multi-fetch 100 entries (${format})`, 200, 4, async (n) => {
        const resources = Array.from({ length: 100 }, (_, k) => ({ id: `${base}r${pick(n * 100 + k)}`, project: 'bq/main' }));
        const body = (await json(`${url}/v1/multi-fetch/resources`, 'POST', { format, resources })) as { resources: { value?: unknown }[] };
        if (body.resources.length !== 100 || body.resources.some((r) => r.value === undefined)) throw new Error('multi-fetch lost entries');
      });
    }
    const endpoint = `${url}/v1/views/bq/main/graph/sparql`;
    // The worker applies the writes in order before it answers: the first answer waits for them.
    const caughtUp = performance.now();
    const first = await fetch(endpoint, { method: 'POST', headers: { 'content-type': 'application/sparql-query' }, body: 'ASK { ?s ?p ?o }' });
    console.log(`endpoint: first answer after the writes in ${(performance.now() - caughtUp).toFixed(0)} ms (${first.status})`);
    if (first.status !== 200) throw new Error(`the first query: ${first.status} ${await first.text()}`);
    // One worker answers queries one at a time: alone (latency) and four at once (they queue).
    for (const concurrency of [1, 4])
      for (const [name, query] of Object.entries(QUERIES))
        await measure(`endpoint: ${name}, c${concurrency}`, name.includes('counted') ? 50 : 200, concurrency, async () => {
          const res = await fetch(endpoint, { method: 'POST', headers: { 'content-type': 'application/sparql-query' }, body: query });
          if (res.status !== 200) throw new Error(`${name}: ${res.status} ${await res.text()}`);
          await res.text();
        });
  } finally {
    await server.stop();
  }
  // The same queries in process: the project's dataset (as the endpoint's worker holds it) and the raw store.
  const text = readFileSync(join(dataDir, 'projection', 'revisions.nq'), 'utf8');
  rmSync(dataDir, { recursive: true, force: true });
  const heads = new Map<string, string>();
  for (const line of text.split('\n')) {
    const graph = line.slice(line.lastIndexOf(' <') + 2, line.lastIndexOf('>'));
    const item = graph.slice(0, graph.lastIndexOf('/rev/'));
    const rev = Number(graph.slice(graph.lastIndexOf('/') + 1));
    if (rev > Number((heads.get(item) ?? '/0').split('/').pop())) heads.set(item, graph);
  }
  const isDeprecated = (item: string) =>
    Number(
      decodeURIComponent(item.slice(item.lastIndexOf('/') + 1))
        .split('/r')
        .pop(),
    ) >=
    count - deprecated;
  // What a query worker's start costs (after a timeout too): the revision file, the heads copied into the default graph.
  const mark = performance.now();
  const datasets = new ProjectDatasets(10_000_000);
  datasets.setHeads([...heads].filter(([item]) => !isDeprecated(item)).map(([item, graph]) => ['bq/main', item, graph] as [string, string, string]));
  datasets.prepareLoad(text.length);
  // In pieces of 8 MB cut at line ends, as the worker reads the file.
  let held = '';
  for (let at = 0; at < text.length;) {
    const end = Math.min(text.length, text.lastIndexOf('\n', at + 8 * 1024 * 1024) + 1 || text.length);
    held = datasets.loadRevisions(held + text.slice(at, end > at ? end : text.length), false);
    at = end > at ? end : text.length;
  }
  datasets.loadRevisions(held, true);
  console.log(
    `a query worker's dataset: revision file (${(text.length / 1e6).toFixed(0)} MB) and the heads' copies loaded in ${((performance.now() - mark) / 1000).toFixed(1)} s`,
  );
  const raw = new oxigraph.Store();
  raw.load(text, { format: 'application/n-quads' });
  console.log(
    `in process: the project's dataset (default graph = ${heads.size - deprecated} heads) against the raw store (${raw.size} quads, union of every graph)`,
  );
  for (const [name, query] of Object.entries(QUERIES)) {
    const runs = name.includes('counted') ? 20 : 100;
    const restrictedRun = () => datasets.query({ project: 'bq/main', query, form: 'select', mediaType: 'application/sparql-results+json' });
    const rawRun = () => raw.query(query, { use_default_graph_as_union: true, results_format: 'json' });
    // Warmed up, then alternated run by run so both see the same machine.
    time(5, restrictedRun);
    time(5, rawRun);
    const restricted: number[] = [];
    const unrestricted: number[] = [];
    for (let r = 0; r < runs; r++) {
      restricted.push(...time(1, restrictedRun));
      unrestricted.push(...time(1, rawRun));
    }
    console.log(
      summarize(
        `restricted: ${name}`,
        restricted,
        restricted.reduce((a, b) => a + b, 0),
      ),
    );
    console.log(
      summarize(
        `raw store: ${name}`,
        unrestricted,
        unrestricted.reduce((a, b) => a + b, 0),
      ),
    );
    console.log(`${'ratio restricted / raw (p50)'.padEnd(34)} ${(p50(restricted) / p50(unrestricted)).toFixed(2)}x`);
  }
};

/** `node dist/bench/sparql.js [N]`: this benchmark alone. */
if (process.argv[1] && import.meta.url === `file://${realpathSync(process.argv[1])}`)
  await benchSparql(Number(process.argv[2] ?? process.env['BENCH_N'] ?? 10_000));
