import { expect } from 'chai';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { RemoteGraphStore } from '../../src/store/RemoteGraphStore.js';
import { SparqlHttpClient, SparqlRequestFailed } from '../../src/store/SparqlHttpClient.js';
import { confinedQuery } from '../../src/store/confinedQuery.js';
import { QueryFailed } from '../../src/store/ProjectSparqlStore.js';
import type { Virtuoso } from '../support/virtuoso.js';
import { clearVirtuoso, releaseVirtuoso, useVirtuoso } from '../support/virtuoso.js';

const OWN = 'urn:registry:resources/o/p1/a/rev/1';
const OTHER = 'urn:registry:resources/o/p2/b/rev/1';

describe('external store on Virtuoso: what the standard leaves to the server', () => {
  let virtuoso: Virtuoso;
  let client: SparqlHttpClient;
  const select = async (query: string, params: Record<string, string[]> = {}) =>
    (
      JSON.parse((await client.query(query, 'application/sparql-results+json', params)).body) as { results: { bindings: Record<string, { value: string }>[] } }
    ).results.bindings
      .map((b) => Object.values(b)[0]!.value)
      .sort();
  before(async () => {
    virtuoso = await useVirtuoso();
    client = new SparqlHttpClient(virtuoso.server, { timeoutMillis: 10_000 });
  });
  beforeEach(async () => {
    await clearVirtuoso(virtuoso.server);
    await client.update(`INSERT DATA { GRAPH <${OWN}> { <urn:a> <urn:name> "mine" } GRAPH <${OTHER}> { <urn:b> <urn:name> "secret" } }`);
  });
  after(releaseVirtuoso);

  it("does not confine GRAPH ?g by default-graph-uri or FROM (Virtuoso 7), which is why callers' queries are rewritten", async () => {
    const leak = 'SELECT ?n WHERE { GRAPH ?g { ?s <urn:name> ?n } }';
    expect(await select(leak, { 'default-graph-uri': [OWN] })).to.include('secret');
    expect(await select(`SELECT ?n FROM <${OWN}> WHERE { GRAPH ?g { ?s <urn:name> ?n } }`)).to.include('secret');
    const confined = confinedQuery({ project: 'o/p1', query: leak, form: 'select', mediaType: 'application/sparql-results+json' }, 100);
    expect(await select(confined)).to.deep.equal(['mine']);
    const fromOther = confinedQuery(
      { project: 'o/p1', query: `SELECT ?n FROM NAMED <${OTHER}> WHERE { GRAPH ?g { ?s <urn:name> ?n } }`, form: 'select', mediaType: 'x' },
      100,
    );
    expect(await select(fromOther)).to.deep.equal([]);
  });

  it('merges several default graphs of the project (sent as FROM), dropping those outside it, GRAPH ?g still confined', async () => {
    const SECOND = 'urn:registry:resources/o/p1/c/rev/1';
    await client.update(`INSERT DATA { GRAPH <${SECOND}> { <urn:a> <urn:knows> <urn:c> . <urn:c> <urn:name> "second" } }`);
    const ask = (query: string, defaultGraphs: string[]) =>
      select(confinedQuery({ project: 'o/p1', query, form: 'select', mediaType: 'x', defaultGraphs }, 100));
    expect(await ask('SELECT ?n WHERE { ?s <urn:name> ?n }', [OWN, SECOND, OTHER])).to.deep.equal(['mine', 'second']);
    // A join across the two graphs.
    expect(await ask('SELECT ?n WHERE { <urn:a> <urn:knows> ?c . ?c <urn:name> ?n }', [OWN, SECOND])).to.deep.equal(['second']);
    expect(await ask('SELECT ?n WHERE { GRAPH ?g { ?s <urn:name> ?n } }', [OWN, SECOND])).to.deep.equal([]);
  });

  it('refuses, before sending, what would leave the dataset: SERVICE, bif:/sql: calls', () => {
    const refused = (query: string, extra = {}) => {
      try {
        confinedQuery({ project: 'o/p1', query, form: 'select', mediaType: 'x', ...extra }, 100);
        return undefined;
      } catch (error) {
        return (error as QueryFailed).reason.failure;
      }
    };
    expect(refused('SELECT * WHERE { SERVICE <http://127.0.0.1:1/sparql> { ?s ?p ?o } }')).to.equal('invalid');
    expect(refused('SELECT * WHERE { ?s ?p ?o FILTER(<bif:sprintf>("%s", ?o)) }')).to.equal('invalid');
    expect(refused('SELECT * WHERE { ?s <sql:x> ?o }')).to.equal('invalid');
    expect(refused('SELECT * WHERE { ?s ?p ?o }', { defaultGraphs: [OWN, 'urn:registry:resources/o/p1/c/rev/1'] })).to.equal(undefined);
    expect(refused('PREFIX xsd: <http://www.w3.org/2001/XMLSchema#> SELECT * WHERE { ?s ?p ?o FILTER(xsd:integer(?o) > 1) }')).to.equal(undefined);
  });

  it('writes a revision graph once: writing it again (a replay, a retry) changes nothing, blank nodes included', async () => {
    const store = new RemoteGraphStore(client, { graphPrefix: 'urn:registry:', markerGraph: 'urn:registry:store' });
    await store.restore(undefined);
    const triples = '<urn:a> <urn:has> _:b0 .\n_:b0 <urn:name> "x" .\n';
    await store.putGraph('urn:registry:resources/o/p1/x/rev/1', triples);
    await store.putGraph('urn:registry:resources/o/p1/x/rev/1', triples);
    expect(await store.size()).to.equal(2);
  });

  it('records the projected log position in the store, kept across restores: a start without a snapshot never empties the shared store', async () => {
    const open = () => new RemoteGraphStore(client, { graphPrefix: 'urn:registry:', markerGraph: 'urn:registry:store' });
    let store = open();
    await store.restore(undefined);
    expect(await store.recordedPosition()).to.equal(undefined);
    await store.recordPosition(41);
    await store.recordPosition(42);
    const mark = store.checkpoint();
    store = open();
    expect(await store.restore(mark)).to.deep.equal({ restored: true });
    expect(await store.recordedPosition()).to.equal(42);
    // The marker is not content.
    expect(await store.size()).to.equal(0);
    await store.putGraph('urn:registry:resources/o/p1/kept/rev/1', '<urn:a> <urn:b> "c" .\n');
    // Another replica starting on an empty data directory: the store keeps its content and position.
    store = open();
    expect(await store.restore(undefined)).to.deep.equal({ restored: true });
    expect(await store.recordedPosition()).to.equal(42);
    expect(await store.size()).to.equal(1);
    // A snapshot past the store's position: the whole log is replayed, so that the changes it lacks are at hand.
    expect(await open().restore(mark, 0, 50)).to.deep.include({ restored: false });
    expect(await open().restore(mark, 0, 42)).to.deep.equal({ restored: true });
  });
});

describe('SparqlHttpClient: retries and time limits', () => {
  it("retries Virtuoso's deadlock (500, SQL state 40001) and gateway errors, not a refusal, and bounds every request", async () => {
    const answers = [
      { status: 500, body: 'Virtuoso 40001 Error SR172: Transaction deadlocked' },
      { status: 503, body: 'busy' },
      { status: 200, body: '' },
      { status: 400, body: 'Virtuoso 37000 Error SP030: SPARQL compiler' },
    ];
    let seen = 0;
    const server = createServer((req, res) => {
      if (req.url?.startsWith('/slow')) return;
      const answer = answers[seen++]!;
      res.writeHead(answer.status).end(answer.body);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const client = new SparqlHttpClient({ query: `${base}/sparql` }, { timeoutMillis: 300 });
      await client.update('INSERT DATA { <urn:a> <urn:b> <urn:c> }');
      expect(seen).to.equal(3);
      const refused = await client.update('nonsense').catch((e: unknown) => e);
      expect(refused).to.be.instanceOf(SparqlRequestFailed).with.property('status', 400);
      expect(seen).to.equal(4);
      const slow = new SparqlHttpClient({ query: `${base}/slow` }, { timeoutMillis: 200 });
      const timedOut = await slow.query('ASK {}', 'application/sparql-results+json').catch((e: unknown) => e);
      expect(timedOut).to.be.instanceOf(SparqlRequestFailed).with.property('timedOut', true);
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });
});
