import { expect } from 'chai';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Config } from '../../src/config/Config.js';
import { client, enc } from '../support/client.js';
import { dropPrefix, REDIS_URL, uniquePrefix } from '../support/redis.js';
import { startServer } from '../support/server.js';
import type { TestServer } from '../support/server.js';
import type { Virtuoso } from '../support/virtuoso.js';
import { clearVirtuoso, releaseVirtuoso, useVirtuoso } from '../support/virtuoso.js';

const ctx = { '@vocab': 'http://schema.org/' };

describe('the registry on an external triple store (Virtuoso) with the log on Redis', function () {
  // Virtuoso's start and two registries on it: over a minute on a loaded 2-core machine.
  this.timeout(180_000);
  let virtuoso: Virtuoso;
  let config: Partial<Config>;
  const servers: TestServer[] = [];
  before(async () => {
    virtuoso = await useVirtuoso();
    await clearVirtuoso(virtuoso.server);
    config = { sparqlStore: virtuoso.server, redisUrl: REDIS_URL, redisPrefix: uniquePrefix('external-store') };
  });
  after(async () => {
    for (const server of servers) await server.stop(true);
    // Undefined when before failed: its own failure is the one to see.
    if (config?.redisPrefix) await dropPrefix(config.redisPrefix);
    await releaseVirtuoso();
  });

  const expectServes = async (api: ReturnType<typeof client>) => {
    const alice = await api.get(`/v1/resources/ex/p/_/${enc('http://ex.org/alice')}`);
    expect([alice.status, alice.body.name, alice.body._rev]).to.deep.equal([200, 'Alice Liddell', 2]);
    const listing = await api.get(`/v1/resources/ex/p?type=${enc('http://schema.org/Person')}&aggregations=false`);
    expect(listing.body._total).to.equal(2);
    const incoming = await api.get(`/v1/resources/ex/p/_/${enc('http://ex.org/bob')}/incoming`);
    expect(incoming.body._results.map((r: { '@id': string }) => r['@id'])).to.deep.equal(['http://ex.org/alice']);
    const sparql = await api.get(
      `/v1/views/ex/p/graph/sparql?query=${enc('SELECT ?n WHERE { ?s <http://schema.org/knows> ?o . ?o <http://schema.org/name> ?n }')}`,
    );
    expect(sparql.body.results.bindings.map((b: { n: { value: string } }) => b.n.value)).to.deep.equal(['Bob']);
    const other = await api.get(`/v1/views/ex/q/graph/sparql?query=${enc('SELECT ?n WHERE { GRAPH ?g { ?s ?p ?n } }')}`);
    expect([other.status, other.text.includes('Alice')]).to.deep.equal([200, false]);
  };

  it('creates, fetches, lists, links and queries with nothing of the store in the data directory; a process started after it on an empty data directory serves the same', async () => {
    const first = await startServer(config);
    const api = client(first.url);
    await api.put('/v1/orgs/ex', {});
    await api.put('/v1/projects/ex/p', {});
    await api.put('/v1/projects/ex/q', {});
    const alice = `/v1/resources/ex/p/_/${enc('http://ex.org/alice')}`;
    expect((await api.put(alice, { '@context': ctx, '@type': 'Person', name: 'Alice', knows: { '@id': 'http://ex.org/bob' } })).status).to.equal(201);
    expect((await api.post('/v1/resources/ex/p', { '@context': ctx, '@id': 'http://ex.org/bob', '@type': 'Person', name: 'Bob' })).status).to.equal(201);
    expect(
      (await api.put(`${alice}?rev=1`, { '@context': ctx, '@type': 'Person', name: 'Alice Liddell', knows: { '@id': 'http://ex.org/bob' } })).status,
    ).to.equal(200);
    await api.put(`/v1/resources/ex/q/_/other`, { '@context': ctx, name: 'Quentin' });
    await expectServes(api);
    expect(existsSync(join(first.dataDir, 'projection', 'revisions.nq'))).to.equal(false);
    // Stopped first: until the single-projector lease exists, a process starting on an empty data
    // directory empties the store and replays the whole log into it.
    await first.stop(true);

    const empty = mkdtempSync(join(tmpdir(), 'registry-empty-'));
    const second = await startServer(config, empty);
    servers.push(second);
    await expectServes(client(second.url));
    expect(existsSync(join(empty, 'projection', 'revisions.nq'))).to.equal(false);
  });

  it('names the external store in /v1/version and reports no cap of the embedded store there or in the metrics', async () => {
    // The replica the test above left running, or one of its own when run alone.
    if (!servers.length) servers.push(await startServer(config));
    const server = servers[0]!;
    const version = await client(server.url).get('/v1/version');
    expect(version.body.dependencies.store).to.equal('sparql 1.1 (external)');
    expect(version.body.store).to.not.have.property('maxQuads');
    const metrics = await (await fetch(`${server.url}/metrics`)).text();
    expect(metrics).to.include('registry_store_quads');
    expect(metrics).to.not.include('registry_store_max_quads');
  });
});
