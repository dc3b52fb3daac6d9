import { expect } from 'chai';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MINIMUM_PERMISSIONS } from '../../src/kernel/permissions.js';
import { startServer } from '../support/server.js';
import type { TestServer } from '../support/server.js';
import { OidcIssuer } from '../support/oidcIssuer.js';
import type { Config } from '../../src/config/Config.js';
import { clearVirtuoso, releaseVirtuoso, useVirtuoso } from '../support/virtuoso.js';

const V = 'http://x/';
const FIELDS = '{\n  "fields": [{"name": "name", "label": "Name"}],\n  "layouts": []\n}\n';

/** The same tests with the search evaluated in process (embedded store) and translated into SPARQL on the external store (Virtuoso). */
for (const store of ['embedded', 'external'] as const)
  describe(`search API over HTTP: query, suites, configuration, offsets, access (${store} store)`, function () {
    this.timeout(120_000);
    let provider: OidcIssuer;
    let server: TestServer;
    const tokens: Record<string, string> = {};

    const call = async (method: string, path: string, who?: string, body?: unknown, raw?: string) => {
      const headers: Record<string, string> = {};
      if (who) headers['authorization'] = `Bearer ${tokens[who]}`;
      if (body !== undefined || raw !== undefined) headers['content-type'] = 'application/json';
      const res = await fetch(`${server.url}${path}`, {
        method,
        headers,
        ...(raw !== undefined ? { body: raw } : body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await res.text();
      let parsed: unknown;
      try {
        parsed = text ? JSON.parse(text) : undefined;
      } catch {
        parsed = undefined;
      }
      return { status: res.status, text, headers: res.headers, body: parsed as any }; // eslint-disable-line @typescript-eslint/no-explicit-any
    };
    const hitIds = (res: { body: { hits: { hits: { _id: string }[] } } }) => res.body.hits.hits.map((h) => h._id).sort();

    before(async () => {
      provider = await OidcIssuer.start();
      const dir = mkdtempSync(join(tmpdir(), 'search-config-'));
      writeFileSync(join(dir, 'fields.json'), FIELDS);
      const external: Partial<Config> = {};
      if (store === 'external') {
        const virtuoso = await useVirtuoso();
        await clearVirtuoso(virtuoso.server);
        external.sparqlStore = virtuoso.server;
      }
      server = await startServer({
        ...external,
        searchFields: join(dir, 'fields.json'),
        searchSuites: { neuro: ['o1/p1'], empty: [], mixed: ['o1/p1', 'o1/p2', 'o2/p3'] },
      });
      expect((await call('PUT', '/v1/realms/r1', undefined, { name: 'r1', openIdConfig: provider.openIdConfig })).status).to.equal(201);
      for (const name of ['admin', 'alice', 'carol', 'olga']) tokens[name] = await provider.sign({ sub: name, groups: [] });
      const locked = await call('PUT', '/v1/acls?rev=0', undefined, {
        acl: [{ identity: { realm: 'r1', subject: 'admin' }, permissions: [...MINIMUM_PERMISSIONS] }],
      });
      expect(locked.status).to.equal(201);
      for (const org of ['o1', 'o2']) expect((await call('PUT', `/v1/orgs/${org}`, 'admin', {})).status).to.equal(201);
      for (const p of ['o1/p1', 'o1/p2', 'o2/p3', 'o2/empty']) expect((await call('PUT', `/v1/projects/${p}`, 'admin', {})).status).to.equal(201);
      const put = async (p: string, id: string, payload: Record<string, unknown>) =>
        expect((await call('PUT', `/v1/resources/${p}/_/${id}`, 'admin', { '@context': { '@vocab': V }, ...payload })).status).to.equal(201);
      await put('o1/p1', 'alice', { '@type': 'Person', name: 'Alice Smith', age: 30, address: { city: 'Oxford' } });
      await put('o1/p1', 'bob', { '@type': 'Person', name: 'Bob Smith', age: 25 });
      await put('o1/p2', 'carol', { '@type': 'Person', name: 'Carol Smith', age: 41 });
      await put('o2/p3', 'dataset', { '@type': 'Dataset', name: 'Smith records', age: null });
      await put('o1/p1', 'gone', { '@type': 'Person', name: 'Old Smith' });
      expect((await call('DELETE', '/v1/resources/o1/p1/_/gone?rev=1', 'admin')).status).to.equal(200);
      const grant = await call('PUT', '/v1/acls/o1/p1?rev=0', 'admin', {
        acl: [{ identity: { realm: 'r1', subject: 'alice' }, permissions: ['views/query'] }],
      });
      expect(grant.status).to.equal(201);
      const onOrg = await call('PUT', '/v1/acls/o2?rev=0', 'admin', { acl: [{ identity: { realm: 'r1', subject: 'olga' }, permissions: ['views/query'] }] });
      expect(onOrg.status).to.equal(201);
    });
    after(async () => {
      await server?.stop(true);
      await provider?.stop();
      if (store === 'external') await releaseVirtuoso();
    });

    it('answers with the Elasticsearch response shape over the documents a fetch returns, deprecated ones left out', async () => {
      const res = await call('POST', '/v1/search/query', 'admin', { query: { match: { name: 'smith' } }, size: 10 });
      expect(res.status, res.text).to.equal(200);
      expect(res.body).to.include({ timed_out: false });
      expect(res.body.hits.total).to.deep.equal({ value: 4, relation: 'eq' });
      const base = (p: string) => `${server.url}/v1/resources/${p}/_/`;
      expect(hitIds(res)).to.deep.equal([`${base('o1/p1')}alice`, `${base('o1/p1')}bob`, `${base('o1/p2')}carol`, `${base('o2/p3')}dataset`]);
      const alice = res.body.hits.hits.find((h: { _source: { name: string } }) => h._source.name === 'Alice Smith');
      expect(alice._index).to.equal('search_o1_p1');
      expect(alice._score).to.be.a('number');
      expect(alice._source).to.include({ '@type': 'Person', name: 'Alice Smith', age: 30, _project: 'o1/p1', _rev: 1, _deprecated: false });
      expect(alice._source._self).to.equal(`${server.url}/v1/resources/o1/p1/_/${encodeURIComponent(alice._id)}`);
      expect(alice._source['@context']).to.deep.equal([{ '@vocab': V }, 'https://bluebrain.github.io/nexus/contexts/metadata.json']);
      // A fetch drops nulls: so does the search document.
      const dataset = res.body.hits.hits.find((h: { _source: { name: string } }) => h._source.name === 'Smith records');
      expect(dataset._source).to.not.have.property('age');
      const agg = await call('POST', '/v1/search/query', 'admin', {
        size: 0,
        query: { bool: { filter: [{ term: { '@type.keyword': 'Person' } }] } },
        aggs: { projects: { terms: { field: '_project.keyword' } }, oldest: { max: { field: 'age' } } },
      });
      expect(agg.body.hits.hits).to.deep.equal([]);
      expect(agg.body.aggregations).to.deep.equal({
        projects: {
          doc_count_error_upper_bound: 0,
          sum_other_doc_count: 0,
          buckets: [
            { key: 'o1/p1', doc_count: 2 },
            { key: 'o1/p2', doc_count: 1 },
          ],
        },
        oldest: { value: 41 },
      });
    });

    it('follows updates, tags and deprecations of the searched resources', async () => {
      const found = async (word: string) =>
        ((await call('POST', '/v1/search/query/suite/neuro', 'admin', { query: { match: { name: word } } })).body.hits.hits as { _id: string }[]).map((h) =>
          h._id.split('/').pop(),
        );
      const base = `/v1/resources/o1/p1/_/mutable`;
      expect((await call('PUT', base, 'admin', { '@context': { '@vocab': V }, name: 'Before change' })).status).to.equal(201);
      expect(await found('before')).to.deep.equal(['mutable']);
      expect((await call('PUT', `${base}?rev=1`, 'admin', { '@context': { '@vocab': V }, name: 'After change' })).status).to.equal(200);
      expect(await found('before')).to.deep.equal([]);
      expect(await found('after')).to.deep.equal(['mutable']);
      // A tag changes no content: the document is still found, at its new revision.
      expect((await call('POST', `${base}/tags?rev=2`, 'admin', { tag: 't', rev: 1 })).status).to.equal(201);
      const tagged = await call('POST', '/v1/search/query/suite/neuro', 'admin', { query: { match: { name: 'after' } }, _source: ['_rev'] });
      expect(tagged.body.hits.hits.map((h: { _source: unknown }) => h._source)).to.deep.equal([{ _rev: 3 }]);
      expect((await call('DELETE', `${base}?rev=3`, 'admin')).status).to.equal(200);
      expect(await found('after')).to.deep.equal([]);
    });

    it('searches every project of an organization where the caller has views/query on the organization, and no other', async () => {
      const olga = await call('POST', '/v1/search/query', 'olga', { query: { match_all: {} } });
      expect(olga.status, olga.text).to.equal(200);
      expect(olga.body.hits.hits.map((h: { _source: { _project: string } }) => h._source._project)).to.deep.equal(['o2/p3']);
      expect(olga.body._shards.total).to.equal(2);
      const suite = await call('POST', '/v1/search/query/suite/mixed', 'olga', { query: { match_all: {} } });
      expect(suite.body.hits.hits.map((h: { _source: { _project: string } }) => h._source._project)).to.deep.equal(['o2/p3']);
    });

    it('searches only the projects where the caller has views/query', async () => {
      const alice = await call('POST', '/v1/search/query', 'alice', { query: { match_all: {} } });
      expect(alice.status).to.equal(200);
      // alice and bob, and whatever other tests added to o1/p1: only o1/p1.
      const projects = alice.body.hits.hits.map((h: { _source: { _project: string } }) => h._source._project) as string[];
      expect(projects.length).to.be.at.least(2);
      expect([...new Set(projects)]).to.deep.equal(['o1/p1']);
      expect(alice.body._shards.total).to.equal(1);
      const carol = await call('POST', '/v1/search/query', 'carol', { query: { match_all: {} } });
      expect(carol.status).to.equal(200);
      expect(carol.body.hits.total).to.deep.equal({ value: 0, relation: 'eq' });
      expect((await call('GET', '/v1/views/o1/p1/search/offset', 'carol')).status).to.equal(403);
    });

    it('refuses unsupported constructs by name, and malformed bodies, with 400', async () => {
      const mlt = await call('POST', '/v1/search/query', 'admin', { query: { more_like_this: { like: 'x' } } });
      expect(mlt.status).to.equal(400);
      expect(mlt.body).to.include({ '@type': 'UnsupportedSearchConstruct', construct: 'more_like_this' });
      const sig = await call('POST', '/v1/search/query', 'admin', { aggs: { s: { significant_terms: { field: 'name.keyword' } } } });
      expect(sig.status).to.equal(400);
      expect(sig.body.reason).to.contain('significant_terms');
      expect((await call('POST', '/v1/search/query', 'admin', undefined, '{"query": ')).status).to.equal(400);
      // No body at all searches everything.
      const all = await call('POST', '/v1/search/query', 'admin');
      expect(all.status).to.equal(200);
      const everything = await call('POST', '/v1/search/query', 'admin', { query: { match_all: {} } });
      expect(all.body.hits.total).to.deep.equal(everything.body.hits.total);
      expect(all.body.hits.total.value).to.be.at.least(4);
      const bad = await call('POST', '/v1/search/query', 'admin', { query: { match: {} } });
      expect(bad.status).to.equal(400);
      expect(bad.body['@type']).to.equal('MalformedSearchQuery');
    });

    it('serves suites, suite queries widened by addProject, and the fields configuration', async () => {
      for (const path of ['/v1/search/suite/neuro', '/v1/search/suites/neuro']) {
        const suite = await call('GET', path, 'admin');
        expect(suite.status).to.equal(200);
        expect(suite.body).to.deep.equal({ '@context': 'https://bluebrain.github.io/nexus/contexts/suites.json', name: 'neuro', projects: ['o1/p1'] });
      }
      const unknown = await call('GET', '/v1/search/suite/nope', 'admin');
      expect(unknown.status).to.equal(404);
      expect(unknown.body).to.deep.equal({
        '@context': 'https://bluebrain.github.io/nexus/contexts/error.json',
        '@type': 'UnknownSuite',
        reason: "The suite 'nope' can't be found.",
      });
      expect((await call('POST', '/v1/search/query/suite/nope', 'admin', {})).status).to.equal(404);
      const projectsOf = (res: { body: { hits: { hits: { _source: { _project: string } }[] } } }) =>
        [...new Set(res.body.hits.hits.map((h) => h._source._project))].sort();
      expect(projectsOf(await call('POST', '/v1/search/query/suite/neuro', 'admin', { size: 100 }))).to.deep.equal(['o1/p1']);
      expect(projectsOf(await call('POST', '/v1/search/query/suite/neuro?addProject=o2/p3&addProject=o1/p2', 'admin', { size: 100 }))).to.deep.equal([
        'o1/p1',
        'o1/p2',
        'o2/p3',
      ]);
      // Added projects are searched only where the caller may query.
      expect(projectsOf(await call('POST', '/v1/search/query/suite/empty?addProject=o2/p3&addProject=o1/p1', 'alice', { size: 100 }))).to.deep.equal(['o1/p1']);
      expect((await call('POST', '/v1/search/query/suite/neuro?addProject=nope', 'admin', {})).status).to.equal(400);
      const config = await call('GET', '/v1/search/config', 'alice');
      expect(config.status).to.equal(200);
      expect(config.headers.get('content-type')).to.match(/^application\/json/);
      expect(config.text).to.equal(FIELDS);
    });

    it('gives each document exactly as a fetch of the same resource returns it', async () => {
      // An organization of its own: the others' tests count o1's and o2's projects.
      expect((await call('PUT', '/v1/orgs/fm', 'admin', {})).status).to.equal(201);
      expect((await call('PUT', '/v1/projects/fm/forms', 'admin', {})).status).to.equal(201);
      // Payloads in compact form (a relative `@id`, a CURIE key, nested nodes, a null), and forms compaction rewrites
      // (a one-element array, a value object, a full IRI the context abbreviates, a key the context does not map).
      const payloads: Record<string, unknown>[] = [
        { '@context': { '@vocab': V, ex: 'http://example.org/' }, '@id': 'one', tags: 'solo', size: 3, 'ex:kind': 'x', empty: null },
        { '@context': { '@vocab': V }, '@id': 'three', parts: [{ label: 'a' }, { label: 'b', '@id': 'http://example.org/b' }], date: '2024-01-02' },
        {
          '@context': { '@vocab': V, ex: 'http://example.org/', '@base': 'http://example.org/base/' },
          '@id': 'rewritten',
          tags: ['only'],
          title: { '@value': 'plain' },
          'http://example.org/kind': 'full',
        },
      ];
      for (const payload of payloads) expect((await call('POST', '/v1/resources/fm/forms', 'admin', payload)).status).to.equal(201);
      const all = await call('POST', '/v1/search/query', 'admin', { size: 100 });
      expect(all.status).to.equal(200);
      const hits = all.body.hits.hits as { _id: string; _source: { _self: string } }[];
      expect(hits.length).to.be.greaterThan(3);
      for (const hit of hits) {
        const fetched = await fetch(hit._source._self, { headers: { authorization: `Bearer ${tokens['admin']}` } });
        expect(fetched.status).to.equal(200);
        expect(hit._source, hit._id).to.deep.equal(await fetched.json());
      }
      // `_source` filtering applies to the document as the fetch shows it.
      const rewritten = await call('POST', '/v1/search/query', 'admin', { query: { match: { tags: 'only' } }, _source: ['tags', 'ex:kind', '_rev'] });
      expect(rewritten.body.hits.hits.map((h: { _source: unknown }) => h._source)).to.deep.equal([{ tags: 'only', 'ex:kind': 'full', _rev: 1 }]);
    });

    it('shows each hit as fetched from its own project, even where two projects share an index name and an @id', async () => {
      for (const org of ['x_y', 'x']) expect((await call('PUT', `/v1/orgs/${org}`, 'admin', {})).status).to.equal(201);
      for (const p of ['x_y/z', 'x/y_z']) {
        expect((await call('PUT', `/v1/projects/${p}`, 'admin', {})).status).to.equal(201);
        const payload = { '@context': { '@vocab': V }, '@id': 'http://example.org/same', label: `twin in ${p}` };
        expect((await call('POST', `/v1/resources/${p}`, 'admin', payload)).status).to.equal(201);
      }
      const found = await call('POST', '/v1/search/query', 'admin', { query: { match: { label: 'twin' } }, _source: ['label', '_project'] });
      const hits = found.body.hits.hits as { _index: string; _source: { label: string; _project: string } }[];
      expect(hits.map((h) => h._index)).to.deep.equal(['search_x_y_z', 'search_x_y_z']);
      expect(hits.map((h) => h._source.label).sort()).to.deep.equal(['twin in x/y_z', 'twin in x_y/z']);
      for (const h of hits) expect(h._source._project.endsWith(h._source.label.slice('twin in '.length))).to.equal(true);
    });

    it('shows suites and the fields configuration only to callers who may query, a suite with only the projects they may query', async () => {
      expect((await call('GET', '/v1/search/suite/mixed', 'admin')).body.projects).to.deep.equal(['o1/p1', 'o1/p2', 'o2/p3']);
      const mixed = await call('GET', '/v1/search/suite/mixed', 'alice');
      expect(mixed.status).to.equal(200);
      expect(mixed.body.projects).to.deep.equal(['o1/p1']);
      // Neither an anonymous caller nor one who may query no project learns the suites or the configuration.
      for (const who of [undefined, 'carol'])
        for (const path of ['/v1/search/suite/mixed', '/v1/search/suites/neuro', '/v1/search/suite/nope', '/v1/search/config']) {
          const res = await call('GET', path, who);
          expect(res.status, `${path} as ${who ?? 'anonymous'}`).to.equal(403);
          expect(res.body['@type']).to.equal('AuthorizationFailed');
        }
    });

    it("reports each project's indexing progress as composite-view offsets", async () => {
      const offsets = await call('GET', '/v1/views/o1/p1/search/offset', 'alice');
      expect(offsets.status).to.equal(200);
      expect(offsets.body['@context']).to.deep.equal([
        'https://bluebrain.github.io/nexus/contexts/metadata.json',
        'https://bluebrain.github.io/nexus/contexts/search.json',
        'https://bluebrain.github.io/nexus/contexts/offset.json',
      ]);
      // The project's search offset, then this replica's projection runners with their lag.
      expect(offsets.body._total).to.equal(offsets.body._results.length);
      expect(offsets.body._results.map((r: { projectionId: string }) => r.projectionId.split('/').pop())).to.deep.equal([
        'searchProjection',
        'statesProjection',
        'catalogueProjection',
        ...(store === 'external' ? [] : ['textProjection']),
        'streamsProjection',
        // On the external store one replica at a time writes its datasets, the search documents and
        // listings' text, under a lease; every replica notes the projects' search offsets behind it.
        ...(store === 'external' ? ['searchOffsetsProjection', 'storeProjection'] : ['sparqlProjection']),
      ]);
      expect(offsets.body._results[2]).to.include({ _lag: 0, _failures: 0 });
      const [entry] = offsets.body._results;
      expect(entry).to.include({
        sourceId: 'https://bluebrain.github.io/nexus/vocabulary/searchSource',
        projectionId: 'https://bluebrain.github.io/nexus/vocabulary/searchProjection',
      });
      expect(entry.offset['@type']).to.equal('At');
      const before = entry.offset.value as number;
      expect((await call('PUT', '/v1/resources/o1/p1/_/later', 'admin', { '@context': { '@vocab': V }, name: 'Later' })).status).to.equal(201);
      const after = (await call('GET', '/v1/views/o1/p1/search/offset', 'admin')).body._results[0].offset;
      expect(after['@type']).to.equal('At');
      expect(after.value).to.be.above(before);
      // A project without resources still has its default storage indexed (storages are searchable with `q`).
      const empty = (await call('GET', '/v1/views/o2/empty/search/offset', 'admin')).body._results[0].offset;
      expect(empty['@type']).to.equal('At');
      expect(empty.value).to.be.below(after.value);
      const missing = await call('GET', '/v1/views/o2/missing/search/offset', 'admin');
      expect(missing.status).to.equal(404);
      expect(missing.body['@type']).to.equal('ProjectNotFound');
    });
  });

describe('search API: without a fields configuration', () => {
  it('answers GET /v1/search/config with 404 SearchConfigUnavailable', async () => {
    const server = await startServer();
    try {
      const res = await fetch(`${server.url}/v1/search/config`);
      expect(res.status).to.equal(404);
      expect(((await res.json()) as { '@type': string })['@type']).to.equal('SearchConfigUnavailable');
    } finally {
      await server.stop(true);
    }
  });
});
