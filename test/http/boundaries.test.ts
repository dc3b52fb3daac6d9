import { expect } from 'chai';
import { maxHeaderSize, request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import type { Socket } from 'node:net';
import { serve, startServer } from '../support/server.js';
import type { TestServer } from '../support/server.js';
import { client } from '../support/client.js';
import type { Reply } from '../support/client.js';
import type { Config } from '../../src/config/Config.js';
import { MAX_NESTING } from '../../src/http/bodyReader.js';
import { MAX_TAG_LENGTH } from '../../src/http/params.js';
import { MAX_CLAUSES } from '../../src/search/dsl/queries.js';
import { MAX_QS_NESTING } from '../../src/search/dsl/queryString.js';
import { MAX_BODY_DEPTH, MAX_WINDOW } from '../../src/search/dsl/executeSearch.js';
import { MAX_QUERY_NESTING } from '../../src/sparqlEndpoint/userQuery.js';
import { MAX_VIEW_REFS } from '../../src/modules/views/viewPayload.js';
import { multipart } from '../support/files.js';
import { clearVirtuoso, releaseVirtuoso, useVirtuoso } from '../support/virtuoso.js';

/**
 * Every limit at the limit, one under and one over: the limit itself is admitted, one past it is
 * refused with its typed error and changes nothing.
 */
const PAYLOAD = 2_048;
const MULTI_FETCH = 3;
const SPARQL_ROWS = 50;
const ctx = { '@vocab': 'http://x/' };

/** A resource payload of exactly `bytes` bytes of JSON. */
const payloadOf = (bytes: number): string => {
  const empty = JSON.stringify({ '@context': ctx, v: '' });
  return JSON.stringify({ '@context': ctx, v: 'x'.repeat(bytes - empty.length) });
};

const expectRefused = (res: Reply, status: number, type: string) => expect([res.status, res.body?.['@type']], res.text).to.deep.equal([status, type]);

/** An org `bd`, a project `bd/p` and three resources `seed0..2` named `seed 0..2`. */
const seeded = (bind: (server: TestServer, api: ReturnType<typeof client>) => void, overrides: Partial<Config>) => {
  let api: ReturnType<typeof client>;
  serve((s, a) => (bind(s, a), (api = a)), overrides);
  before(async () => {
    expect((await api.put('/v1/orgs/bd', {})).status).to.equal(201);
    expect((await api.put('/v1/projects/bd/p', {})).status).to.equal(201);
    for (let i = 0; i < 3; i++) expect((await api.put(`/v1/resources/bd/p/_/seed${i}`, { '@context': ctx, name: `seed ${i}` })).status).to.equal(201);
  });
};

describe('boundaries: request bodies at maxPayloadBytes, one under and one over', () => {
  let server: TestServer;
  let api: ReturnType<typeof client>;
  seeded((s, a) => ((server = s), (api = a)), { maxPayloadBytes: PAYLOAD });

  const total = async () => (await api.get('/v1/resources/bd/p')).body._total as number;
  const put = (id: string, body: string) => api.put(`/v1/resources/bd/p/_/${id}`, body, { 'content-type': 'application/json' });

  describe('JSON body size (maxPayloadBytes)', () => {
    it('creates from bodies of maxPayloadBytes - 1 and maxPayloadBytes bytes; maxPayloadBytes + 1 is 413 PayloadTooLarge and creates nothing', async () => {
      expect(Buffer.byteLength(payloadOf(PAYLOAD))).to.equal(PAYLOAD);
      const under = await put('under', payloadOf(PAYLOAD - 1));
      const at = await put('at', payloadOf(PAYLOAD));
      expect([under.status, at.status], at.text).to.deep.equal([201, 201]);
      const before = await total();
      expectRefused(await put('over', payloadOf(PAYLOAD + 1)), 413, 'PayloadTooLarge');
      expectRefused(await api.put('/v1/resources/bd/p/_/at?rev=1', payloadOf(PAYLOAD + 1), { 'content-type': 'application/json' }), 413, 'PayloadTooLarge');
      expect((await api.get('/v1/resources/bd/p/_/over')).status).to.equal(404);
      expect((await api.get('/v1/resources/bd/p/_/at')).body._rev).to.equal(1);
      expect(await total()).to.equal(before);
    });

    it('counts a chunked body (no Content-Length) the same: maxPayloadBytes is read, one byte more is 413', async () => {
      const chunked = (id: string, text: string) =>
        fetch(`${server.url}/v1/resources/bd/p/_/${id}`, {
          method: 'PUT',
          headers: { 'content-type': 'application/json' },
          body: new Blob([text]).stream(),
          duplex: 'half',
        } as RequestInit);
      const at = await chunked('chunked-at', payloadOf(PAYLOAD));
      expect(at.status, await at.text()).to.equal(201);
      const before = await total();
      const over = await chunked('chunked-over', payloadOf(PAYLOAD + 1));
      expect([over.status, ((await over.json()) as { '@type': string })['@type']]).to.deep.equal([413, 'PayloadTooLarge']);
      expect((await api.get('/v1/resources/bd/p/_/chunked-over')).status).to.equal(404);
      expect(await total()).to.equal(before);
    });

    it('answers Expect: 100-continue with 100 at maxPayloadBytes and with 413 before the body one byte over', async () => {
      const expecting = (id: string, text: string) =>
        new Promise<{ continued: boolean; status: number; body: string }>((resolve, reject) => {
          let continued = false;
          const req = httpRequest(`${server.url}/v1/resources/bd/p/_/${id}`, {
            method: 'PUT',
            headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), expect: '100-continue' },
          });
          req.on('continue', () => ((continued = true), req.end(text)));
          req.on('response', (res) => {
            let body = '';
            res.on('data', (d: Buffer) => (body += d.toString('utf8')));
            res.on('end', () => {
              if (!continued) req.destroy();
              resolve({ continued, status: res.statusCode ?? 0, body });
            });
          });
          req.on('error', (error) => (continued ? reject(error) : undefined));
          req.flushHeaders();
        });
      const at = await expecting('continue-at', payloadOf(PAYLOAD));
      expect([at.continued, at.status], at.body).to.deep.equal([true, 201]);
      const before = await total();
      const over = await expecting('continue-over', payloadOf(PAYLOAD + 1));
      expect([over.continued, over.status, JSON.parse(over.body)['@type']]).to.deep.equal([false, 413, 'PayloadTooLarge']);
      expect(await total()).to.equal(before);
    });

    it('bounds a SPARQL query body by the same limit: maxPayloadBytes is answered, one byte more is 413', async () => {
      const query = (bytes: number) => {
        const q = 'SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }';
        return q + ' '.repeat(bytes - q.length);
      };
      const sparql = (text: string) => api.post('/v1/views/bd/p/graph/sparql', text, { 'content-type': 'application/sparql-query' });
      const under = await sparql(query(PAYLOAD - 1));
      const at = await sparql(query(PAYLOAD));
      expect([under.status, at.status], at.text).to.deep.equal([200, 200]);
      expectRefused(await sparql(query(PAYLOAD + 1)), 413, 'PayloadTooLarge');
    });

    it(`reads JSON nested ${MAX_NESTING} levels deep; ${MAX_NESTING + 1} is 400 MalformedRequestContentRejection and creates nothing`, async () => {
      // The payload object is level 1; each `a` adds one.
      const nested = (levels: number) => `{"@context":{"@vocab":"http://x/"},${'"a":{'.repeat(levels - 1)}"v":1${'}'.repeat(levels - 1)}}`;
      const under = await put('nest-under', nested(MAX_NESTING - 1));
      const at = await put('nest-at', nested(MAX_NESTING));
      expect([under.status, at.status], at.text).to.deep.equal([201, 201]);
      const before = await total();
      const over = await put('nest-over', nested(MAX_NESTING + 1));
      expectRefused(over, 400, 'MalformedRequestContentRejection');
      expect(over.body.reason).to.include(`more than ${MAX_NESTING} levels`);
      expect((await api.get('/v1/resources/bd/p/_/nest-over')).status).to.equal(404);
      expect(await total()).to.equal(before);
    });
  });
});

const searchLimits = (api: () => ReturnType<typeof client>, store: 'embedded' | 'external') =>
  describe(`search API (${store} store)`, () => {
    const search = (body: unknown) => api().post('/v1/search/query', body);

    it(`answers from + size = ${MAX_WINDOW} and ${MAX_WINDOW - 1}; ${MAX_WINDOW + 1} is 400 MalformedSearchQuery`, async () => {
      for (const window of [
        { from: 0, size: MAX_WINDOW },
        { from: MAX_WINDOW - 10, size: 10 },
        { from: MAX_WINDOW - 11, size: 10 },
        { from: MAX_WINDOW, size: 0 },
      ])
        expect((await search({ ...window, query: { match_all: {} } })).status, JSON.stringify(window)).to.equal(200);
      for (const window of [
        { from: 0, size: MAX_WINDOW + 1 },
        { from: MAX_WINDOW - 9, size: 10 },
        { from: MAX_WINDOW + 1, size: 0 },
      ]) {
        const res = await search({ ...window, query: { match_all: {} } });
        expectRefused(res, 400, 'MalformedSearchQuery');
        expect(res.body.reason).to.include('Result window is too large');
      }
    });

    it(`answers a query of ${MAX_CLAUSES} clauses (a bool and ${MAX_CLAUSES - 1} terms); one more is 400 TooManyClauses`, async () => {
      const should = (terms: number) => ({ query: { bool: { should: Array.from({ length: terms }, (_, i) => ({ term: { 'name.keyword': `seed ${i}` } })) } } });
      if (store === 'embedded') {
        const under = await search(should(MAX_CLAUSES - 2));
        const at = await search(should(MAX_CLAUSES - 1));
        expect([under.status, at.status], at.text).to.deep.equal([200, 200]);
        expect(at.body.hits.total.value).to.equal(3);
      } else {
        // Virtuoso may take longer than the search budget over a thousand translated clauses: at
        // the limit the search runs, answered or typed as past its budget (never a 500); the count
        // itself is the translator's, checked before anything runs.
        const few = await search(should(3));
        expect([few.status, few.body.hits?.total?.value], few.text).to.deep.equal([200, 3]);
        const at = await search(should(MAX_CLAUSES - 1));
        expect(at.status === 200 ? at.body.hits.total.value : at.body['@type'], at.text).to.be.oneOf([3, 'SearchTimedOut']);
      }
      const over = await search(should(MAX_CLAUSES));
      expectRefused(over, 400, 'TooManyClauses');
      expect(over.body.limit).to.equal(MAX_CLAUSES);
    });

    // The external store does not translate query_string (400 UnsupportedSearchConstruct, tested apart).
    if (store === 'embedded')
      it(`answers query_string groups nested ${MAX_QS_NESTING} deep; ${MAX_QS_NESTING + 1} is 400 TooDeeplyNested`, async () => {
        const groups = (depth: number) => ({ query: { query_string: { query: `${'('.repeat(depth)}seed${')'.repeat(depth)}` } } });
        const under = await search(groups(MAX_QS_NESTING - 1));
        const at = await search(groups(MAX_QS_NESTING));
        expect([under.status, at.status], at.text).to.deep.equal([200, 200]);
        const over = await search(groups(MAX_QS_NESTING + 1));
        expectRefused(over, 400, 'TooDeeplyNested');
        expect(over.body.limit).to.equal(MAX_QS_NESTING);
      });

    it(`answers a search body ${MAX_BODY_DEPTH} levels deep; ${MAX_BODY_DEPTH + 1} is 400 TooDeeplyNested`, async () => {
      // {"query": q} is 2 levels around q; each bool adds 3 ({bool: {must: [q]}}); a term with
      // {"value": v} is 3 levels, a term with a bare value 2, a match_all 2 ({match_all: {}}).
      const bools = (n: number, inner: unknown) => {
        let q = inner;
        for (let i = 0; i < n; i++) q = { bool: { must: [q] } };
        return { query: q };
      };
      const levels = (n: number, leaf: 1 | 2 | 3) =>
        bools(n, leaf === 3 ? { term: { 'name.keyword': { value: 'seed 0' } } } : leaf === 2 ? { term: { 'name.keyword': 'seed 0' } } : { match_all: {} });
      // 1 + 3n + leaf levels: 31 bools around a 3-level term are 97, around a 2-level one 96; 30 around a 3-level one 94.
      const at = await search(levels(31, 2));
      const under = await search(levels(30, 3));
      expect([under.status, at.status], at.text).to.deep.equal([200, 200]);
      expect(at.body.hits.total.value).to.equal(1);
      const over = await search(levels(31, 3));
      expectRefused(over, 400, 'TooDeeplyNested');
      expect(over.body.limit).to.equal(MAX_BODY_DEPTH);
    });
  });

describe('boundaries: every limit at the limit, one under and one over', () => {
  let server: TestServer;
  let api: ReturnType<typeof client>;
  seeded((s, a) => ((server = s), (api = a)), { multiFetchMax: MULTI_FETCH, sparqlMaxResults: SPARQL_ROWS });

  const total = async () => (await api.get('/v1/resources/bd/p')).body._total as number;

  describe('listings: size 1..1000, from 0..10000, after', () => {
    const listings = ['/v1/resources/bd/p', '/v1/resources/bd', '/v1/resources', '/v1/orgs', '/v1/projects', '/v1/resources/bd/p/_/seed0/incoming'];

    it('answers size=1, 999 and 1000 and refuses size=0 and 1001 with 400 MalformedQueryParamRejection, on every listing', async () => {
      for (const path of listings) {
        for (const size of [1, 999, 1000]) expect((await api.get(`${path}?size=${size}`)).status, `${path} size=${size}`).to.equal(200);
        for (const size of [0, 1001]) {
          const res = await api.get(`${path}?size=${size}`);
          expectRefused(res, 400, 'MalformedQueryParamRejection');
          expect(res.body.reason, path).to.include("'size'");
        }
      }
      // size=1 is one item, with the next page's address.
      const one = (await api.get('/v1/resources/bd/p?size=1')).body;
      expect([one._results.length, typeof one._next]).to.deep.equal([1, 'string']);
    });

    it('answers from=0, 9999 and 10000 (empty past the items) and refuses from=-1 and 10001 with 400, on every listing', async () => {
      for (const path of listings) {
        for (const from of [0, 9_999, 10_000]) expect((await api.get(`${path}?from=${from}`)).status, `${path} from=${from}`).to.equal(200);
        for (const from of [-1, 10_001]) {
          const res = await api.get(`${path}?from=${from}`);
          expectRefused(res, 400, 'MalformedQueryParamRejection');
          expect(res.body.reason, path).to.include("'from'");
        }
      }
      const far = (await api.get('/v1/resources/bd/p?from=10000')).body;
      expect(far._results).to.deep.equal([]);
      expect(far._total).to.equal(await total());
    });

    it('pages to the end with after: the page holding the last item has no _next, and the items are those of one whole page', async () => {
      const all = (await api.get('/v1/resources/bd/p?size=1000')).body;
      const ids: string[] = [];
      let next: string | undefined = '/v1/resources/bd/p?size=2';
      while (next) {
        const page: { _results: { '@id': string }[]; _next?: string } = (await api.get(next.replace(server.url, ''))).body;
        ids.push(...page._results.map((r) => r['@id']));
        expect(page._results.length).to.be.at.most(2);
        next = page._next;
      }
      expect(ids).to.deep.equal(all._results.map((r: { '@id': string }) => r['@id']));
      // A page of exactly the remaining items is the last: size = _total has no _next.
      expect((await api.get(`/v1/resources/bd/p?size=${all._total}`)).body._next).to.equal(undefined);
      expect(typeof (await api.get(`/v1/resources/bd/p?size=${all._total - 1}`)).body._next).to.equal('string');
    });
  });

  searchLimits(() => api, 'embedded');

  describe('SPARQL endpoint', () => {
    const sparql = (query: string) => api.post('/v1/views/bd/p/graph/sparql', query, { 'content-type': 'application/sparql-query' });

    it(`answers ${SPARQL_ROWS - 1} and ${SPARQL_ROWS} rows (sparqlMaxResults); ${SPARQL_ROWS + 1} is 400 QueryResultTooLarge`, async () => {
      const rows = (n: number) => `SELECT ?x WHERE { VALUES ?x { ${Array.from({ length: n }, (_, i) => i).join(' ')} } }`;
      const under = await sparql(rows(SPARQL_ROWS - 1));
      const at = await sparql(rows(SPARQL_ROWS));
      expect([under.status, at.status], at.text).to.deep.equal([200, 200]);
      expect(at.body.results.bindings.length).to.equal(SPARQL_ROWS);
      const over = await sparql(rows(SPARQL_ROWS + 1));
      expectRefused(over, 400, 'QueryResultTooLarge');
    });

    it(`answers a query nested ${MAX_QUERY_NESTING} deep; ${MAX_QUERY_NESTING + 1} is 400 TooDeeplyNested`, async () => {
      // The group's brace and FILTER's parenthesis are 2 levels.
      const nested = (depth: number) => `SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o FILTER(${'('.repeat(depth - 2)}true${')'.repeat(depth - 2)}) }`;
      const under = await sparql(nested(MAX_QUERY_NESTING - 1));
      const at = await sparql(nested(MAX_QUERY_NESTING));
      expect([under.status, at.status], at.text).to.deep.equal([200, 200]);
      expectRefused(await sparql(nested(MAX_QUERY_NESTING + 1)), 400, 'TooDeeplyNested');
    });
  });

  describe('aggregate views (MAX_VIEW_REFS)', () => {
    it(`creates an aggregate of ${MAX_VIEW_REFS} views; ${MAX_VIEW_REFS + 1} is 400 TooManyViewReferences and creates nothing`, async () => {
      const projects = Array.from({ length: MAX_VIEW_REFS + 1 }, (_, i) => `agg${i}`);
      for (const p of projects) expect((await api.put(`/v1/projects/bd/${p}`, {})).status).to.equal(201);
      const refs = (n: number) => projects.slice(0, n).map((p) => ({ project: `bd/${p}`, viewId: 'nxv:defaultSparqlIndex' }));
      const at = await api.put('/v1/views/bd/p/agg-at', { '@type': 'AggregateSparqlView', views: refs(MAX_VIEW_REFS) });
      expect(at.status, at.text).to.equal(201);
      const over = await api.put('/v1/views/bd/p/agg-over', { '@type': 'AggregateSparqlView', views: refs(MAX_VIEW_REFS + 1) });
      expectRefused(over, 400, 'TooManyViewReferences');
      expect((await api.get('/v1/views/bd/p/agg-over')).status).to.equal(404);
    });
  });

  describe('multipart uploads (busboy parts limit: 200)', () => {
    it('stores a file sent as the 200th part; as the 201st it is refused and nothing is stored', async () => {
      const upload = (id: string, others: number) => {
        const filler = Array.from({ length: others }, (_, i) => ({ name: 'other', filename: `o${i}.txt`, data: 'o' }));
        const { body, type } = multipart([...filler, { name: 'file', filename: 'f.txt', type: 'text/plain', data: 'the file' }]);
        return api.put(`/v1/files/bd/p/${id}`, body.toString('latin1'), { 'content-type': type });
      };
      const at = await upload('part-200', 199);
      expect(at.status, at.text).to.equal(201);
      const over = await upload('part-201', 200);
      expectRefused(over, 400, 'MalformedRequestContentRejection');
      expect(over.body.reason).to.include('more than 200 parts');
      expect((await api.get('/v1/files/bd/p/part-201')).status).to.equal(404);
    });
  });

  describe('multi-fetch (multiFetchMax)', () => {
    it(`fetches ${MULTI_FETCH} entries; ${MULTI_FETCH + 1} is 400 MalformedRequestContentRejection`, async () => {
      const entries = (n: number) => ({
        format: 'source',
        resources: Array.from({ length: n }, (_, i) => ({ id: `http://127.0.0.1/seed${i % 3}`, project: 'bd/p' })),
      });
      const under = await api.post('/v1/multi-fetch/resources', entries(MULTI_FETCH - 1));
      const at = await api.post('/v1/multi-fetch/resources', entries(MULTI_FETCH));
      expect([under.status, at.status], at.text).to.deep.equal([200, 200]);
      expect(at.body.resources.length).to.equal(MULTI_FETCH);
      const over = await api.post('/v1/multi-fetch/resources', entries(MULTI_FETCH + 1));
      expectRefused(over, 400, 'MalformedRequestContentRejection');
      expect(over.body.reason).to.include(`At most ${MULTI_FETCH}`);
    });
  });

  describe('tags (MAX_TAG_LENGTH)', () => {
    it(`tags with ${MAX_TAG_LENGTH - 1} and ${MAX_TAG_LENGTH} characters; ${MAX_TAG_LENGTH + 1} is 400 and tags nothing`, async () => {
      expect((await api.put('/v1/resources/bd/p/_/tagged', { '@context': ctx, name: 'tagged' })).status).to.equal(201);
      const tag = (length: number, rev: number) => api.post(`/v1/resources/bd/p/_/tagged/tags?rev=${rev}`, { tag: 't'.repeat(length), rev: 1 });
      expect((await tag(MAX_TAG_LENGTH - 1, 1)).status).to.equal(201);
      expect((await tag(MAX_TAG_LENGTH, 2)).status).to.equal(201);
      const over = await tag(MAX_TAG_LENGTH + 1, 3);
      expectRefused(over, 400, 'MalformedRequestContentRejection');
      const tags = (await api.get('/v1/resources/bd/p/_/tagged/tags')).body.tags.map((t: { tag: string }) => t.tag.length);
      expect(tags.sort()).to.deep.equal([MAX_TAG_LENGTH - 1, MAX_TAG_LENGTH]);
      expect((await api.get('/v1/resources/bd/p/_/tagged')).body._rev).to.equal(3);
    });
  });

  describe("request line and headers (Node's maxHeaderSize)", () => {
    /** Node counts the target, the header names and their values: the largest it admits is maxHeaderSize - 1. */
    const sendCounting = (counted: number): Promise<string> =>
      new Promise((resolve, reject) => {
        const target = '/v1/version';
        const headers: [string, string][] = [
          ['Host', '127.0.0.1'],
          ['Connection', 'close'],
        ];
        const used = target.length + headers.reduce((n, [k, v]) => n + k.length + v.length, 0) + 'X-Pad'.length;
        headers.push(['X-Pad', 'p'.repeat(counted - used)]);
        const socket = connect(Number(new URL(server.url).port), '127.0.0.1');
        let received = '';
        socket.on('data', (d: Buffer) => (received += d.toString('utf8')));
        socket.on('error', reject);
        socket.on('close', () => resolve(received));
        socket.write(`GET ${target} HTTP/1.1\r\n${headers.map(([k, v]) => `${k}: ${v}\r\n`).join('')}\r\n`);
      });

    it('answers request headers counting maxHeaderSize - 1 and - 2; maxHeaderSize is 400 RequestHeadersTooLarge', async () => {
      for (const counted of [maxHeaderSize - 2, maxHeaderSize - 1])
        expect((await sendCounting(counted)).slice(0, 12), String(counted)).to.equal('HTTP/1.1 200');
      const over = await sendCounting(maxHeaderSize);
      expect(over).to.match(/^HTTP\/1.1 400 /);
      expect(over).to.include('"@type":"RequestHeadersTooLarge"');
    });
  });
});

describe('boundaries: open connections (maxConnections)', () => {
  const LIMIT = 3;
  let server: TestServer;
  const held: Socket[] = [];
  before(async () => {
    server = await startServer({
      http: {
        requestTimeoutMillis: 30_000,
        headersTimeoutMillis: 10_000,
        keepAliveTimeoutMillis: 60_000,
        maxConnections: LIMIT,
        maxConnectionsPerClient: LIMIT,
      },
    });
  });
  after(async () => {
    for (const s of held) s.destroy();
    await server?.stop(true);
  });

  /** A connection busy with an event stream (an idle one would be closed to make room): its answer's first line. */
  const holdOne = (): Promise<string> =>
    new Promise((resolve, reject) => {
      const socket = connect(Number(new URL(server.url).port), '127.0.0.1');
      held.push(socket);
      socket.once('data', (d: Buffer) => resolve(d.toString('utf8').split('\r\n')[0]!));
      socket.on('error', reject);
      socket.write('GET /v1/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    });

  it(`serves connection ${LIMIT - 1} and ${LIMIT} while the others stay busy; connection ${LIMIT + 1} is 503 TooManyConnections`, async () => {
    const lines: string[] = [];
    for (let i = 0; i < LIMIT; i++) lines.push(await holdOne());
    expect(lines).to.deep.equal(Array.from({ length: LIMIT }, () => 'HTTP/1.1 200 OK'));
    const over = await new Promise<string>((resolve) => {
      const socket = connect(Number(new URL(server.url).port), '127.0.0.1');
      let received = '';
      socket.on('data', (d: Buffer) => (received += d.toString('utf8')));
      socket.on('error', () => undefined);
      socket.on('close', () => resolve(received));
      socket.write('GET /v1/version HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    });
    expect(over).to.match(/^HTTP\/1.1 503 /);
    expect(over).to.include('"@type":"TooManyConnections"');
    // One stream ends: its place is taken by the next connection.
    held.shift()!.destroy();
    await new Promise((r) => setTimeout(r, 100));
    expect(await holdOne()).to.equal('HTTP/1.1 200 OK');
  });
});

describe('boundaries: the search API on the external store (Virtuoso), which translates searches into SPARQL', function () {
  this.timeout(180_000);
  let api: ReturnType<typeof client>;
  const overrides: Partial<Config> = {};
  before(async () => {
    overrides.sparqlStore = (await useVirtuoso()).server;
    await clearVirtuoso(overrides.sparqlStore);
  });
  seeded((_s, a) => (api = a), overrides);
  after(releaseVirtuoso);
  searchLimits(() => api, 'external');
});
