import { expect } from 'chai';
import { client, enc } from '../support/client.js';
import type { Reply } from '../support/client.js';
import { startServer } from '../support/server.js';
import type { TestServer } from '../support/server.js';
import { EX, freshProject } from '../support/schemas.js';
import type { Virtuoso } from '../support/virtuoso.js';
import { clearVirtuoso, releaseVirtuoso, useVirtuoso } from '../support/virtuoso.js';

const NXV = 'https://bluebrain.github.io/nexus/vocabulary/';

type Api = ReturnType<typeof client>;

const thing = (id: string, type: string, fields: Record<string, unknown> = {}) => ({
  '@context': { '@vocab': EX },
  '@id': `${EX}${id}`,
  '@type': type,
  ...fields,
});
const sparql = (api: Api, p: string, view: string, query: string) => api.post(`/v1/views/${p}/${view}/sparql`, query, { 'content-type': 'text/plain' });
const values = (r: Reply, name: string): string[] => {
  expect(r.status, r.text).to.equal(200);
  return r.body.results.bindings.map((b: Record<string, { value: string }>) => b[name]!.value).sort();
};
const put = async (api: Api, path: string, body: unknown, status: number) => {
  const r = await api.put(path, body);
  expect(r.status, r.text).to.equal(status);
  return r;
};

/**
 * A user-defined SPARQL view queried over its own graph, on either store: what its filters select,
 * kept as resources change, and nothing else.
 */
const scenario = async (api: Api) => {
  const p = await freshProject(api);
  const res = (id: string) => `/v1/resources/${p}/_/${enc(`${EX}${id}`)}`;
  // c1 and c2 share a triple about another node; o1 is not selected.
  await put(api, res('c1'), thing('c1', 'Cell', { name: 'one', about: { '@id': `${EX}shared`, label: 'shared' } }), 201);
  await put(api, res('c2'), thing('c2', 'Cell', { name: 'two', about: { '@id': `${EX}shared`, label: 'shared' } }), 201);
  await put(api, res('o1'), thing('o1', 'Other', { name: 'other' }), 201);
  await put(api, res('d1'), thing('d1', 'Cell', { name: 'gone' }), 201);
  expect((await api.delete(`${res('d1')}?rev=1`)).status).to.equal(200);
  await put(api, `/v1/views/${p}/nxv:cells`, { '@type': 'SparqlView', resourceTypes: [`${EX}Cell`], includeMetadata: true }, 201);
  await put(api, `/v1/views/${p}/nxv:all`, { '@type': 'SparqlView', resourceTypes: [`${EX}Cell`], includeDeprecated: true }, 201);
  const names = `SELECT ?n WHERE { ?s <${EX}name> ?n }`;
  expect(values(await sparql(api, p, 'nxv:cells', names), 'n')).to.deep.equal(['one', 'two']);
  expect(values(await sparql(api, p, 'nxv:all', names), 'n')).to.deep.equal(['gone', 'one', 'two']);
  // includeMetadata: Delta's metadata triples, in that view only.
  const revs = `SELECT ?s ?rev WHERE { ?s <${NXV}rev> ?rev }`;
  expect(values(await sparql(api, p, 'nxv:cells', revs), 'rev')).to.deep.equal(['1', '1']);
  expect(values(await sparql(api, p, 'nxv:all', revs), 'rev')).to.deep.equal([]);
  // Named graphs: the members' revision graphs, nothing else of the store.
  const graphs = await sparql(api, p, 'nxv:cells', 'SELECT DISTINCT ?g WHERE { GRAPH ?g { ?s ?p ?o } }');
  expect(values(graphs, 'g')).to.have.length(2);
  expect(values(graphs, 'g').every((g) => g.endsWith('/rev/1') && (g.includes('c1') || g.includes('c2')))).to.equal(true);
  // A graph outside the view, named in the query, is out of reach.
  // (By the item's own segment: the project's generated name may hold "o1" too.)
  const outside = await sparql(api, p, 'nxv:cells', `SELECT ?n WHERE { GRAPH ?g { ?s <${EX}name> ?n } FILTER(CONTAINS(STR(?g), "/${enc(`${EX}o1`)}/")) }`);
  expect(values(outside, 'n')).to.deep.equal([]);
  const o1 = `urn:registry:resources/${p}/${enc(`${EX}o1`)}/rev/1`;
  expect(values(await sparql(api, p, 'nxv:cells', `SELECT ?n WHERE { GRAPH <${o1}> { ?s <${EX}name> ?n } }`), 'n')).to.deep.equal([]);
  // The view's dataset is fixed: FROM is not followed.
  expect(values(await sparql(api, p, 'nxv:cells', `SELECT ?n FROM <${o1}> WHERE { ?s <${EX}name> ?n }`), 'n')).to.deep.equal(['one', 'two']);

  // An update replaces the item's triples; a shared triple stays while a member holds it.
  await put(api, `${res('c1')}?rev=1`, thing('c1', 'Cell', { name: 'uno' }), 200);
  expect(values(await sparql(api, p, 'nxv:cells', names), 'n')).to.deep.equal(['two', 'uno']);
  expect(values(await sparql(api, p, 'nxv:cells', revs), 'rev')).to.deep.equal(['1', '2']);
  const shared = `SELECT ?l WHERE { <${EX}shared> <${EX}label> ?l }`;
  expect(values(await sparql(api, p, 'nxv:cells', shared), 'l')).to.deep.equal(['shared']);
  // No longer selected (its type changed): its triples leave, the shared one with its last holder.
  await put(api, `${res('c2')}?rev=1`, thing('c2', 'Other', { name: 'two', about: { '@id': `${EX}shared`, label: 'shared' } }), 200);
  expect(values(await sparql(api, p, 'nxv:cells', names), 'n')).to.deep.equal(['uno']);
  expect(values(await sparql(api, p, 'nxv:cells', shared), 'l')).to.deep.equal([]);
  // Deprecated: out of a view without includeDeprecated, kept in the other.
  expect((await api.delete(`${res('c1')}?rev=2`)).status).to.equal(200);
  expect(values(await sparql(api, p, 'nxv:cells', names), 'n')).to.deep.equal([]);
  expect(values(await sparql(api, p, 'nxv:all', names), 'n')).to.deep.equal(['gone', 'uno']);
  // Restarted: rebuilt from the states into a graph of its own, the same content.
  expect((await api.delete(`/v1/views/${p}/nxv:all/offset`)).status).to.equal(200);
  expect(values(await sparql(api, p, 'nxv:all', names), 'n')).to.deep.equal(['gone', 'uno']);
  // The view updated: a new selection.
  await put(api, `/v1/views/${p}/nxv:all?rev=1`, { '@type': 'SparqlView', resourceTypes: [`${EX}Other`] }, 200);
  expect(values(await sparql(api, p, 'nxv:all', names), 'n')).to.deep.equal(['other', 'two']);
  // The default view still sees the whole project, and no view's graph among its named graphs.
  expect(values(await sparql(api, p, 'graph', names), 'n')).to.deep.equal(['other', 'two']);
  const defaultGraphs = values(await sparql(api, p, 'graph', 'SELECT DISTINCT ?g WHERE { GRAPH ?g { ?s ?p ?o } }'), 'g');
  expect(defaultGraphs.filter((g) => g.includes(':view/'))).to.deep.equal([]);
  // An aggregate of the two views: each member's own graph.
  await put(
    api,
    `/v1/views/${p}/nxv:agg`,
    {
      '@type': 'AggregateSparqlView',
      views: [
        { project: p, viewId: `${NXV}all` },
        { project: p, viewId: `${NXV}cells` },
      ],
    },
    201,
  );
  expect(values(await sparql(api, p, 'nxv:agg', names), 'n')).to.deep.equal(['other', 'two']);
  await put(api, res('c3'), thing('c3', 'Cell', { name: 'three' }), 201);
  expect(values(await sparql(api, p, 'nxv:agg', names), 'n')).to.deep.equal(['other', 'three', 'two']);
  return p;
};

/** Issue 24: several graphs as the default graph (`default-graph-uri` twice), their RDF merge, on either store. */
const severalDefaultGraphs = async (api: Api) => {
  const p = await freshProject(api);
  const a = await put(api, `/v1/resources/${p}/_/${enc(`${EX}a`)}`, thing('a', 'Cell', { name: 'a', knows: { '@id': `${EX}b` } }), 201);
  const b = await put(api, `/v1/resources/${p}/_/${enc(`${EX}b`)}`, thing('b', 'Cell', { name: 'b' }), 201);
  const c = await put(api, `/v1/resources/${p}/_/${enc(`${EX}c`)}`, thing('c', 'Cell', { name: 'c' }), 201);
  expect([a.status, b.status, c.status]).to.deep.equal([201, 201, 201]);
  const g = (id: string) => `urn:registry:resources/${p}/${enc(`${EX}${id}`)}/rev/1`;
  // A join across the two graphs: a's link, b's name.
  const q = `SELECT ?n WHERE { ?s <${EX}knows> ?o . ?o <${EX}name> ?n }`;
  const joined = await api.get(`/v1/views/${p}/graph/sparql?query=${enc(q)}&default-graph-uri=${enc(g('a'))}&default-graph-uri=${enc(g('b'))}`);
  expect(values(joined, 'n')).to.deep.equal(['b']);
  const names = `SELECT ?n WHERE { ?s <${EX}name> ?n }`;
  const two = await api.get(`/v1/views/${p}/graph/sparql?query=${enc(names)}&default-graph-uri=${enc(g('a'))}&default-graph-uri=${enc(g('c'))}`);
  expect(values(two, 'n')).to.deep.equal(['a', 'c']);
  // In the query too (FROM twice).
  const from = await sparql(api, p, 'graph', `SELECT ?n FROM <${g('b')}> FROM <${g('c')}> WHERE { ?s <${EX}name> ?n }`);
  expect(values(from, 'n')).to.deep.equal(['b', 'c']);
};

describe('SPARQL views over graphs of their own: embedded store', function () {
  this.timeout(60_000);
  let server: TestServer;
  before(async () => (server = await startServer({})));
  after(async () => server.stop(true));

  it('queries a view over its own graph, kept as resources change (filters, metadata, deprecation, restart, update, aggregate)', async () => {
    await scenario(client(server.url));
  });

  it('answers several default graphs as their merge', async () => {
    await severalDefaultGraphs(client(server.url));
  });
});

describe('SPARQL views over graphs of their own: external store (Virtuoso)', function () {
  this.timeout(120_000);
  let virtuoso: Virtuoso;
  let server: TestServer;
  before(async () => {
    virtuoso = await useVirtuoso();
    await clearVirtuoso(virtuoso.server);
    server = await startServer({ sparqlStore: virtuoso.server });
  });
  after(async () => {
    await server?.stop(true);
    await releaseVirtuoso();
  });

  it('queries a view over its own graph, kept as resources change (filters, metadata, deprecation, restart, update, aggregate)', async () => {
    await scenario(client(server.url));
  });

  it('answers several default graphs as their merge', async () => {
    await severalDefaultGraphs(client(server.url));
  });

  it('drops a view’s graphs when the view is deprecated', async () => {
    const api = client(server.url);
    const p = await freshProject(api);
    await put(api, `/v1/resources/${p}/_/${enc(`${EX}x`)}`, thing('x', 'Cell', { name: 'x' }), 201);
    await put(api, `/v1/views/${p}/nxv:v`, { '@type': 'SparqlView' }, 201);
    expect(values(await sparql(api, p, 'nxv:v', `SELECT ?n WHERE { ?s <${EX}name> ?n }`), 'n')).to.deep.equal(['x']);
    const viewGraphs = async () => {
      const res = await fetch(
        `${virtuoso.server.query}?query=${enc(`SELECT DISTINCT ?g WHERE { GRAPH ?g { ?s ?p ?o } FILTER(STRSTARTS(STR(?g), "urn:registry:view/${p}/")) }`)}`,
        {
          headers: { accept: 'application/sparql-results+json' },
        },
      );
      return ((await res.json()) as { results: { bindings: unknown[] } }).results.bindings.length;
    };
    expect(await viewGraphs()).to.be.greaterThan(0);
    expect((await api.delete(`/v1/views/${p}/nxv:v?rev=1`)).status).to.equal(200);
    // Dropped by the views' runner after the deprecation: read once the view is gone from the queries.
    for (let i = 0; i < 100 && (await viewGraphs()) > 0; i++) await new Promise((r) => setTimeout(r, 50));
    expect(await viewGraphs()).to.equal(0);
  });
});
