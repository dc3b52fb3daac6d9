import { expect } from 'chai';
import { startServer } from '../support/server.js';
import type { TestServer } from '../support/server.js';
import { client, enc } from '../support/client.js';
import type { Config } from '../../src/config/Config.js';
import { request } from 'node:http';

/** A GET from another loopback address: another anonymous caller, counted apart (`callerKey`). */
const getFrom = (localAddress: string, url: string): Promise<{ status: number; body: string }> =>
  new Promise((resolve, reject) => {
    const req = request(url, { localAddress, headers: { accept: 'application/sparql-results+json' } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });

const ctx = { '@vocab': 'http://schema.org/' };
const endpoint = '/v1/views/sw/p/graph/sparql';

/** A project of `items` resources of `values` triples each. */
const seeded = async (items: number, values: number, config: Partial<Config>): Promise<{ server: TestServer; api: ReturnType<typeof client> }> => {
  const server = await startServer(config);
  const api = client(server.url);
  expect((await api.put('/v1/orgs/sw', {})).status).to.equal(201);
  expect((await api.put('/v1/projects/sw/p', {})).status).to.equal(201);
  for (let i = 0; i < items; i++) {
    const payload = { '@context': ctx, ...Object.fromEntries(Array.from({ length: values }, (_, k) => [`p${k}`, `${i}-${k}`])) };
    expect((await api.put(`/v1/resources/sw/p/_/${enc(`http://ex.org/r${i}`)}`, payload)).status).to.equal(201);
  }
  return { server, api };
};

describe('SPARQL queries cannot starve each other or exhaust memory', function () {
  this.timeout(120_000);

  describe('a cartesian product over a few thousand triples', () => {
    let server: TestServer;
    let api: ReturnType<typeof client>;
    before(async () => ({ server, api } = await seeded(10, 300, { sparqlTimeoutMillis: 20_000 })));
    after(() => server?.stop(true));

    it('is stopped by the result cap as soon as it passes it (400 QueryResultTooLarge), not after producing every row', async () => {
      const res = await api.get(`${endpoint}?query=${enc('SELECT * WHERE { ?a ?b ?c1 . ?d ?e ?f }')}`);
      expect([res.status, res.body['@type']], res.text).to.deep.equal([400, 'QueryResultTooLarge']);
      expect(res.body.reason).to.include('100000');
      // A limit of the query's own below the cap is kept.
      const page = await api.get(`${endpoint}?query=${enc('SELECT * WHERE { ?a ?b ?c1 . ?d ?e ?f } LIMIT 7')}`);
      expect(page.status, page.text).to.equal(200);
      expect(page.body.results.bindings).to.have.length(7);
    });
  });

  describe('a trivial query while a costly one runs', () => {
    let server: TestServer;
    let api: ReturnType<typeof client>;
    before(async () => ({ server, api } = await seeded(1, 40, { sparqlTimeoutMillis: 3_000 })));
    after(() => server?.stop(true));

    it('answers the trivial one first: the costly one holds one query worker, not all', async () => {
      const heavy = 'SELECT (COUNT(*) AS ?c) WHERE { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i . ?j ?k ?l . ?m ?n ?o . ?q ?r ?t }';
      let heavyAnswered = false;
      const running = api.get(`${endpoint}?query=${enc(heavy)}`).then((res) => ((heavyAnswered = true), res));
      await new Promise((r) => setTimeout(r, 200));
      // Another caller: one caller holds at most every worker but one (with two, one), so its own next query waits.
      const trivial = await getFrom('127.0.0.2', `${server.url}${endpoint}?query=${enc('SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }')}`);
      expect(trivial.status, trivial.body).to.equal(200);
      expect(heavyAnswered, 'the trivial query waited for the costly one').to.equal(false);
      const stopped = await running;
      expect([stopped.status, stopped.body['@type']]).to.deep.equal([400, 'QueryTimeout']);
    });
  });

  describe('a sorted cartesian product, which no row cap stops', () => {
    let server: TestServer;
    let api: ReturnType<typeof client>;
    before(async () => ({ server, api } = await seeded(10, 300, { sparqlTimeoutMillis: 60_000, sparqlQueryMemoryMb: 48, sparqlWorkers: 1 })));
    after(() => server?.stop(true));

    it('is stopped past the memory cap and answered as a crash of its worker (503 QueryWorkerCrashed, never MalformedQuery); the next query is answered', async () => {
      const sorted = await api.get(`${endpoint}?query=${enc('SELECT * WHERE { ?a ?b ?c . ?d ?e ?f } ORDER BY ?c ?f')}`);
      expect([sorted.status, sorted.body['@type']], sorted.text).to.deep.equal([503, 'QueryWorkerCrashed']);
      const trivial = await api.get(`${endpoint}?query=${enc('SELECT (COUNT(*) AS ?n) WHERE { ?s <http://schema.org/p0> ?o }')}`);
      expect(trivial.status, trivial.text).to.equal(200);
      expect(trivial.body.results.bindings[0].n.value).to.equal('10');
    });
  });

  describe('one caller’s costly queries against SPARQL_WORKERS 2 (issue 32, finding 6)', () => {
    let server: TestServer;
    before(async () => ({ server } = await seeded(1, 40, { sparqlTimeoutMillis: 4_000, sparqlWorkers: 2, costlyPerCaller: 4 })));
    after(() => server?.stop(true));

    it('hold at most every worker but one: another caller’s ASK {} is answered while they run', async () => {
      const heavy = `${server.url}${endpoint}?query=${enc('SELECT (COUNT(*) AS ?c) WHERE { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i . ?j ?k ?l . ?m ?n ?o . ?q ?r ?t }')}`;
      const order: string[] = [];
      const costly = [1, 2, 3].map((i) => getFrom('127.0.0.1', heavy).then((res) => (order.push(`heavy ${i}`), res)));
      await new Promise((r) => setTimeout(r, 300));
      const ask = await getFrom('127.0.0.2', `${server.url}${endpoint}?query=${enc('ASK {}')}`);
      order.push('ask');
      expect(ask.status, ask.body).to.equal(200);
      expect(order, 'the other caller waited for the costly queries').to.deep.equal(['ask']);
      for (const res of await Promise.all(costly)) expect([400, 503], res.body).to.include(res.status);
    });
  });
});
