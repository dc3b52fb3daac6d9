import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createNexusClient } from '@bbp/nexus-sdk';
import { serve } from '../support/server.js';
import type { client } from '../support/client.js';
import { enc } from '../support/client.js';
import { storagesConfig, upload } from '../support/files.js';
import { EX, schemaPayload, thing, unique } from '../support/schemas.js';

const NXV = 'https://bluebrain.github.io/nexus/vocabulary/';

type Nexus = ReturnType<typeof createNexusClient>;
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/**
 * The real client of the public system, `@bbp/nexus-sdk` 1.3.15, unchanged, against the running
 * server: what its users' applications call on views, resolvers and archives. Shapes checked are
 * those of Delta 1.10 and of the sdk's own types.
 */
describe('@bbp/nexus-sdk 1.3.15 drives views, resolvers and archives', function () {
  this.timeout(60_000);
  let api: ReturnType<typeof client>;
  let base = '';
  let nexus: Nexus;
  const { config } = storagesConfig();
  serve(
    (s, a) => {
      api = a;
      base = s.url;
    },
    { storages: config },
  );
  const org = unique('sdk');
  const schemaId = `${EX}schemas/${unique('person')}`;

  before(async () => {
    nexus = createNexusClient({ uri: `${base}/v1` });
    await nexus.Organization.create(org, { description: 'sdk' });
    for (const label of ['main', 'shared']) await nexus.Project.create(org, label, { description: label });
    expect((await api.post(`/v1/schemas/${org}/main`, schemaPayload(schemaId, 'Person', { name: { datatype: 'xsd:string', minCount: 1 } }))).status).to.equal(
      201,
    );
    for (const name of ['ann', 'bob']) {
      const created = await api.put(`/v1/resources/${org}/main/${enc(schemaId)}/${enc(`${EX}${name}`)}`, thing('Person', { name }));
      expect(created.status, created.text).to.equal(201);
    }
    // A Person not constrained by the schema: the views filtered to it leave it out.
    expect((await api.put(`/v1/resources/${org}/main/_/${enc(`${EX}cid`)}`, thing('Person', { name: 'cid' }))).status).to.equal(201);
  });

  it('views: an ElasticSearchView filtered to a schema and a SparqlView, queried, listed, fetched, tagged and deprecated', async () => {
    const esId = `${NXV}${unique('people')}`;
    const created: Json = await nexus.View.create(org, 'main', {
      '@id': esId,
      '@type': ['ElasticSearchView'],
      mapping: { properties: { [`${EX}name`]: { type: 'keyword' } } },
      resourceSchemas: [schemaId],
      includeMetadata: true,
    });
    expect(created).to.include({ '@id': esId, _rev: 1, _deprecated: false });

    const found: Json = await nexus.View.elasticSearchQuery(
      org,
      'main',
      enc(esId),
      { query: { match_all: {} }, sort: [{ '@id.keyword': 'asc' }] },
      { from: 0, size: 10 },
    );
    expect(found.hits.total.value).to.equal(2);
    expect(found.hits.hits.map((h: Json) => h._id)).to.deep.equal([`${EX}ann`, `${EX}bob`]);
    expect(found.hits.hits[0]._source).to.include({ '@id': 'ex:ann', _constrainedBy: schemaId });
    const paged: Json = await nexus.View.elasticSearchQuery(org, 'main', enc(esId), { sort: [{ '@id.keyword': 'asc' }] }, { from: 1, size: 1 });
    expect(paged.hits.hits.map((h: Json) => h._id)).to.deep.equal([`${EX}bob`]);

    const sparqlId = `${NXV}${unique('graph')}`;
    await nexus.View.create(org, 'main', { '@id': sparqlId, '@type': ['SparqlView'], resourceSchemas: [schemaId] });
    const query = `SELECT ?s WHERE { ?s a <${EX}Person> } ORDER BY ?s`;
    const bindings = (r: Json) => r.results.bindings.map((b: Json) => b.s.value);
    expect(bindings(await nexus.View.sparqlQuery(org, 'main', enc(sparqlId), query))).to.deep.equal([`${EX}ann`, `${EX}bob`]);
    // The project's default SPARQL view holds every resource.
    expect(bindings(await nexus.View.sparqlQuery(org, 'main', 'nxv:defaultSparqlIndex', query))).to.deep.equal([`${EX}ann`, `${EX}bob`, `${EX}cid`]);

    const listed: Json = await nexus.View.list(org, 'main');
    expect(listed._total).to.equal(4);
    const fetched: Json = await nexus.View.get(org, 'main', enc(esId));
    expect(fetched['@type']).to.include('ElasticSearchView');
    expect(fetched.resourceSchemas).to.deep.equal([schemaId]);
    const tagged: Json = await nexus.View.tag(org, 'main', enc(esId), 1, { tag: 'v1', rev: 1 });
    expect(tagged._rev).to.equal(2);
    expect(((await nexus.View.get(org, 'main', enc(esId), { tag: 'v1' })) as Json)._rev).to.equal(1);
    const statistics: Json = await nexus.View.statistics(org, 'main', enc(esId));
    expect(statistics).to.include({ '@type': 'ViewStatistics', remainingEvents: 0 });
    const deprecated: Json = await nexus.View.deprecate(org, 'main', enc(esId), 2);
    expect(deprecated).to.include({ _rev: 3, _deprecated: true });
    const refused = await nexus.View.elasticSearchQuery(org, 'main', enc(esId), {}).catch((e: Json) => e);
    expect(refused['@type']).to.equal('ViewIsDeprecated');
  });

  it('resolvers: a CrossProject resolver created, listed, tagged and resolving a resource of another project', async () => {
    const thingId = `${EX}${unique('shared')}`;
    expect((await api.put(`/v1/resources/${org}/shared/_/${enc(thingId)}`, { '@context': { '@vocab': EX }, '@type': 'Gadget', size: 3 })).status).to.equal(201);
    const missing = await nexus.Resolver.getResource(org, 'main', '_', enc(thingId)).catch((e: Json) => e);
    expect(missing['@type']).to.equal('InvalidResolution');

    const resolverId = `${NXV}${unique('toShared')}`;
    const created: Json = await nexus.Resolver.create(org, 'main', {
      '@id': resolverId,
      '@type': ['CrossProject'],
      projects: [`${org}/shared`],
      resourceTypes: [],
      identities: [{ '@id': `${base}/v1/anonymous`, '@type': 'Anonymous' }],
      priority: 50,
    });
    expect(created).to.include({ '@id': resolverId, _rev: 1 });
    const listed: Json = await nexus.Resolver.list(org, 'main');
    expect(listed._total).to.equal(2);
    const fetched: Json = await nexus.Resolver.get(org, 'main', enc(resolverId));
    expect(fetched).to.deep.include({ priority: 50, projects: [`${org}/shared`] });

    const resolved: Json = await nexus.Resolver.getResource(org, 'main', '_', enc(thingId));
    expect(resolved).to.include({ '@id': thingId, _project: `${org}/shared` });
    const through: Json = await nexus.Resolver.getResource(org, 'main', enc(resolverId), enc(thingId));
    expect(through['@id']).to.equal(thingId);
    const report: Json = await nexus.Resolver.getResource(org, 'main', '_', enc(thingId), { showReport: true });
    expect(report.history.map((h: Json) => h.success)).to.deep.equal([false, true]);

    const tagged: Json = await nexus.Resolver.tag(org, 'main', enc(resolverId), 1, { tag: 'v1', rev: 1 });
    expect(tagged._rev).to.equal(2);
    expect(((await nexus.Resolver.get(org, 'main', enc(resolverId), { tag: 'v1' })) as Json)._rev).to.equal(1);
    const deprecated: Json = await nexus.Resolver.deprecate(org, 'main', enc(resolverId), 2);
    expect(deprecated).to.include({ _rev: 3, _deprecated: true });
    expect(((await nexus.Resolver.getResource(org, 'main', '_', enc(thingId)).catch((e: Json) => e)) as Json)['@type']).to.equal('InvalidResolution');
  });

  it('archives: created with resources and a file, described, downloaded as a tar', async () => {
    expect((await upload(`${base}/v1/files/${org}/shared/notes`, 'PUT', 'some notes', 'notes.txt', 'text/plain')).status).to.equal(201);
    const archiveId = unique('bundle');
    const created = (await nexus.Archive.create(org, 'main', {
      archiveId,
      resources: [
        { '@type': 'Resource', resourceId: `${EX}ann`, path: 'people/ann.json' },
        { '@type': 'Resource', resourceId: `${EX}bob`, rev: 1, originalSource: true },
        { '@type': 'File', resourceId: 'notes', project: `${org}/shared`, path: 'files/notes.txt' },
      ],
    })) as Json;
    // As in Delta, the id segment expands against the project's base.
    expect(created['@id']).to.match(new RegExp(`/${archiveId}$`));
    expect(created._self).to.equal(`${base}/v1/archives/${org}/main/${enc(created['@id'])}`);
    const described = (await nexus.Archive.get(org, 'main', archiveId)) as Json;
    expect(described['@type']).to.equal('Archive');
    expect(described.resources).to.have.length(3);
    const blob = (await nexus.Archive.get(org, 'main', archiveId, { as: 'x-tar' })) as Blob;
    const dir = mkdtempSync(join(tmpdir(), 'sdk-archive-'));
    writeFileSync(join(dir, 'a.tar'), Buffer.from(await blob.arrayBuffer()));
    execFileSync('tar', ['-xf', 'a.tar'], { cwd: dir });
    expect(readFileSync(join(dir, 'files/notes.txt'), 'utf8')).to.equal('some notes');
    expect(JSON.parse(readFileSync(join(dir, 'people/ann.json'), 'utf8'))).to.include({ '@id': 'ex:ann', 'ex:name': 'ann' });
    const listing = execFileSync('tar', ['-tf', 'a.tar'], { cwd: dir, encoding: 'utf8' }).trim().split('\n');
    expect(listing).to.have.length(3);
  });
});
