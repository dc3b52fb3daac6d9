import { expect } from 'chai';
import { serve } from '../support/server.js';
import type { client, Reply } from '../support/client.js';
import { enc } from '../support/client.js';
import { openStream } from '../support/sse.js';
import { EX, freshProject } from '../support/schemas.js';

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
});
