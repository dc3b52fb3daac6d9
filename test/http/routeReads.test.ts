import { expect } from 'chai';
import express from 'express';
import type { Request } from 'express';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AclCheck } from '../../src/kernel/AclCheck.js';
import { bodyReaders } from '../../src/http/bodyReader.js';
import { consistentReads } from '../../src/http/consistentReads.js';
import { readsOf, LISTING, NOTHING, STATES } from '../../src/http/reads.js';
import { ReadBarrier } from '../../src/projection/ReadBarrier.js';
import type { Follower } from '../../src/projection/ReadBarrier.js';
import type { ReadModel } from '../../src/http/reads.js';
import { Routes } from '../../src/http/route.js';
import type { DeclaredRoute } from '../../src/http/route.js';
import { enc } from '../support/client.js';
import type { client } from '../support/client.js';
import type { TestServer } from '../support/server.js';
import { serve } from '../support/server.js';

/**
 * The rule the barrier followed before routes declared their reads, by URL pattern: kept here as
 * the reference every route's declaration is checked against, so that no route waits for less
 * (or more) than it did.
 */
const formerRule = (method: string, path: string, query: Record<string, string>, listing = false): ReadModel[] => {
  if (!path.startsWith('/v1/') || (method === 'GET' && path.endsWith('/events'))) return [];
  // Graph analytics are SPARQL aggregations over the project's dataset, read as the endpoint reads it.
  const sparql = path.endsWith('/sparql') || path.startsWith('/v1/graph-analytics/');
  const search = path.startsWith('/v1/search') || path.includes('/_search') || path.includes('/search/') || query['q'] !== undefined;
  const read = method === 'GET' || method === 'HEAD' || sparql || search || path.startsWith('/v1/multi-fetch');
  if (!read) return ['states'];
  // Since replicas keep no catalogue index on the external store, every listing reads its catalogue graph.
  const catalogueGraph = listing || query['sort'] !== undefined || query['aggregations'] !== undefined || /\/(incoming|outgoing)$/.test(path);
  return [
    'states',
    'catalogue',
    ...(search ? (['text'] as const) : []),
    ...(sparql ? (['sparql'] as const) : []),
    ...(sparql || search || catalogueGraph ? (['store'] as const) : []),
  ];
};

/** A path of the route with its parameters filled in. */
const sample = (path: string) =>
  path
    .replace('{*path}', 'a/b')
    .replace(':schema', '_')
    .replace(/:([A-Za-z]+)/g, (_m, name: string) => (name === 'id' ? 'x' : name.slice(0, 1)));
const resolved = (route: DeclaredRoute, query: Record<string, string>) => [...new Set(readsOf(route.reads, { query } as unknown as Request))].sort();

const QUERIES: Record<string, string>[] = [{}, { q: 'w' }, { sort: 's' }, { aggregations: 'true' }, { q: 'w', sort: 's' }];

/** The listings (they read `q`, `sort`, `aggregations`); every other route reads the same whatever its query. */
const LISTINGS = [
  '/v1/resources',
  '/v1/resources/:org',
  '/v1/resources/:org/:project',
  '/v1/resources/:org/:project/:schema',
  '/v1/schemas',
  '/v1/schemas/:org',
  '/v1/schemas/:org/:project',
  '/v1/files',
  '/v1/files/:org',
  '/v1/files/:org/:project',
  '/v1/storages',
  '/v1/storages/:org',
  '/v1/storages/:org/:project',
  '/v1/views/:org/:project',
  '/v1/resolvers/:org/:project',
];

describe('what each route reads before it is served', () => {
  let server: TestServer;
  let api: ReturnType<typeof client>;
  serve((s, a) => ((server = s), (api = a)));

  it('is declared by every route, and is what the former URL rule waited for (listings with and without q, sort, aggregations)', () => {
    const routes = server.registry.routes;
    expect(routes.length).to.be.greaterThan(40);
    for (const route of routes) {
      const name = `${route.method.toUpperCase()} ${route.path}`;
      expect(route.reads, name).to.not.equal(undefined);
      const listing = typeof route.reads === 'function';
      expect(listing, `${name} reads as a listing`).to.equal(route.method === 'get' && LISTINGS.includes(route.path));
      for (const query of listing ? QUERIES : [{}])
        expect(resolved(route, query), `${name} ${JSON.stringify(query)}`).to.deep.equal(
          [...new Set(formerRule(route.method.toUpperCase(), sample(route.path), query, listing))].sort(),
        );
    }
  });

  // `indexing=async`: the write is acknowledged before the projections apply it; only the barrier makes the reads see it.
  it('sees a write in the reads that follow it at once: fetch, q and sorted listings, links, search, SPARQL, multi-fetch', async () => {
    const ctx = { '@vocab': 'http://schema.org/' };
    expect((await api.put('/v1/orgs/rw', {})).status).to.equal(201);
    expect((await api.put('/v1/projects/rw/p', {})).status).to.equal(201);
    let previous: string | undefined;
    for (let round = 0; round < 4; round++) {
      const id = `http://ex.org/rw-${round}`;
      const word = `wordof${round}round`;
      const created = await api.put(`/v1/resources/rw/p/_/${enc(id)}?indexing=async`, {
        '@context': ctx,
        name: word,
        ...(previous ? { knows: { '@id': previous } } : {}),
      });
      expect(created.status, created.text).to.equal(201);
      expect((await api.get(`/v1/resources/rw/p/_/${enc(id)}`)).body['_rev']).to.equal(1);
      const byWord = await api.get(`/v1/resources/rw/p?q=${word}`);
      expect(
        byWord.body['_results'].map((r: { '@id': string }) => r['@id']),
        byWord.text,
      ).to.deep.equal([id]);
      const newest = await api.get('/v1/resources/rw/p?sort=-_createdAt&size=1');
      expect(newest.body['_results'][0]['@id'], newest.text).to.equal(id);
      if (previous) {
        const incoming = await api.get(`/v1/resources/rw/p/_/${enc(previous)}/incoming`);
        expect(
          incoming.body['_results'].map((r: { '@id': string }) => r['@id']),
          incoming.text,
        ).to.include(id);
      }
      const searched = await api.post('/v1/search/query', { query: { match_all: {} }, size: 1000 });
      expect(
        searched.body.hits.hits.map((h: { _id: string }) => h._id),
        searched.text,
      ).to.include(id);
      const query = `SELECT ?s WHERE { ?s <http://schema.org/name> "${word}" }`;
      const selected = await api.get(`/v1/views/rw/p/graph/sparql?query=${enc(query)}`, { accept: 'application/sparql-results+json' });
      expect(
        selected.body.results.bindings.map((b: { s: { value: string } }) => b.s.value),
        selected.text,
      ).to.deep.equal([id]);
      const updated = await api.put(`/v1/resources/rw/p/_/${enc(id)}?rev=1&indexing=async`, { '@context': ctx, name: `${word}again` });
      expect(updated.status, updated.text).to.equal(200);
      const multi = await api.post('/v1/multi-fetch/resources', { format: 'source', resources: [{ id, project: 'rw/p' }] });
      expect(multi.body.resources[0].value, multi.text).to.deep.equal({ '@context': ctx, name: `${word}again` });
      previous = id;
    }
  });
});

describe("the read barrier's lookup: the route a request takes, by Express' own matching", () => {
  let server: Server;
  let base: string;
  let catchUp: (() => void) | undefined;

  before(async () => {
    const routes = new Routes({} as AclCheck, bodyReaders({ json: 1024 }));
    const app = express();
    const router = express.Router();
    const ok = { guard: { public: true as const }, body: 'none' as const, handle: () => undefined };
    // As the event streams and the items they share paths with: GET only, other methods fall through.
    routes.only(router, 'get', '/x/:a/events', { ...ok, reads: NOTHING });
    routes.add(router, '/x/:a/:b', { get: { ...ok, reads: LISTING }, post: { ...ok, reads: STATES } });
    // The log is at 1; the text index lags at 0 until the test lets it catch up.
    const at = (name: string, position: number): Follower => ({ name, position, reach: () => Promise.resolve() });
    const text = { name: 'text', position: 0, reach: () => new Promise<void>((caught) => (catchUp = () => ((text.position = 1), caught()))) };
    const barrier = new ReadBarrier(() => Promise.resolve(1), { waitMillis: 120_000 });
    const models = { states: at('states', 1), catalogue: at('catalogue', 1), text: [text], sparql: at('sparql', 1) };
    app.use(routes.readsLookup(), consistentReads(barrier, models), (_req, res) => void res.json({ reads: res.locals['reads'] ?? null }));
    server = await new Promise((resolve) => {
      const s = app.listen(0, '127.0.0.1', () => resolve(s));
    });
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => new Promise((r) => (server.closeAllConnections(), server.close(r))));

  const noted = async (method: string, path: string) => ((await (await fetch(`${base}${path}`, { method })).json()) as { reads: unknown }).reads;

  it('notes the first matching route only, HEAD as its GET, and nothing for a 405 or a path no route serves', async () => {
    expect(await noted('GET', '/x/o/events')).to.deep.equal([]);
    expect(await noted('POST', '/x/o/events')).to.deep.equal(['states']);
    expect(await noted('GET', '/x/o/item')).to.deep.equal(['states', 'catalogue', 'store']);
    expect(await noted('GET', '/x/o/item?sort=s')).to.deep.equal(['states', 'catalogue', 'store']);
    expect((await fetch(`${base}/x/o/item`, { method: 'HEAD' })).status).to.equal(200);
    expect(await noted('DELETE', '/x/o/item')).to.equal(null);
    expect(await noted('GET', '/nowhere')).to.equal(null);
  });

  it('holds a request whose route reads a projection behind the log until it catches up, and only that one', async () => {
    let answered = false;
    const searching = noted('GET', '/x/o/item?q=w').then((reads) => ((answered = true), reads));
    // Neither a listing without q nor a write reads the text index: they pass while it lags.
    expect(await noted('GET', '/x/o/item')).to.deep.equal(['states', 'catalogue', 'store']);
    expect(await noted('POST', '/x/o/item')).to.deep.equal(['states']);
    // Held at the text index (whose wait the request has reached once `catchUp` is set), not answered.
    for (let i = 0; i < 1_000 && !catchUp && !answered; i++) await new Promise((next) => setTimeout(next, 10));
    expect(answered, 'answered before the text index caught up').to.equal(false);
    catchUp!();
    expect(await searching).to.deep.equal(['states', 'catalogue', 'text', 'store']);
  });
});
