import { expect } from 'chai';
import { serve } from '../support/server.js';
import type { client, Reply } from '../support/client.js';
import { enc } from '../support/client.js';
import { freshProject } from '../support/schemas.js';

const NXV = 'https://bluebrain.github.io/nexus/vocabulary/';

const expectRejected = async (reply: Promise<Reply>, status: number, type: string) => {
  const r = await reply;
  expect([r.status, r.body?.['@type']], r.text).to.deep.equal([status, type]);
  return r;
};

/** The kinds whose services share their item steps (VersionedItems), each with a payload it accepts. */
const kinds = [
  { path: 'resolvers', noun: 'resolver', payload: (n: number) => ({ '@type': 'InProject', priority: 10 + n }), invalidId: 'InvalidResolverId' },
  { path: 'views', noun: 'view', payload: () => ({ '@type': 'SparqlView' }), invalidId: 'InvalidViewId' },
  { path: 'storages', noun: 'storage', payload: () => ({ '@type': 'DiskStorage', default: false }), invalidId: 'InvalidResourceId' },
];

/** The same steps, the same refusals, whatever the kind: each refusal leaves the item as it was. */
describe('item steps shared by resolvers, views and storages', function () {
  this.timeout(30_000);
  let api: ReturnType<typeof client>;
  serve((_s, a) => {
    api = a;
  });

  for (const kind of kinds) {
    it(`${kind.path}: refuses a payload that is not an object, a tag of a missing revision, a stale deprecation, an unknown tag`, async () => {
      const p = await freshProject(api);
      const at = (id: string) => `/v1/${kind.path}/${p}/${id}`;
      const refused = await expectRejected(api.put(at('nxv:a'), [kind.payload(0)]), 400, 'MalformedRequestContentRejection');
      expect(refused.body.reason).to.equal(`A ${kind.noun} payload must be a JSON object.`);
      await expectRejected(api.get(at('nxv:a')), 404, kind.path === 'views' ? 'ViewNotFound' : 'ResourceNotFound');
      expect((await api.put(at('nxv:a'), kind.payload(1))).status).to.equal(201);
      await expectRejected(api.put(at('nxv:a'), kind.payload(1)), 409, 'ResourceAlreadyExists');
      await expectRejected(api.get(at(enc('a<b'))), 400, kind.invalidId);
      await expectRejected(api.post(`${at('nxv:a')}/tags?rev=1`, { tag: 'later', rev: 2 }), 404, 'RevisionNotFound');
      await expectRejected(api.post(`${at('nxv:a')}/tags?rev=3`, { tag: 'later', rev: 1 }), 409, 'IncorrectRev');
      await expectRejected(api.delete(`${at('nxv:a')}?rev=2`), 409, 'IncorrectRev');
      await expectRejected(api.get(`${at('nxv:a')}?tag=none`), 404, 'TagNotFound');
      const unchanged = await api.get(at('nxv:a'));
      expect(unchanged.body).to.include({ '@id': `${NXV}a`, _rev: 1, _deprecated: false });
      expect((await api.post(`${at('nxv:a')}/tags?rev=1`, { tag: 'first', rev: 1 })).status).to.equal(201);
      expect((await api.get(`${at('nxv:a')}?tag=first`)).body).to.include({ _rev: 1 });
      const deprecated = await api.delete(`${at('nxv:a')}?rev=2`);
      expect(deprecated.body).to.include({ _rev: 3, _deprecated: true });
      await expectRejected(
        api.post(`${at('nxv:a')}/tags?rev=3`, { tag: 'second', rev: 1 }),
        400,
        `${kind.noun[0]!.toUpperCase()}${kind.noun.slice(1)}IsDeprecated`,
      );
    });
  }

  it('views: the default views may be tagged, never deprecated nor undeprecated; `graph` names the default SPARQL view', async () => {
    const p = await freshProject(api);
    const sparql = `/v1/views/${p}/${enc(`${NXV}defaultSparqlIndex`)}`;
    expect((await api.get(`/v1/views/${p}/graph`)).body).to.include({ '@id': `${NXV}defaultSparqlIndex`, _rev: 1 });
    expect((await api.post(`${sparql}/tags?rev=1`, { tag: 't', rev: 1 })).status).to.equal(201);
    await expectRejected(api.delete(`/v1/views/${p}/graph?rev=2`), 403, 'ViewIsDefaultView');
    await expectRejected(api.put(`${sparql}/undeprecate?rev=2`), 403, 'ViewIsDefaultView');
    expect((await api.get(sparql)).body).to.include({ _rev: 2, _deprecated: false });
  });
});
