import { expect } from 'chai';
import { serve } from '../support/server.js';
import { client, enc } from '../support/client.js';
import { EX, freshProject } from '../support/schemas.js';

const NXV = 'https://bluebrain.github.io/nexus/vocabulary/';

/** Delta 1.12-M4: `GET /v1/views/{org}/{project}/{view_id}/status/{resourceId}` (elasticsearch-view-api.md, sparql-view-api.md). */
describe('the indexing status of one item in one view', function () {
  this.timeout(30_000);
  let api: ReturnType<typeof client>;
  serve((_s, a) => (api = a));
  const person = (id: string, type = 'Person') => ({ '@context': { '@vocab': EX }, '@id': `${EX}${id}`, '@type': type, name: id });
  const status = async (p: string, view: string, id: string) => {
    const r = await api.get(`/v1/views/${p}/${view}/status/${enc(id)}`);
    return [r.status, r.body] as const;
  };

  it('answers Completed for an indexed item in the default views and in a user-defined view that selects it, Discarded where one does not', async () => {
    const p = await freshProject(api);
    expect((await api.put(`/v1/views/${p}/nxv:people`, { '@type': 'ElasticSearchView', resourceTypes: [`${EX}Person`], mapping: {} })).status).to.equal(201);
    expect((await api.put(`/v1/views/${p}/nxv:cells`, { '@type': 'SparqlView', resourceTypes: [`${EX}Cell`] })).status).to.equal(201);
    expect((await api.put(`/v1/resources/${p}/_/${enc(`${EX}alice`)}`, person('alice'))).status).to.equal(201);
    for (const view of ['nxv:defaultElasticSearchIndex', enc(`${NXV}defaultSparqlIndex`), 'graph', 'nxv:people'])
      expect(await status(p, view, `${EX}alice`), view).to.deep.equal([200, { status: 'Completed' }]);
    expect(await status(p, 'nxv:cells', `${EX}alice`)).to.deep.equal([200, { status: 'Discarded' }]);
    // Any item of the project: a view is one too.
    expect(await status(p, 'nxv:defaultElasticSearchIndex', `${NXV}people`)).to.deep.equal([200, { status: 'Completed' }]);
    // An update the view's filters no longer select.
    expect((await api.put(`/v1/resources/${p}/_/${enc(`${EX}alice`)}?rev=1`, person('alice', 'Cell'))).status).to.equal(200);
    expect(await status(p, 'nxv:people', `${EX}alice`)).to.deep.equal([200, { status: 'Discarded' }]);
    expect(await status(p, 'nxv:cells', `${EX}alice`)).to.deep.equal([200, { status: 'Completed' }]);
  });

  it("resolves the resource's id as the project does (its base, its mappings)", async () => {
    const p = await freshProject(api, { base: EX, apiMappings: [{ prefix: 'ex', namespace: EX }] });
    expect((await api.put(`/v1/resources/${p}/_/bob`, person('bob'))).status).to.equal(201);
    expect(await status(p, 'graph', 'bob')).to.deep.equal([200, { status: 'Completed' }]);
    expect(await status(p, 'graph', 'ex:bob')).to.deep.equal([200, { status: 'Completed' }]);
  });

  it('refuses an unknown item (404 ResourceNotFound), an unknown view, an aggregate view and a deprecated one', async () => {
    const p = await freshProject(api);
    const rejected = async (view: string, id: string) => {
      const [code, body] = await status(p, view, id);
      return [code, body['@type']];
    };
    expect(await rejected('graph', `${EX}nobody`)).to.deep.equal([404, 'ResourceNotFound']);
    expect(await rejected('nxv:nothing', `${EX}nobody`)).to.deep.equal([404, 'ViewNotFound']);
    const agg = await api.put(`/v1/views/${p}/nxv:agg`, { '@type': 'AggregateSparqlView', views: [{ project: p, viewId: `${NXV}defaultSparqlIndex` }] });
    expect(agg.status, agg.text).to.equal(201);
    expect(await rejected('nxv:agg', `${NXV}agg`)).to.deep.equal([400, 'DifferentViewType']);
    expect((await api.put(`/v1/views/${p}/nxv:gone`, { '@type': 'SparqlView' })).status).to.equal(201);
    expect((await api.delete(`/v1/views/${p}/nxv:gone?rev=1`)).status).to.equal(200);
    expect(await rejected('nxv:gone', `${NXV}agg`)).to.deep.equal([400, 'ViewIsDeprecated']);
  });
});
