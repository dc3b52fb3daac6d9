import { startServer } from '../test/support/server.js';
import type { TestServer } from '../test/support/server.js';
import { releaseVirtuoso, useVirtuoso } from '../test/support/virtuoso.js';
import { measure, summarize } from './harness.js';

/**
 * Issue 24: a user-defined view over many resources. Writes `count` resources (a third of them
 * `Cell`), then creates an Elasticsearch view and a SPARQL view selecting the cells: the time to
 * index what exists (until the first query answers: queries wait for the view's runner), then
 * `_search` and SPARQL latencies, one at a time and 4 at a time.
 *
 * The SPARQL view is queried over its own graph. With `compare` (at most 20,000 resources), the
 * same query is also asked, alternating with it, over a dataset listing every selected revision
 * graph (`default-graph-uri` and `named-graph-uri`, in a form body): what a filtered view was
 * before it had a graph of its own.
 *
 * `node dist/bench/views.js [count] [queries] [embedded|external] [compare]` (defaults 10,000, 100,
 * embedded). `external` starts a Virtuoso of its own (test/support/virtuoso.ts; VIRTUOSO_BUFFERS
 * sizes its memory).
 */
const count = Number(process.argv[2] ?? 10_000);
const runs = Number(process.argv[3] ?? 100);
const external = process.argv[4] === 'external';
const compare = process.argv[5] === 'compare' && count <= 20_000;
const EX = 'http://example.com/';
const virtuoso = external ? await useVirtuoso() : undefined;
// The listed dataset of `compare` is a form body of about 1 MB per 10,000 resources.
// Reads wait for the projections as long as they take: the external store's writer follows the writes from afar.
const server: TestServer = await startServer({
  maxPayloadBytes: 8 * 1024 * 1024,
  readBarrierMillis: 3_600_000,
  ...(virtuoso ? { sparqlStore: virtuoso.server } : {}),
});
const call = async (method: string, path: string, body?: string, type = 'application/json'): Promise<unknown> => {
  const res = await fetch(`${server.url}${path}`, { method, ...(body === undefined ? {} : { body, headers: { 'content-type': type } }) });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${text.slice(0, 300)}`);
  return text ? JSON.parse(text) : undefined;
};
const timed = async (op: () => Promise<unknown>): Promise<number> => {
  const t = performance.now();
  await op();
  return performance.now() - t;
};
let started = performance.now();
try {
  console.log(`${count} resources, ${external ? 'external store (Virtuoso)' : 'embedded store'}`);
  await call('PUT', '/v1/orgs/bench', '{}');
  await call('PUT', '/v1/projects/bench/views', '{}');
  await measure(`write ${count} resources`, count, 8, async (i) => {
    const type = i % 3 === 0 ? 'Cell' : 'Other';
    const body = { '@context': { '@vocab': EX }, '@id': `${EX}r${i}`, '@type': type, name: `resource ${i}`, n: i, region: `region ${i % 50}` };
    await call('PUT', `/v1/resources/bench/views/_/${encodeURIComponent(`${EX}r${i}`)}?indexing=async`, JSON.stringify(body));
  });
  // Every write reflected in the default views before the user-defined ones start.
  started = performance.now();
  await call('POST', '/v1/views/bench/views/graph/sparql', 'ASK { ?s ?p ?o }', 'text/plain');
  console.log(`projections caught up with the writes after ${((performance.now() - started) / 1000).toFixed(2)} s more`);
  const es = { '@type': 'ElasticSearchView', resourceTypes: [`${EX}Cell`] };
  const sparqlView = { '@type': 'SparqlView', resourceTypes: [`${EX}Cell`] };
  const query = JSON.stringify({ query: { bool: { must: [{ match: { name: 'resource' } }], filter: [{ range: { n: { gte: 100 } } }] } }, size: 10 });
  const sparql = `SELECT ?s ?name WHERE { ?s <${EX}region> "region 7" ; <${EX}name> ?name } LIMIT 100`;
  started = performance.now();
  await call('PUT', '/v1/views/bench/views/nxv:cells', JSON.stringify(es));
  const first = (await call('POST', '/v1/views/bench/views/nxv:cells/_search', query)) as { hits: { total: { value: number } } };
  console.log(
    `Elasticsearch view: ${Math.ceil(count / 3)} of ${count} resources indexed in ${((performance.now() - started) / 1000).toFixed(2)} s (${first.hits.total.value} hits)`,
  );
  started = performance.now();
  await call('PUT', '/v1/views/bench/views/nxv:cellgraph', JSON.stringify(sparqlView));
  const rows = (await call('POST', '/v1/views/bench/views/nxv:cellgraph/sparql', sparql, 'text/plain')) as { results: { bindings: unknown[] } };
  console.log(`SPARQL view: indexed in ${((performance.now() - started) / 1000).toFixed(2)} s (${rows.results.bindings.length} rows)`);
  if (compare) {
    // Before: the view's dataset as the list of the revision graphs it selects.
    const form = new URLSearchParams({ query: sparql });
    for (let i = 0; i < count; i += 3) {
      const graph = `urn:registry:resources/bench/views/${encodeURIComponent(`${EX}r${i}`)}/rev/1`;
      form.append('default-graph-uri', graph);
      form.append('named-graph-uri', graph);
    }
    const listed = form.toString();
    const own: number[] = [];
    const list: number[] = [];
    const wall = performance.now();
    for (let i = 0; i < runs; i++) {
      own.push(await timed(() => call('POST', '/v1/views/bench/views/nxv:cellgraph/sparql', sparql, 'text/plain')));
      list.push(await timed(() => call('POST', '/v1/views/bench/views/graph/sparql', listed, 'application/x-www-form-urlencoded')));
    }
    const half = (performance.now() - wall) / 2;
    console.log(summarize('view over its own graph', own, half));
    console.log(summarize(`view over ${Math.ceil(count / 3)} listed graphs`, list, half));
  }
  for (const concurrency of [1, 4]) {
    await measure(
      `_search (${concurrency} at a time)`,
      runs,
      concurrency,
      async () => void (await call('POST', '/v1/views/bench/views/nxv:cells/_search', query)),
    );
    await measure(
      `view SPARQL (${concurrency} at a time)`,
      runs,
      concurrency,
      async () => void (await call('POST', '/v1/views/bench/views/nxv:cellgraph/sparql', sparql, 'text/plain')),
    );
    await measure(
      `default SPARQL (${concurrency} at a time)`,
      runs,
      concurrency,
      async () => void (await call('POST', '/v1/views/bench/views/graph/sparql', sparql, 'text/plain')),
    );
  }
} finally {
  await server.stop(true);
  if (virtuoso) await releaseVirtuoso();
}
