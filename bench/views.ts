import { startServer } from '../test/support/server.js';
import { measure } from './harness.js';

/**
 * Issue 24: a user-defined view over many resources. Writes `count` resources (a third of them
 * `Cell`), then creates an Elasticsearch view and a SPARQL view selecting the cells: the time to
 * index what exists (until the first query answers: queries wait for the view's runner), then
 * `_search` and SPARQL latencies, one at a time and 4 at a time.
 * `node dist/bench/views.js [count] [queries]` (defaults 10,000 and 100).
 */
const count = Number(process.argv[2] ?? 10_000);
const EX = 'http://example.com/';
const server = await startServer({});
const call = async (method: string, path: string, body?: string, type = 'application/json'): Promise<unknown> => {
  const res = await fetch(`${server.url}${path}`, { method, ...(body === undefined ? {} : { body, headers: { 'content-type': type } }) });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${text.slice(0, 300)}`);
  return text ? JSON.parse(text) : undefined;
};
try {
  await call('PUT', '/v1/orgs/bench', '{}');
  await call('PUT', '/v1/projects/bench/views', '{}');
  await measure(`write ${count} resources`, count, 8, async (i) => {
    const type = i % 3 === 0 ? 'Cell' : 'Other';
    const body = { '@context': { '@vocab': EX }, '@id': `${EX}r${i}`, '@type': type, name: `resource ${i}`, n: i, region: `region ${i % 50}` };
    await call('PUT', `/v1/resources/bench/views/_/${encodeURIComponent(`${EX}r${i}`)}?indexing=async`, JSON.stringify(body));
  });
  const es = { '@type': 'ElasticSearchView', resourceTypes: [`${EX}Cell`] };
  const sparqlView = { '@type': 'SparqlView', resourceTypes: [`${EX}Cell`] };
  const query = JSON.stringify({ query: { bool: { must: [{ match: { name: 'resource' } }], filter: [{ range: { n: { gte: 100 } } }] } }, size: 10 });
  const sparql = `SELECT ?s ?name WHERE { ?s <${EX}region> "region 7" ; <${EX}name> ?name } LIMIT 100`;
  let started = performance.now();
  await call('PUT', '/v1/views/bench/views/nxv:cells', JSON.stringify(es));
  const first = (await call('POST', '/v1/views/bench/views/nxv:cells/_search', query)) as { hits: { total: { value: number } } };
  console.log(
    `Elasticsearch view: ${Math.ceil(count / 3)} of ${count} resources indexed in ${((performance.now() - started) / 1000).toFixed(2)} s (${first.hits.total.value} hits)`,
  );
  started = performance.now();
  await call('PUT', '/v1/views/bench/views/nxv:cellgraph', JSON.stringify(sparqlView));
  await call('POST', '/v1/views/bench/views/nxv:cellgraph/sparql', sparql, 'text/plain');
  console.log(`SPARQL view: indexed in ${((performance.now() - started) / 1000).toFixed(2)} s`);
  const runs = Number(process.argv[3] ?? 100);
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
}
