import { expect } from 'chai';
import { startServer } from '../support/server.js';
import type { TestServer } from '../support/server.js';
import { client, enc } from '../support/client.js';
import type { Reply } from '../support/client.js';
import type { Config } from '../../src/config/Config.js';

const ctx = { '@vocab': 'http://schema.org/' };
const ASK = enc('ASK {}');

const expectType = (r: Reply, status: number, type: string) => expect([r.status, r.body?.['@type']], r.text).to.deep.equal([status, type]);

/** Two projects, `sv/big` of `items` resources of `values` triples each, and an empty `sv/other`. */
const seeded = async (items: number, values: number, config: Partial<Config>): Promise<{ server: TestServer; api: ReturnType<typeof client> }> => {
  const server = await startServer(config);
  const api = client(server.url);
  expect((await api.put('/v1/orgs/sv', {})).status).to.equal(201);
  expect((await api.put('/v1/projects/sv/big', {})).status).to.equal(201);
  expect((await api.put('/v1/projects/sv/other', {})).status).to.equal(201);
  const batch = 16;
  for (let i = 0; i < items; i += batch)
    await Promise.all(
      Array.from({ length: Math.min(batch, items - i) }, async (_, k) => {
        const n = i + k;
        const payload = { '@context': ctx, '@type': 'Thing', ...Object.fromEntries(Array.from({ length: values }, (_, v) => [`p${v}`, `${n}-${v}`])) };
        const r = await api.put(`/v1/resources/sv/big/_/${enc(`http://ex.org/r${n}`)}`, payload);
        expect(r.status, r.text).to.equal(201);
      }),
    );
  return { server, api };
};

/**
 * Issue 32, finding 5: every query worker holds a copy of each SparqlView; copies were built at once
 * inside the workers, so a query behind them timed out, its worker was replaced, and the new worker
 * copied every view again.
 */
describe('SPARQL views’ copies cannot stop SPARQL for other projects', function () {
  this.timeout(120_000);

  describe('a project’s SparqlViews are capped (SPARQL_VIEWS_PER_PROJECT)', () => {
    let server: TestServer;
    let api: ReturnType<typeof client>;
    before(async () => ({ server, api } = await seeded(1, 1, { sparqlViewsPerProject: 2 })));
    after(() => server?.stop(true));

    it('refuses one more with 400 TooManySparqlViews, on create and undeprecate; deprecated, default and Elasticsearch views are not counted', async () => {
      for (const id of ['v1', 'v2']) expect((await api.put(`/v1/views/sv/big/${id}`, { '@type': 'SparqlView' })).status).to.equal(201);
      const refused = await api.put('/v1/views/sv/big/v3', { '@type': 'SparqlView' });
      expectType(refused, 400, 'TooManySparqlViews');
      expect(refused.body.limit).to.equal(2);
      expect((await api.get('/v1/views/sv/big/v3')).status, 'nothing was created').to.equal(404);
      expect((await api.put('/v1/views/sv/big/es', { '@type': 'ElasticSearchView', mapping: {} })).status).to.equal(201);
      // Another project has its own share.
      expect((await api.put('/v1/views/sv/other/v1', { '@type': 'SparqlView' })).status).to.equal(201);
      expect((await api.delete('/v1/views/sv/big/v1?rev=1')).status).to.equal(200);
      expect((await api.put('/v1/views/sv/big/v3', { '@type': 'SparqlView' })).status).to.equal(201);
      expectType(await api.put('/v1/views/sv/big/v1/undeprecate?rev=2', {}), 400, 'TooManySparqlViews');
    });
  });

  describe('what a view’s copy holds is capped (SPARQL_VIEW_MAX_QUADS)', () => {
    let server: TestServer;
    let api: ReturnType<typeof client>;
    before(async () => ({ server, api } = await seeded(20, 10, { sparqlViewMaxQuads: 200 })));
    after(() => server?.stop(true));

    it('answers a query over a view selecting more with 400 SparqlViewTooLarge; a narrower view and the project are answered', async () => {
      expect((await api.put('/v1/views/sv/big/all', { '@type': 'SparqlView' })).status).to.equal(201);
      const refused = await api.get(`/v1/views/sv/big/all/sparql?query=${ASK}`);
      expectType(refused, 400, 'SparqlViewTooLarge');
      expect(refused.body.limit).to.equal(200);
      expect((await api.put('/v1/views/sv/big/none', { '@type': 'SparqlView', resourceTypes: ['http://schema.org/Nothing'] })).status).to.equal(201);
      expect((await api.get(`/v1/views/sv/big/none/sparql?query=${ASK}`)).status).to.equal(200);
      const count = await api.get(`/v1/views/sv/big/graph/sparql?query=${enc('SELECT (COUNT(*) AS ?n) WHERE { ?s <http://schema.org/p0> ?o }')}`);
      expect(count.body.results.bindings[0].n.value).to.equal('20');
    });
  });

  describe('views whose copies take longer than a query’s budget', () => {
    let server: TestServer;
    let api: ReturnType<typeof client>;
    const lines: string[] = [];
    before(async () => {
      ({ server, api } = await seeded(400, 25, {
        sparqlTimeoutMillis: 1_000,
        sparqlViewsPerProject: 50,
      }));
    });
    after(() => server?.stop(true));

    it('lets other projects’ queries through while they are built, answers a query that waited for its view’s copy 503 QueryServiceBusy, then the view', async () => {
      const views = Array.from({ length: 12 }, (_, i) => `c${i}`);
      for (const id of views) expect((await api.put(`/v1/views/sv/big/${id}`, { '@type': 'SparqlView', includeMetadata: true })).status).to.equal(201);
      // The copies are being built in every worker: another project's trivial query is answered all the same.
      const ask = await api.get(`/v1/views/sv/other/graph/sparql?query=${ASK}`);
      expect(ask.status, ask.text).to.equal(200);
      const last = views[views.length - 1]!;
      const count = enc('SELECT (COUNT(DISTINCT ?s) AS ?n) WHERE { ?s <http://schema.org/p0> ?o }');
      const seen = new Set<string>();
      for (let tries = 0; tries < 200; tries++) {
        const r = await api.get(`/v1/views/sv/big/${last}/sparql?query=${count}`);
        // Never QueryTimeout: a query that waited behind a copy did not run.
        seen.add(`${r.status} ${r.body?.['@type'] ?? ''}`);
        if (r.status === 200) {
          expect(r.body.results.bindings[0].n.value).to.equal('400');
          break;
        }
        expectType(r, 503, 'QueryServiceBusy');
        const other = await api.get(`/v1/views/sv/other/graph/sparql?query=${ASK}`);
        expect(other.status, other.text).to.equal(200);
      }
      expect([...seen]).to.include('200 ');
      lines.push(...seen);
    });
  });
});
