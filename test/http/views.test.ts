import { expect } from 'chai';
import { serve, startServer } from '../support/server.js';
import { client } from '../support/client.js';
import type { Reply } from '../support/client.js';
import { enc } from '../support/client.js';
import { openStream } from '../support/sse.js';
import { EX, freshProject, schemaPayload } from '../support/schemas.js';

const NXV = 'https://bluebrain.github.io/nexus/vocabulary/';
const DEFAULT_ES = `${NXV}defaultElasticSearchIndex`;
const DEFAULT_SPARQL = `${NXV}defaultSparqlIndex`;
const CTX = 'https://bluebrain.github.io/nexus/contexts/';

const expectRejected = async (reply: Promise<Reply>, status: number, type: string) => {
  const r = await reply;
  expect([r.status, r.body?.['@type']], r.text).to.deep.equal([status, type]);
  return r;
};

/** Facts from Delta 1.10 (views/*.md, assets/views/*, ElasticSearchViewRejection.scala, the sse test resources). */
describe('views (Delta 1.10 views API)', function () {
  this.timeout(30_000);
  let api: ReturnType<typeof client>;
  let base = '';
  serve((s, a) => {
    api = a;
    base = s.url;
  });
  const thing = (id: string, type: string, fields: Record<string, unknown> = {}) => ({
    '@context': { '@vocab': EX },
    '@id': `${EX}${id}`,
    '@type': type,
    ...fields,
  });
  const esView = (extra: Record<string, unknown> = {}) => ({ '@type': 'ElasticSearchView', mapping: { properties: { name: { type: 'keyword' } } }, ...extra });
  const search = (p: string, view: string, body: unknown) => api.post(`/v1/views/${p}/${view}/_search`, body);
  const sparql = (p: string, view: string, query: string) => api.post(`/v1/views/${p}/${view}/sparql`, query, { 'content-type': 'text/plain' });

  it('creates nxv:defaultElasticSearchIndex and nxv:defaultSparqlIndex with each project, which cannot be written', async () => {
    const p = await freshProject(api);
    const es = await api.get(`/v1/views/${p}/${enc(DEFAULT_ES)}`);
    expect(es.status, es.text).to.equal(200);
    expect(es.body).to.include({ '@id': DEFAULT_ES, _rev: 1, _deprecated: false, permission: 'views/query' });
    expect(es.body['@type']).to.deep.equal(['ElasticSearchView', 'View']);
    expect(es.body['@context']).to.deep.equal([`${CTX}elasticsearch.json`, `${CTX}metadata.json`]);
    const sq = await api.get(`/v1/views/${p}/nxv:defaultSparqlIndex`);
    expect(sq.body['@type']).to.deep.equal(['SparqlView', 'View']);
    expect(sq.body['@context']).to.deep.equal([`${CTX}sparql.json`, `${CTX}metadata.json`]);
    expect((await api.get(`/v1/views/${p}`)).body._total).to.equal(2);
    await expectRejected(api.delete(`/v1/views/${p}/nxv:defaultSparqlIndex?rev=1`), 403, 'ViewIsDefaultView');
    await expectRejected(api.put(`/v1/views/${p}/nxv:defaultElasticSearchIndex?rev=1`, esView()), 403, 'ViewIsDefaultView');
  });

  it('runs the lifecycle: create by PUT and POST, update, tag, fetch by rev and tag, source, list, deprecate, undeprecate', async () => {
    const p = await freshProject(api);
    const payload = esView({ resourceTypes: [`${EX}Cell`], includeMetadata: true });
    const created = await api.put(`/v1/views/${p}/nxv:myview`, payload);
    expect(created.status, created.text).to.equal(201);
    expect(created.body).to.include({ '@id': `${NXV}myview`, _rev: 1, _deprecated: false, _self: `${base}/v1/views/${p}/${enc(`${NXV}myview`)}` });
    expect(created.body['@type']).to.deep.equal(['ElasticSearchView', 'View']);
    expect(created.body['@context']).to.deep.equal([`${CTX}elasticsearch-metadata.json`, `${CTX}metadata.json`]);
    expect(created.body._constrainedBy).to.equal('https://bluebrain.github.io/nexus/schemas/views.json');
    const fetched = await api.get(`/v1/views/${p}/nxv:myview`);
    expect(fetched.body).to.deep.include({
      resourceSchemas: [],
      resourceTypes: [`${EX}Cell`],
      includeMetadata: true,
      includeDeprecated: false,
      permission: 'views/query',
      sourceAsText: false,
      mapping: payload.mapping,
      pipeline: [],
    });
    expect((await api.get(`/v1/views/${p}/nxv:myview/source`)).body).to.deep.equal(payload);
    const posted = await api.post(`/v1/views/${p}`, { '@type': 'SparqlView' });
    expect(posted.status, posted.text).to.equal(201);
    expect(posted.body['@type']).to.deep.equal(['SparqlView', 'View']);
    expect(posted.body['@context']).to.deep.equal([`${CTX}sparql-metadata.json`, `${CTX}metadata.json`]);
    const updated = await api.put(`/v1/views/${p}/nxv:myview?rev=1`, esView({ resourceTag: 'v1' }));
    expect(updated.status, updated.text).to.equal(200);
    expect(updated.body._rev).to.equal(2);
    expect((await api.post(`/v1/views/${p}/nxv:myview/tags?rev=2`, { tag: 'first', rev: 1 })).status).to.equal(201);
    expect((await api.get(`/v1/views/${p}/nxv:myview?tag=first`)).body.resourceTypes).to.deep.equal([`${EX}Cell`]);
    expect((await api.get(`/v1/views/${p}/nxv:myview?rev=2`)).body.resourceTag).to.equal('v1');
    expect((await api.get(`/v1/views/${p}/nxv:myview/tags`)).body.tags).to.deep.equal([{ rev: 1, tag: 'first' }]);
    expect((await api.get(`/v1/views/${p}`)).body._total).to.equal(4);
    await expectRejected(api.put(`/v1/views/${p}/nxv:myview/undeprecate?rev=3`), 400, 'ViewIsNotDeprecated');
    const deprecated = await api.delete(`/v1/views/${p}/nxv:myview?rev=3`);
    expect(deprecated.body).to.include({ _rev: 4, _deprecated: true });
    await expectRejected(api.put(`/v1/views/${p}/nxv:myview?rev=4`, esView()), 400, 'ViewIsDeprecated');
    await expectRejected(search(p, 'nxv:myview', {}), 400, 'ViewIsDeprecated');
    const undeprecated = await api.put(`/v1/views/${p}/nxv:myview/undeprecate?rev=4`);
    expect(undeprecated.status, undeprecated.text).to.equal(200);
    expect(undeprecated.body).to.include({ _rev: 5, _deprecated: false });
  });

  it('refuses bad payloads, ids, revisions and types with Delta’s rejections', async () => {
    const p = await freshProject(api);
    expect((await api.put(`/v1/views/${p}/nxv:v`, esView())).status).to.equal(201);
    await expectRejected(api.put(`/v1/views/${p}/nxv:v`, esView()), 409, 'ResourceAlreadyExists');
    await expectRejected(api.put(`/v1/views/${p}/nxv:v?rev=7`, esView()), 409, 'IncorrectRev');
    await expectRejected(api.put(`/v1/views/${p}/nxv:v?rev=1`, { '@type': 'SparqlView' }), 400, 'DifferentViewType');
    await expectRejected(api.get(`/v1/views/${p}/nxv:nothing`), 404, 'ViewNotFound');
    await expectRejected(api.get(`/v1/views/${p}/nxv:v?rev=9`), 404, 'RevisionNotFound');
    await expectRejected(api.put(`/v1/views/${p}/x`, { '@type': 'Nope' }), 400, 'DecodingFailed');
    await expectRejected(api.put(`/v1/views/${p}/x`, esView({ includeDeprecated: 'yes' })), 400, 'DecodingFailed');
    // A CURIE whose suffix no IRI may hold: refused before the append, never a revision graph the store refuses.
    await expectRejected(api.put(`/v1/views/${p}/x`, esView({ resourceTypes: ['nxv:a<b'] })), 400, 'DecodingFailed');
    await expectRejected(api.put(`/v1/views/${p}/x`, esView({ pipeline: [{ name: 'filterDeprecated' }] })), 400, 'DecodingFailed');
    await expectRejected(api.put(`/v1/views/${p}/x`, esView({ permission: 'not/defined' })), 400, 'PermissionIsNotDefined');
    await expectRejected(api.put(`/v1/views/${p}/x`, esView({ mapping: { dynamic: false, properties: {} } })), 400, 'InvalidElasticSearchIndexPayload');
    await expectRejected(
      api.put(`/v1/views/${p}/x`, esView({ mapping: { properties: { n: { type: 'text', analyzer: 'nexus' } } } })),
      400,
      'InvalidElasticSearchIndexPayload',
    );
    await expectRejected(
      api.put(`/v1/views/${p}/x`, esView({ mapping: { properties: { n: { type: 'geo_point' } } } })),
      400,
      'InvalidElasticSearchIndexPayload',
    );
    await expectRejected(
      api.put(`/v1/views/${p}/x`, { '@type': 'AggregateSparqlView', views: [{ project: p, viewId: 'nxv:none' }] }),
      400,
      'InvalidViewReferences',
    );
    await expectRejected(
      api.put(`/v1/views/${p}/x`, { '@type': 'AggregateSparqlView', views: [{ project: p, viewId: 'nxv:v' }] }),
      400,
      'InvalidViewReferences',
    );
    const many = Array.from({ length: 21 }, (_, i) => ({ project: p, viewId: `nxv:v${i}` }));
    await expectRejected(api.put(`/v1/views/${p}/x`, { '@type': 'AggregateElasticSearchView', views: many }), 400, 'TooManyViewReferences');
    await expectRejected(api.get(`/v1/views/${p}/${enc('a<b')}`), 400, 'InvalidViewId');
    await expectRejected(api.put(`/v1/views/${p}/x`, ['not an object']), 400, 'MalformedRequestContentRejection');
    expect((await api.get(`/v1/views/${p}/x`)).status).to.equal(404);
  });

  it('streams ElasticSearchView… and BlazegraphView… events as Delta renders them', async () => {
    const p = await freshProject(api);
    expect((await api.put(`/v1/views/${p}/nxv:s`, esView())).status).to.equal(201);
    expect((await api.post(`/v1/views/${p}/nxv:s/tags?rev=1`, { tag: 't', rev: 1 })).status).to.equal(201);
    expect((await api.delete(`/v1/views/${p}/nxv:s?rev=2`)).status).to.equal(200);
    expect((await api.put(`/v1/views/${p}/nxv:s/undeprecate?rev=3`)).status).to.equal(200);
    const stream = await openStream(`${base}/v1/views/${p}/events`);
    try {
      const events = await stream.take(6);
      expect(events.map((e) => e.event)).to.deep.equal([
        'ElasticSearchViewCreated',
        'BlazegraphViewCreated',
        'ElasticSearchViewCreated',
        'ElasticSearchViewTagAdded',
        'ElasticSearchViewDeprecated',
        'ElasticSearchViewUndeprecated',
      ]);
      const created = JSON.parse(events[2]!.data);
      expect(created).to.include({ '@type': 'ElasticSearchViewCreated', _viewId: `${NXV}s`, _resourceId: `${NXV}s`, _rev: 1, _project: p });
      expect(created._types).to.deep.equal([`${NXV}View`, `${NXV}ElasticSearchView`]);
      expect(created._source).to.deep.equal(esView());
    } finally {
      stream.close();
    }
  });

  it('indexes what a user-defined Elasticsearch view selects (types, schema, tag, deprecated, metadata), then follows the log, and searches it', async () => {
    const p = await freshProject(api);
    expect((await api.put(`/v1/resources/${p}/_/${enc(`${EX}c1`)}`, thing('c1', 'Cell', { name: 'alpha' }))).status).to.equal(201);
    expect((await api.put(`/v1/resources/${p}/_/${enc(`${EX}n1`)}`, thing('n1', 'Neuron', { name: 'beta' }))).status).to.equal(201);
    expect((await api.put(`/v1/views/${p}/nxv:cells`, esView({ resourceTypes: [`${EX}Cell`] }))).status).to.equal(201);
    expect(
      (await api.put(`/v1/views/${p}/nxv:withmeta`, esView({ resourceTypes: [`${EX}Cell`], includeMetadata: true, includeDeprecated: true }))).status,
    ).to.equal(201);
    expect((await api.put(`/v1/views/${p}/nxv:tagged`, esView({ resourceTag: 'pub' }))).status).to.equal(201);
    // After the views exist: followed from the log.
    expect((await api.put(`/v1/resources/${p}/_/${enc(`${EX}c2`)}`, thing('c2', 'Cell', { name: 'gamma' }))).status).to.equal(201);
    const all = await search(p, 'nxv:cells', { query: { match_all: {} }, sort: [{ '@id.keyword': 'asc' }] });
    expect(all.status, all.text).to.equal(200);
    expect(all.body.hits.total.value).to.equal(2);
    expect(all.body.hits.hits.map((h: { _id: string }) => h._id)).to.deep.equal([`${EX}c1`, `${EX}c2`]);
    // Without metadata and without @context, as Delta strips it.
    expect(all.body.hits.hits[0]._source).to.not.have.property('_rev');
    expect(all.body.hits.hits[0]._source).to.not.have.property('@context');
    const term = await search(p, 'nxv:cells', { query: { term: { 'name.keyword': 'gamma' } } });
    expect(term.body.hits.hits.map((h: { _id: string }) => h._id)).to.deep.equal([`${EX}c2`]);
    expect((await search(p, 'nxv:withmeta', { query: { term: { _rev: 1 } } })).body.hits.total.value).to.equal(2);
    // A deprecated resource leaves the view that excludes them, stays in the other.
    expect((await api.delete(`/v1/resources/${p}/_/${enc(`${EX}c1`)}?rev=1`)).status).to.equal(200);
    expect((await search(p, 'nxv:cells', {})).body.hits.total.value).to.equal(1);
    const kept = await search(p, 'nxv:withmeta', { query: { term: { _deprecated: true } } });
    expect(kept.body.hits.hits.map((h: { _id: string }) => h._id)).to.deep.equal([`${EX}c1`]);
    // The tagged view holds the tagged revision only, once tagged.
    expect((await search(p, 'nxv:tagged', {})).body.hits.total.value).to.equal(0);
    expect((await api.put(`/v1/resources/${p}/_/${enc(`${EX}n1`)}?rev=1`, thing('n1', 'Neuron', { name: 'beta2' }))).status).to.equal(200);
    expect((await api.post(`/v1/resources/${p}/_/${enc(`${EX}n1`)}/tags?rev=2`, { tag: 'pub', rev: 1 })).status).to.equal(201);
    const tagged = await search(p, 'nxv:tagged', {});
    expect(tagged.body.hits.hits.map((h: { _source: { name: string } }) => h._source.name)).to.deep.equal(['beta']);
    // An update re-indexes under the new filters.
    expect((await api.put(`/v1/views/${p}/nxv:cells?rev=1`, esView({ resourceTypes: [`${EX}Neuron`] }))).status).to.equal(200);
    expect((await search(p, 'nxv:cells', {})).body.hits.hits.map((h: { _id: string }) => h._id)).to.deep.equal([`${EX}n1`]);
    await expectRejected(search(p, 'nxv:cells', { query: { nope: {} } }), 400, 'UnsupportedSearchConstruct');
  });

  it('honours a mapping’s keyword fields and selects by schema', async () => {
    const p = await freshProject(api);
    const schema = `${EX}schemas/cell`;
    const shape = schemaPayload(schema, 'Cell', {});
    expect((await api.put(`/v1/schemas/${p}/${enc(schema)}`, shape)).status).to.equal(201);
    expect((await api.put(`/v1/resources/${p}/${enc(schema)}/${enc(`${EX}k1`)}`, thing('k1', 'Cell', { name: 'big cell' }))).status).to.equal(201);
    expect((await api.put(`/v1/resources/${p}/_/${enc(`${EX}k2`)}`, thing('k2', 'Cell', { name: 'big' }))).status).to.equal(201);
    const mapping = { properties: { '@id': { type: 'keyword' }, name: { type: 'keyword' } } };
    expect((await api.put(`/v1/views/${p}/nxv:kw`, esView({ mapping, resourceTypes: [`${EX}Cell`] }))).status).to.equal(201);
    expect((await api.put(`/v1/views/${p}/nxv:byschema`, esView({ resourceSchemas: [schema] }))).status).to.equal(201);
    const exact = await search(p, 'nxv:kw', { query: { term: { name: 'big' } }, sort: ['@id'] });
    expect(exact.status, exact.text).to.equal(200);
    expect(exact.body.hits.hits.map((h: { _id: string }) => h._id)).to.deep.equal([`${EX}k2`]);
    const sorted = await search(p, 'nxv:kw', { sort: [{ '@id': 'desc' }] });
    expect(sorted.body.hits.hits.map((h: { _id: string }) => h._id)).to.deep.equal([`${EX}k2`, `${EX}k1`]);
    const bySchema = await search(p, 'nxv:byschema', {});
    expect(bySchema.body.hits.hits.map((h: { _id: string }) => h._id)).to.deep.equal([`${EX}k1`]);
  });

  it('answers the default Elasticsearch view with the project’s search, and refuses _search on SPARQL views', async () => {
    const p = await freshProject(api);
    expect((await api.put(`/v1/resources/${p}/_/${enc(`${EX}d1`)}`, thing('d1', 'Cell', { name: 'delta' }))).status).to.equal(201);
    const found = await search(p, 'nxv:defaultElasticSearchIndex', { query: { match: { name: 'delta' } } });
    expect(found.status, found.text).to.equal(200);
    expect(found.body.hits.hits.map((h: { _id: string }) => h._id)).to.deep.equal([`${EX}d1`]);
    await expectRejected(search(p, 'nxv:defaultSparqlIndex', {}), 404, 'ViewNotFound');
    await expectRejected(search(p, 'nxv:missing', {}), 404, 'ViewNotFound');
  });

  it('queries a SPARQL view over the head graphs it selects (GET, POST as text/plain or sparql-query), the default one over the project', async () => {
    const p = await freshProject(api);
    expect((await api.put(`/v1/resources/${p}/_/${enc(`${EX}s1`)}`, thing('s1', 'Cell', { name: 'one' }))).status).to.equal(201);
    expect((await api.put(`/v1/resources/${p}/_/${enc(`${EX}s2`)}`, thing('s2', 'Neuron', { name: 'two' }))).status).to.equal(201);
    expect((await api.put(`/v1/views/${p}/nxv:cellgraph`, { '@type': 'SparqlView', resourceTypes: [`${EX}Cell`] })).status).to.equal(201);
    expect((await api.put(`/v1/resources/${p}/_/${enc(`${EX}s3`)}`, thing('s3', 'Cell', { name: 'three' }))).status).to.equal(201);
    const q = `SELECT ?n WHERE { ?s <${EX}name> ?n } ORDER BY ?n`;
    const names = (r: Reply) => r.body.results.bindings.map((b: { n: { value: string } }) => b.n.value);
    const viaText = await sparql(p, 'nxv:cellgraph', q);
    expect(viaText.status, viaText.text).to.equal(200);
    expect(names(viaText)).to.deep.equal(['one', 'three']);
    expect(names(await api.get(`/v1/views/${p}/nxv:cellgraph/sparql?query=${enc(q)}`))).to.deep.equal(['one', 'three']);
    expect(names(await api.post(`/v1/views/${p}/nxv:cellgraph/sparql`, q, { 'content-type': 'application/sparql-query' }))).to.deep.equal(['one', 'three']);
    // An update moves the item's head: the view reads the new one.
    expect((await api.put(`/v1/resources/${p}/_/${enc(`${EX}s1`)}?rev=1`, thing('s1', 'Cell', { name: 'uno' }))).status).to.equal(200);
    expect(names(await sparql(p, 'nxv:cellgraph', q))).to.deep.equal(['three', 'uno']);
    // The default view (and its alias `graph`) is the project's whole dataset, as before.
    expect(names(await sparql(p, 'graph', q))).to.deep.equal(['three', 'two', 'uno']);
    expect(names(await sparql(p, 'nxv:defaultSparqlIndex', q))).to.deep.equal(['three', 'two', 'uno']);
    await expectRejected(sparql(p, 'nxv:nothing', q), 404, 'ViewNotFound');
    expect((await api.put(`/v1/views/${p}/nxv:es`, esView())).status).to.equal(201);
    await expectRejected(sparql(p, 'nxv:es', q), 404, 'ViewNotFound');
    expect((await api.delete(`/v1/views/${p}/nxv:cellgraph?rev=1`)).status).to.equal(200);
    await expectRejected(sparql(p, 'nxv:cellgraph', q), 400, 'ViewIsDeprecated');
  });

  it('queries aggregate views through their members, only those whose permission the caller holds', async () => {
    const perms = await api.get('/v1/permissions');
    const added = await api.put(`/v1/permissions?rev=${perms.body._rev}`, { permissions: [...perms.body.permissions, 'secret/query'] });
    expect(added.status, added.text).to.equal(200);
    const p1 = await freshProject(api);
    const p2 = await freshProject(api);
    expect((await api.put(`/v1/resources/${p1}/_/${enc(`${EX}a1`)}`, thing('a1', 'Cell', { name: 'from1' }))).status).to.equal(201);
    expect((await api.put(`/v1/resources/${p2}/_/${enc(`${EX}a2`)}`, thing('a2', 'Cell', { name: 'from2' }))).status).to.equal(201);
    expect((await api.put(`/v1/views/${p2}/nxv:cells`, esView({ resourceTypes: [`${EX}Cell`] }))).status).to.equal(201);
    expect((await api.put(`/v1/views/${p2}/nxv:secret`, esView({ permission: 'secret/query' }))).status).to.equal(201);
    expect((await api.put(`/v1/views/${p2}/nxv:secretgraph`, { '@type': 'SparqlView', permission: 'secret/query' })).status).to.equal(201);
    const members = [
      { project: p1, viewId: 'nxv:defaultElasticSearchIndex' },
      { project: p2, viewId: `${NXV}cells` },
    ];
    const agg = await api.put(`/v1/views/${p1}/nxv:agg`, { '@type': 'AggregateElasticSearchView', views: members });
    expect(agg.status, agg.text).to.equal(201);
    expect((await api.get(`/v1/views/${p1}/nxv:agg`)).body.views).to.deep.equal(members);
    const ids = (r: Reply) => r.body.hits.hits.map((h: { _id: string }) => h._id).sort();
    const found = await search(p1, 'nxv:agg', { query: { match_all: {} } });
    expect(found.status, found.text).to.equal(200);
    expect(ids(found)).to.deep.equal([`${EX}a1`, `${EX}a2`]);
    // A member needing a permission the caller lacks is left out; none left: AuthorizationFailed.
    await expectRejected(search(p2, 'nxv:secret', {}), 403, 'AuthorizationFailed');
    expect(
      (await api.put(`/v1/views/${p1}/nxv:agg2`, { '@type': 'AggregateElasticSearchView', views: [...members, { project: p2, viewId: 'nxv:secret' }] })).status,
    ).to.equal(201);
    expect(ids(await search(p1, 'nxv:agg2', {}))).to.deep.equal([`${EX}a1`, `${EX}a2`]);
    expect(
      (await api.put(`/v1/views/${p1}/nxv:onlysecret`, { '@type': 'AggregateElasticSearchView', views: [{ project: p2, viewId: 'nxv:secret' }] })).status,
    ).to.equal(201);
    await expectRejected(search(p1, 'nxv:onlysecret', {}), 403, 'AuthorizationFailed');
    // SPARQL aggregates: each member's answer, concatenated.
    const sq = await api.put(`/v1/views/${p1}/nxv:sagg`, {
      '@type': 'AggregateSparqlView',
      views: [
        { project: p1, viewId: 'graph' },
        { project: p2, viewId: 'nxv:defaultSparqlIndex' },
        { project: p2, viewId: 'nxv:secretgraph' },
      ],
    });
    expect(sq.status, sq.text).to.equal(400);
    const sq2 = await api.put(`/v1/views/${p1}/nxv:sagg`, {
      '@type': 'AggregateSparqlView',
      views: [
        { project: p1, viewId: 'nxv:defaultSparqlIndex' },
        { project: p2, viewId: 'nxv:defaultSparqlIndex' },
        { project: p2, viewId: 'nxv:secretgraph' },
      ],
    });
    expect(sq2.status, sq2.text).to.equal(201);
    const rows = await sparql(p1, 'nxv:sagg', `SELECT ?n WHERE { ?s <${EX}name> ?n }`);
    expect(rows.status, rows.text).to.equal(200);
    expect(rows.body.results.bindings.map((b: { n: { value: string } }) => b.n.value).sort()).to.deep.equal(['from1', 'from2']);
    await expectRejected(sparql(p2, 'nxv:secretgraph', 'SELECT * WHERE { ?s ?p ?o }'), 403, 'AuthorizationFailed');
    // An aggregate is not searched by the other family's endpoint.
    await expectRejected(search(p1, 'nxv:sagg', {}), 404, 'ViewNotFound');
  });

  it('reports statistics and offsets of a view’s projection, and restarts it (DELETE offset)', async () => {
    const p = await freshProject(api);
    expect((await api.put(`/v1/resources/${p}/_/${enc(`${EX}o1`)}`, thing('o1', 'Cell'))).status).to.equal(201);
    expect((await api.put(`/v1/views/${p}/nxv:v`, esView({ resourceTypes: [`${EX}Cell`] }))).status).to.equal(201);
    expect((await api.put(`/v1/resources/${p}/_/${enc(`${EX}o2`)}`, thing('o2', 'Other'))).status).to.equal(201);
    expect((await search(p, 'nxv:v', {})).body.hits.total.value).to.equal(1);
    const stats = await api.get(`/v1/views/${p}/nxv:v/statistics`);
    expect(stats.status, stats.text).to.equal(200);
    expect(stats.body).to.include({ '@context': `${CTX}statistics.json`, '@type': 'ViewStatistics', remainingEvents: 0, failedEvents: 0 });
    expect(stats.body.evaluatedEvents).to.be.greaterThan(0);
    expect(stats.body.discardedEvents).to.be.greaterThan(0);
    expect(stats.body.totalEvents).to.equal(stats.body.processedEvents);
    const offset = await api.get(`/v1/views/${p}/nxv:v/offset`);
    expect(offset.body).to.include({ '@context': `${CTX}offset.json`, '@type': 'At' });
    expect(offset.body.value).to.be.a('number');
    const restarted = await api.delete(`/v1/views/${p}/nxv:v/offset`);
    expect(restarted.status, restarted.text).to.equal(200);
    expect(restarted.body).to.deep.equal({ '@context': `${CTX}offset.json`, '@type': 'Start' });
    expect((await search(p, 'nxv:v', {})).body.hits.total.value).to.equal(1);
    // The default views count the project's events: 2 resources and the view's 1 event, every one evaluated.
    for (const view of ['nxv:defaultElasticSearchIndex', 'nxv:defaultSparqlIndex']) {
      const own = await api.get(`/v1/views/${p}/${view}/statistics`);
      expect(own.status, own.text).to.equal(200);
      expect(own.body).to.include({ '@type': 'ViewStatistics', discardedEvents: 0, failedEvents: 0 });
      expect(own.body.processedEvents + own.body.remainingEvents).to.equal(own.body.totalEvents);
      expect(own.body.totalEvents).to.be.at.least(3);
      expect(own.body.evaluatedEvents).to.equal(own.body.processedEvents);
      expect(own.body.lastEventDateTime).to.be.a('string');
      expect((await api.get(`/v1/views/${p}/${view}/offset`)).body['@type']).to.equal('At');
    }
    await expectRejected(api.get(`/v1/views/${p}/nxv:none/statistics`), 404, 'ViewNotFound');
    await expectRejected(api.delete(`/v1/views/${p}/nxv:none/offset`), 404, 'ViewNotFound');
    // The search API's project offset keeps its route.
    expect((await api.get(`/v1/views/${p}/search/offset`)).body._results[0].projectionId).to.equal(`${NXV}searchProjection`);
  });
});

describe('views: restarts', function () {
  this.timeout(60_000);
  it('indexes a user-defined view again from the states after a restart, and follows the log from there', async () => {
    let server = await startServer({});
    const dir = server.dataDir;
    try {
      let api = client(server.url);
      expect((await api.put('/v1/orgs/vr', {})).status).to.equal(201);
      expect((await api.put('/v1/projects/vr/p', {})).status).to.equal(201);
      const put = (id: string, type: string) =>
        api.put(`/v1/resources/vr/p/_/${enc(`${EX}${id}`)}`, { '@context': { '@vocab': EX }, '@id': `${EX}${id}`, '@type': type });
      expect((await put('r1', 'Cell')).status).to.equal(201);
      expect((await api.put('/v1/views/vr/p/nxv:cells', { '@type': 'ElasticSearchView', resourceTypes: [`${EX}Cell`] })).status).to.equal(201);
      expect((await api.put('/v1/views/vr/p/nxv:graph2', { '@type': 'SparqlView', resourceTypes: [`${EX}Cell`] })).status).to.equal(201);
      expect((await put('r2', 'Cell')).status).to.equal(201);
      await server.stop();
      server = await startServer({}, dir);
      api = client(server.url);
      expect((await put('r3', 'Cell')).status).to.equal(201);
      const hits = await api.post('/v1/views/vr/p/nxv:cells/_search', { sort: [{ '@id.keyword': 'asc' }] });
      expect(hits.status, hits.text).to.equal(200);
      expect(hits.body.hits.hits.map((h: { _id: string }) => h._id)).to.deep.equal([`${EX}r1`, `${EX}r2`, `${EX}r3`]);
      const rows = await api.post('/v1/views/vr/p/nxv:graph2/sparql', `SELECT ?s WHERE { ?s a <${EX}Cell> }`, { 'content-type': 'text/plain' });
      expect(rows.body.results.bindings).to.have.length(3);
    } finally {
      await server.stop(true);
    }
  });
});
