import { expect } from 'chai';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import oxigraph from 'oxigraph';
import { serve, startServer } from '../support/server.js';
import type { TestServer } from '../support/server.js';
import { client, enc } from '../support/client.js';
import type { Config } from '../../src/config/Config.js';
import { clearVirtuoso, releaseVirtuoso, useVirtuoso } from '../support/virtuoso.js';

const NAME = 'http://schema.org/name';
const A = 'http://ex.org/a';
const B = 'http://ex.org/b';
const SHARED = 'http://ex.org/shared';
const graphOf = (project: string, id: string, rev: number) => `urn:registry:resources/${project}/${enc(id)}/rev/${rev}`;
/** Every project has its default storage, an item of its dataset like any other. */
const defaultStorageGraph = (project: string) =>
  `urn:registry:storages/${project}/${enc('https://bluebrain.github.io/nexus/vocabulary/diskStorageDefault')}/rev/1`;
const ctx = { '@vocab': 'http://schema.org/' };

// The same endpoint over the embedded store and over an external one (Virtuoso).
for (const external of [false, true])
  describe(`SPARQL endpoint${external ? ', external store (Virtuoso)' : ''}`, () => {
    let server: TestServer;
    let api: ReturnType<typeof client>;
    const overrides: Partial<Config> = { sparqlMaxResults: 50 };
    if (external)
      before(async () => {
        overrides.sparqlStore = (await useVirtuoso()).server;
        await clearVirtuoso(overrides.sparqlStore);
      });
    serve((s, a) => ((server = s), (api = a)), overrides);
    if (external) after(releaseVirtuoso);
    const endpoint = (project = 'sq/p1', view = 'graph') => `/v1/views/${project}/${view}/sparql`;
    const select = async (query: string, project = 'sq/p1', extra = '') => {
      const res = await api.get(`${endpoint(project)}?query=${enc(query)}${extra}`);
      expect(res.status, res.text).to.equal(200);
      return (res.body.results.bindings as Record<string, { value: string }>[]).map((row) =>
        Object.fromEntries(Object.entries(row).map(([k, v]) => [k, v.value])),
      );
    };
    const names = async (query: string, project = 'sq/p1', extra = '') => (await select(query, project, extra)).map((r) => r['n']).sort();

    before(async () => {
      await api.put('/v1/orgs/sq', {});
      await api.put('/v1/projects/sq/p1', { apiMappings: [{ prefix: 'ex', namespace: 'http://ex.org/' }] });
      await api.put('/v1/projects/sq/p2', {});
      expect((await api.put(`/v1/resources/sq/p1/_/${enc(A)}`, { '@context': ctx, name: 'first' })).status).to.equal(201);
      expect((await api.put(`/v1/resources/sq/p1/_/${enc(A)}?rev=1`, { '@context': ctx, name: 'second' })).status).to.equal(200);
      // B says something about a third subject that A's neighbour C says too: deprecating B keeps it.
      await api.put(`/v1/resources/sq/p1/_/${enc(B)}`, { '@context': ctx, name: 'gone', knows: { '@id': SHARED, name: 'shared' } });
      await api.put(`/v1/resources/sq/p1/_/${enc('http://ex.org/c')}`, { '@context': ctx, name: 'third', knows: { '@id': SHARED, name: 'shared' } });
      expect((await api.delete(`/v1/resources/sq/p1/_/${enc(B)}?rev=1`)).status).to.equal(200);
      await api.put(`/v1/resources/sq/p2/_/${enc('http://ex.org/secret')}`, { '@context': ctx, name: 'secret' });
      expect((await api.put(`/v1/schemas/sq/p2/${enc('http://ex.org/shape')}`, { shapes: [] })).status).to.equal(201);
    });

    it('holds schemas like resources: in the default graph while current, in their revision graphs', async () => {
      const schema = 'https://bluebrain.github.io/nexus/vocabulary/Schema';
      expect(await select(`SELECT ?s WHERE { ?s a <${schema}> }`, 'sq/p2')).to.deep.equal([{ s: 'http://ex.org/shape' }]);
      const graph = `urn:registry:schemas/sq/p2/${enc('http://ex.org/shape')}/rev/1`;
      expect(await select(`SELECT ?s WHERE { GRAPH <${graph}> { ?s a <${schema}> } }`, 'sq/p2')).to.deep.equal([{ s: 'http://ex.org/shape' }]);
      expect(await select(`SELECT ?s WHERE { ?s a <${schema}> }`)).to.deep.equal([]);
    });

    it('answers SELECT over the current, non-deprecated items: old revisions and deprecated items are absent from the default graph', async () => {
      expect(await names(`SELECT ?n WHERE { ?s <${NAME}> ?n }`)).to.deep.equal(['second', 'shared', 'third']);
      const res = await api.get(`${endpoint()}?query=${enc(`SELECT ?n WHERE { <${A}> <${NAME}> ?n }`)}`);
      expect(res.headers.get('content-type')).to.match(/^application\/sparql-results\+json/);
      expect(res.body).to.deep.equal({ head: { vars: ['n'] }, results: { bindings: [{ n: { type: 'literal', value: 'second' } }] } });
    });

    it('reaches every revision graph of the project by its documented name', async () => {
      expect(await names(`SELECT ?n WHERE { GRAPH <${graphOf('sq/p1', A, 1)}> { ?s <${NAME}> ?n } }`)).to.deep.equal(['first']);
      expect(await names(`SELECT ?n WHERE { GRAPH <${graphOf('sq/p1', B, 2)}> { <${B}> <${NAME}> ?n } }`)).to.deep.equal(['gone']);
      const graphs = (await select('SELECT DISTINCT ?g WHERE { GRAPH ?g { ?s ?p ?o } }')).map((r) => r['g']).sort();
      expect(graphs).to.deep.equal(
        [
          graphOf('sq/p1', A, 1),
          graphOf('sq/p1', A, 2),
          graphOf('sq/p1', B, 1),
          graphOf('sq/p1', B, 2),
          graphOf('sq/p1', 'http://ex.org/c', 1),
          defaultStorageGraph('sq/p1'),
          `urn:registry:resolvers/sq/p1/${enc('https://bluebrain.github.io/nexus/vocabulary/defaultInProject')}/rev/1`,
          `urn:registry:views/sq/p1/${enc('https://bluebrain.github.io/nexus/vocabulary/defaultElasticSearchIndex')}/rev/1`,
          `urn:registry:views/sq/p1/${enc('https://bluebrain.github.io/nexus/vocabulary/defaultSparqlIndex')}/rev/1`,
        ].sort(),
      );
      expect(await names(`SELECT ?n FROM <${graphOf('sq/p1', A, 1)}> WHERE { ?s <${NAME}> ?n }`)).to.deep.equal(['first']);
      expect(await names(`SELECT ?n WHERE { ?s <${NAME}> ?n }`, 'sq/p1', `&default-graph-uri=${enc(graphOf('sq/p1', B, 1))}`)).to.deep.equal([
        'gone',
        'shared',
      ]);
    });

    it('never lets a query see another project, whatever it writes', async () => {
      const other = graphOf('sq/p2', 'http://ex.org/secret', 1);
      const hostile = [
        `SELECT ?n WHERE { GRAPH ?g { ?s <${NAME}> ?n } }`,
        `SELECT ?n WHERE { GRAPH <${other}> { ?s <${NAME}> ?n } }`,
        `SELECT ?n FROM <${other}> WHERE { ?s <${NAME}> ?n }`,
        `SELECT ?n FROM NAMED <${other}> WHERE { GRAPH ?g { ?s <${NAME}> ?n } }`,
        `SELECT ?n WHERE { ?s (<urn:x:p>|!<urn:x:p>)* ?x . ?x <${NAME}> ?n }`,
        `SELECT ?n WHERE { GRAPH ?g { ?s (<urn:x:p>|!<urn:x:p>)* ?x . ?x <${NAME}> ?n } }`,
        `SELECT ?n WHERE { GRAPH <urn:registry:catalogue> { ?s ?p ?n } }`,
        `SELECT ?n WHERE { { SELECT ?n WHERE { GRAPH ?g { ?s ?p ?n } } } }`,
        `SELECT ?n WHERE { <http://ex.org/secret> (<urn:x:p>|!<urn:x:p>)* ?x . ?x <${NAME}> ?n }`,
        `SELECT ?n WHERE { VALUES ?g { <${other}> } GRAPH ?g { ?s ?p ?n } }`,
        `SELECT ?n WHERE { BIND(IRI("${other}") AS ?g) GRAPH ?g { ?s ?p ?n } }`,
        `SELECT ?n WHERE { ?a ?b ?c OPTIONAL { GRAPH <${other}> { ?s ?p ?n } } }`,
        `SELECT ?n WHERE { GRAPH ?g { ?s ?p ?o } FILTER EXISTS { GRAPH <${other}> { ?x ?y ?z } } BIND(?o AS ?n) }`,
        `SELECT (GROUP_CONCAT(?o) AS ?n) WHERE { GRAPH ?g { ?s ?p ?o } }`,
        `SELECT ?n FROM NAMED <${other}> WHERE { GRAPH <${other}> { ?s ?p ?n } }`,
        `PREFIX bif: <bif:> SELECT ?n WHERE { ?s ?p ?n FILTER(bif:contains(?n, "secret")) }`,
        `SELECT ?n WHERE { GRAPH ?g { GRAPH ?h { ?s ?p ?n } } }`,
      ];
      for (const query of hostile) {
        const res = await api.get(`${endpoint()}?query=${enc(query)}`);
        // Refused is fine too: Virtuoso evaluates no transitive path with both ends free, and callers get no bif:.
        if (res.status === 400) expect(res.body['@type'], query).to.equal('MalformedQuery');
        else expect([res.status, res.text.includes('secret')], query).to.deep.equal([200, false]);
      }
      for (const query of ['DESCRIBE <http://ex.org/secret>', 'CONSTRUCT { ?s ?p ?o } WHERE { GRAPH ?g { ?s ?p ?o } }']) {
        const res = await api.get(`${endpoint()}?query=${enc(query)}`, { accept: 'application/n-triples' });
        expect([res.status, res.text.includes('secret')], query).to.deep.equal([200, false]);
      }
      expect(await names(`SELECT ?n WHERE { ?s <${NAME}> ?n }`, 'sq/p1', `&named-graph-uri=${enc(other)}&default-graph-uri=${enc(other)}`)).to.deep.equal([]);
      expect(await names(`SELECT ?n WHERE { GRAPH ?g { ?s <${NAME}> ?n } }`, 'sq/p1', `&named-graph-uri=${enc(other)}`)).to.deep.equal([]);
      expect(await names(`SELECT ?n WHERE { ?s <${NAME}> ?n }`, 'sq/p2')).to.deep.equal(['secret']);
      const catalogue = await select(
        'SELECT (COUNT(*) AS ?c) WHERE { GRAPH ?g { ?s ?p ?o } FILTER(!STRSTARTS(STR(?g), "urn:registry:resources/sq/p1/") && !STRSTARTS(STR(?g), "urn:registry:storages/sq/p1/") && !STRSTARTS(STR(?g), "urn:registry:resolvers/sq/p1/") && !STRSTARTS(STR(?g), "urn:registry:views/sq/p1/")) }',
      );
      expect(catalogue[0]!['c']).to.equal('0');
    });

    it('answers SELECT and ASK in SPARQL JSON, XML, CSV and TSV by Accept', async () => {
      it("answers CONSTRUCT and DESCRIBE in RDF/XML to the Accept rdflib's SPARQLStore sends", async () => {
        // rdflib's SPARQLConnector, returnFormat "xml" (its default), whatever the query form.
        const accept = 'application/sparql-results+xml, application/rdf+xml';
        const triples = (xml: string) =>
          oxigraph.parse(xml, { format: 'application/rdf+xml' }).map((q) => `${q.subject.value} ${q.predicate.value} ${q.object.value}`);
        const construct = await api.get(`${endpoint()}?query=${enc(`CONSTRUCT WHERE { <${A}> <${NAME}> ?n }`)}`, { accept });
        expect([construct.status, construct.headers.get('content-type')]).to.deep.equal([200, 'application/rdf+xml; charset=utf-8']);
        expect(triples(construct.text)).to.deep.equal([`${A} ${NAME} second`]);
        const describe = await api.get(`${endpoint()}?query=${enc(`DESCRIBE <${A}>`)}`, { accept });
        expect(triples(describe.text)).to.include(`${A} ${NAME} second`);
        const selected = await api.get(`${endpoint()}?query=${enc(`SELECT ?n WHERE { <${A}> <${NAME}> ?n }`)}`, { accept });
        expect(selected.headers.get('content-type'), 'a SELECT still answers SPARQL XML').to.match(/^application\/sparql-results\+xml/);
      });

      const query = enc(`SELECT ?n WHERE { <${A}> <${NAME}> ?n }`);
      const as = async (accept: string) => {
        const res = await api.get(`${endpoint()}?query=${query}`, { accept });
        expect(res.status).to.equal(200);
        expect(res.headers.get('content-type')).to.match(new RegExp(`^${accept.replace(/[+]/g, '\\+')}`));
        return res.text;
      };
      expect(await as('application/sparql-results+xml')).to.include('<literal>second</literal>');
      expect(await as('text/csv')).to.equal('n\r\nsecond\r\n');
      expect(await as('text/tab-separated-values')).to.equal('?n\n"second"\n');
      const ask = await api.get(`${endpoint()}?query=${enc(`ASK { <${A}> <${NAME}> "second" }`)}`);
      expect(ask.body).to.deep.equal({ head: {}, boolean: true });
      const askXml = await api.get(`${endpoint()}?query=${enc(`ASK { <${A}> <${NAME}> "first" }`)}`, { accept: 'application/sparql-results+xml' });
      expect(askXml.text).to.include('<boolean>false</boolean>');
      expect((await api.get(`${endpoint()}?query=${query}`, { accept: 'image/png' })).status).to.equal(406);
    });

    it('answers CONSTRUCT and DESCRIBE in N-Triples, Turtle, N-Quads and JSON-LD by Accept', async () => {
      const construct = enc(`CONSTRUCT WHERE { <${A}> <${NAME}> ?n }`);
      const nt = await api.get(`${endpoint()}?query=${construct}`);
      expect(nt.headers.get('content-type')).to.match(/^application\/n-triples/);
      expect(nt.text).to.equal(`<${A}> <${NAME}> "second" .\n`);
      const ttl = await api.get(`${endpoint()}?query=${construct}`, { accept: 'text/turtle' });
      expect(ttl.text).to.match(/<http:\/\/ex.org\/a> <http:\/\/schema.org\/name> "second"/);
      const nq = await api.get(`${endpoint()}?query=${construct}`, { accept: 'application/n-quads' });
      expect(nq.text).to.equal(`<${A}> <${NAME}> "second" .\n`);
      const jsonld = await api.get(`${endpoint()}?query=${construct}`, { accept: 'application/ld+json' });
      expect(jsonld.body).to.deep.equal([{ '@id': A, [NAME]: [{ '@value': 'second' }] }]);
      const describe = await api.get(`${endpoint()}?query=${enc(`DESCRIBE <${A}>`)}`, { accept: 'application/n-triples' });
      expect(describe.text).to.include(`<${A}> <${NAME}> "second" .`);
    });

    it('takes the query as a GET parameter, an application/sparql-query body or a form, under every name of the view', async () => {
      const query = `SELECT ?n WHERE { <${A}> <${NAME}> ?n }`;
      const viaBody = await api.post(endpoint(), query, { 'content-type': 'application/sparql-query' });
      expect(viaBody.body.results.bindings[0].n.value).to.equal('second');
      const viaForm = await api.post(endpoint(), `query=${enc(query)}`, { 'content-type': 'application/x-www-form-urlencoded' });
      expect(viaForm.body.results.bindings[0].n.value).to.equal('second');
      for (const view of [enc('https://bluebrain.github.io/nexus/vocabulary/defaultSparqlIndex'), 'nxv:defaultSparqlIndex']) {
        const res = await api.get(`${endpoint('sq/p1', view)}?query=${enc(query)}`);
        expect(res.status, view).to.equal(200);
      }
      // `text/plain` is read as the query (the Nexus sdk sends it so); other types are refused.
      expect((await api.post(endpoint(), query, { 'content-type': 'text/plain' })).body.results.bindings[0].n.value).to.equal('second');
      expect((await api.post(endpoint(), query, { 'content-type': 'application/xml' })).body['@type']).to.equal('UnsupportedRequestContentTypeRejection');
      expect((await api.get(`${endpoint('sq/p1', 'other')}?query=${enc(query)}`)).body['@type']).to.equal('ViewNotFound');
      const missing = await api.get(`${endpoint('sq/nope')}?query=${enc(query)}`);
      expect([missing.status, missing.body['@type']]).to.deep.equal([404, 'ProjectNotFound']);
      expect((await api.get(endpoint())).body['@type']).to.equal('MissingQuery');
    });

    it('refuses updates, SERVICE and LOAD (400) and changes nothing', async () => {
      const count = async () => (await select('SELECT (COUNT(*) AS ?c) WHERE { ?s ?p ?o }'))[0]!['c'];
      const before = await count();
      const refusals = [
        await api.get(`${endpoint()}?query=${enc('INSERT DATA { <urn:x> <urn:y> <urn:z> }')}`),
        await api.post(endpoint(), `update=${enc('INSERT DATA { <urn:x> <urn:y> <urn:z> }')}`, { 'content-type': 'application/x-www-form-urlencoded' }),
        await api.post(endpoint(), 'DROP ALL', { 'content-type': 'application/sparql-update' }),
        await api.post(endpoint(), 'LOAD <http://127.0.0.1:1/data.ttl>', { 'content-type': 'application/sparql-query' }),
        await api.get(`${endpoint()}?query=${enc('SELECT * WHERE { SERVICE <http://127.0.0.1:1/sparql> { ?s ?p ?o } }')}`),
        await api.get(`${endpoint()}?query=${enc('ASK { FILTER EXISTS { SERVICE SILENT <http://127.0.0.1:1/sparql> { ?s ?p ?o } } }')}`),
      ];
      for (const res of refusals) expect([res.status, res.body['@type']], res.text).to.deep.equal([400, 'UnsupportedOperation']);
      expect(await count()).to.equal(before);
    });

    it("refuses a malformed query with the parser's message, and an answer over the result cap", async () => {
      const res = await api.get(`${endpoint()}?query=${enc('SELECT ?s WHERE { ?s ?p }')}`);
      expect(res.status).to.equal(400);
      expect(res.body['@type']).to.equal('MalformedQuery');
      expect(res.body.reason).to.match(/Parse error|Expecting/);
      const big = await api.get(`${endpoint()}?query=${enc('SELECT * WHERE { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i }')}`);
      expect([big.status, big.body['@type']]).to.deep.equal([400, 'QueryResultTooLarge']);
    });
  });

describe('SPARQL endpoint: time budget', () => {
  let api: ReturnType<typeof client>;
  // One query worker: a query waits behind another (with several, see sparqlWorkers.test).
  serve((_s, a) => (api = a), { sparqlTimeoutMillis: 400, sparqlWorkers: 1 });

  before(async () => {
    await api.put('/v1/orgs/st', {});
    await api.put('/v1/projects/st/p', {});
    const many = Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`p${i}`, i]));
    await api.put(`/v1/resources/st/p/_/${enc(A)}`, { '@context': ctx, ...many });
  });

  it('stops a query over its budget while the service keeps answering, then answers the next query', async () => {
    const heavy = 'SELECT (COUNT(*) AS ?c) WHERE { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i . ?j ?k ?l . ?m ?n ?o . ?q ?r ?t }';
    let answered = false;
    const running = api.get(`/v1/views/st/p/graph/sparql?query=${enc(heavy)}`).then((res) => ((answered = true), res));
    await new Promise((r) => setTimeout(r, 100));
    const meanwhile = await api.get('/v1/orgs/st');
    expect(meanwhile.status).to.equal(200);
    expect(answered, 'another request waited for the query').to.equal(false);
    const stopped = await running;
    expect([stopped.status, stopped.body['@type']]).to.deep.equal([400, 'QueryTimeout']);
    await api.put(`/v1/resources/st/p/_/${enc(B)}`, { '@context': ctx, name: 'after' });
    // The stopped query's worker is replaced; a query that waits its whole 400 ms budget for the new
    // one (a loaded machine) is refused as busy, so ask until one is taken: the service recovers.
    const ask = () => api.get(`/v1/views/st/p/graph/sparql?query=${enc(`SELECT ?n WHERE { ?s <${NAME}> ?n }`)}`);
    let next = await ask();
    while (next.body?.['@type'] === 'QueryServiceBusy') next = await ask();
    expect(next.status, next.text).to.equal(200);
    expect(next.body.results.bindings.map((b: { n: { value: string } }) => b.n.value)).to.deep.equal(['after']);
  });

  it('refuses with 503 a query that waited its whole budget behind another without starting (every worker busy)', async () => {
    const heavy = 'SELECT (COUNT(*) AS ?c) WHERE { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i . ?j ?k ?l . ?m ?n ?o . ?q ?r ?t }';
    const [first, second] = await Promise.all([
      api.get(`/v1/views/st/p/graph/sparql?query=${enc(heavy)}`),
      api.get(`/v1/views/st/p/graph/sparql?query=${enc('ASK { ?s ?p ?o }')}`),
    ]);
    expect([first.status, first.body['@type']]).to.deep.equal([400, 'QueryTimeout']);
    expect([second.status, second.body['@type']]).to.deep.equal([503, 'QueryServiceBusy']);
  });
});

describe('SPARQL endpoint: restarts', () => {
  it('forgets a permanently deleted item, and answers the same after a restart from the snapshot and after a full replay of the log', async () => {
    let server = await startServer();
    let api = client(server.url);
    await api.put('/v1/orgs/sr', {});
    await api.put('/v1/projects/sr/p', {});
    await api.put(`/v1/resources/sr/p/_/${enc(A)}`, { '@context': ctx, name: 'first' });
    await api.put(`/v1/resources/sr/p/_/${enc(A)}?rev=1`, { '@context': ctx, name: 'second' });
    await api.put(`/v1/resources/sr/p/_/${enc(B)}`, { '@context': ctx, name: 'gone' });
    await api.delete(`/v1/resources/sr/p/_/${enc(B)}?rev=1`);
    await api.put(`/v1/resources/sr/p/_/${enc('http://ex.org/doomed')}`, { '@context': ctx, name: 'doomed' });
    expect((await api.delete(`/v1/resources/sr/p/_/${enc('http://ex.org/doomed')}?prune=true`)).status).to.equal(204);
    const answers = async () => ({
      current: (await api.get(`/v1/views/sr/p/graph/sparql?query=${enc(`SELECT ?n WHERE { ?s <${NAME}> ?n }`)}`)).body.results.bindings,
      graphs: (await api.get(`/v1/views/sr/p/graph/sparql?query=${enc('SELECT (COUNT(DISTINCT ?g) AS ?c) WHERE { GRAPH ?g { ?s ?p ?o } }')}`)).body.results
        .bindings,
    });
    const expected = await answers();
    expect(expected.current).to.deep.equal([{ n: { type: 'literal', value: 'second' } }]);
    // A's two revisions, B's two, the default storage's, resolver's and views' one each.
    expect(expected.graphs[0].c.value).to.equal('8');
    const dir = server.dataDir;
    for (const restart of ['snapshot', 'replay']) {
      await server.stop();
      if (restart === 'replay') rmSync(join(dir, 'projection'), { recursive: true, force: true });
      server = await startServer({}, dir);
      api = client(server.url);
      expect(await answers(), restart).to.deep.equal(expected);
    }
    await server.stop(true);
  });
});
