import { expect } from 'chai';
import { serve } from '../support/server.js';
import type { client } from '../support/client.js';
import { enc } from '../support/client.js';
import { openStream } from '../support/sse.js';
import { EX, freshProject, schemaPayload, thing, unique } from '../support/schemas.js';

const NXV = 'https://bluebrain.github.io/nexus/vocabulary/';
const DEFAULT = `${NXV}defaultInProject`;

/** Facts from Delta 1.10 (resolvers-api.md, its assets, ResolverRejection.scala, ResolverScopeInitialization.scala). */
describe('resolvers (Delta 1.10 resolvers API)', function () {
  this.timeout(30_000);
  let api: ReturnType<typeof client>;
  let base = '';
  serve((s, a) => {
    api = a;
    base = s.url;
  });
  const cross = (projects: string[], priority: number, extra: Record<string, unknown> = {}) => ({
    '@type': ['CrossProject'],
    projects,
    identities: [{ '@type': 'Anonymous' }],
    priority,
    ...extra,
  });

  it('creates nxv:defaultInProject, InProject with priority 1, with each project', async () => {
    const p = await freshProject(api);
    const r = await api.get(`/v1/resolvers/${p}/${enc(DEFAULT)}`);
    expect(r.status, r.text).to.equal(200);
    expect(r.body).to.include({ '@id': DEFAULT, priority: 1, name: 'Default resolver', description: 'Resolver created with the project', _rev: 1 });
    expect(r.body['@type']).to.deep.equal(['Resolver', 'InProject']);
    expect(r.body['@context']).to.deep.equal([
      'https://bluebrain.github.io/nexus/contexts/resolvers.json',
      'https://bluebrain.github.io/nexus/contexts/metadata.json',
    ]);
    expect((await api.get(`/v1/resolvers/${p}/nxv:defaultInProject`)).status).to.equal(200);
    const listed = await api.get(`/v1/resolvers/${p}`);
    expect(listed.body._total).to.equal(1);
  });

  it('takes at most 100 projects in a CrossProject resolver: 101 is 400 TooManyResolverProjects and writes nothing (issue 32, finding 10)', async () => {
    const p = await freshProject(api);
    const projects = (n: number) => Array.from({ length: n }, (_, i) => `o${i}/p${i}`);
    const refused = await api.put(`/v1/resolvers/${p}/nxv:many`, cross(projects(101), 70));
    expect([refused.status, refused.body['@type']], refused.text).to.deep.equal([400, 'TooManyResolverProjects']);
    expect(refused.body).to.include({ provided: 101, max: 100 });
    expect((await api.get(`/v1/resolvers/${p}/nxv:many`)).status).to.equal(404);
    const posted = await api.post(`/v1/resolvers/${p}`, cross(projects(1_000), 71));
    expect([posted.status, posted.body['@type']]).to.deep.equal([400, 'TooManyResolverProjects']);
    expect((await api.put(`/v1/resolvers/${p}/nxv:many`, cross(projects(100), 70))).status).to.equal(201);
    const updated = await api.put(`/v1/resolvers/${p}/nxv:many?rev=1`, cross(projects(101), 70));
    expect([updated.status, updated.body['@type']]).to.deep.equal([400, 'TooManyResolverProjects']);
    expect((await api.get(`/v1/resolvers/${p}/nxv:many`)).body._rev).to.equal(1);
  });

  it('runs the lifecycle: create by PUT and POST, update, tag, fetch by rev and tag, source, list, deprecate', async () => {
    const p = await freshProject(api);
    const shared = await freshProject(api);
    const payload = cross([shared], 50, { resourceTypes: ['nxv:Schema'] });
    const created = await api.put(`/v1/resolvers/${p}/nxv:myresolver`, payload);
    expect(created.status, created.text).to.equal(201);
    expect(created.body).to.include({ '@id': `${NXV}myresolver`, _rev: 1, _deprecated: false, _self: `${base}/v1/resolvers/${p}/${enc(`${NXV}myresolver`)}` });
    expect(created.body['@type']).to.deep.equal(['Resolver', 'CrossProject']);
    expect(created.body._constrainedBy).to.equal('https://bluebrain.github.io/nexus/schemas/resolvers.json');
    const fetched = await api.get(`/v1/resolvers/${p}/nxv:myresolver`);
    expect(fetched.body).to.deep.include({ projects: [shared], identities: [{ '@type': 'Anonymous' }], priority: 50, resourceTypes: [`${NXV}Schema`] });
    expect((await api.get(`/v1/resolvers/${p}/nxv:myresolver/source`)).body).to.deep.equal(payload);
    const posted = await api.post(`/v1/resolvers/${p}`, { '@type': 'CrossProject', projects: [shared], useCurrentCaller: true, priority: 60 });
    expect(posted.status, posted.text).to.equal(201);
    expect((await api.get(`/v1/resolvers/${p}/${enc(posted.body['@id'])}`)).body.useCurrentCaller).to.equal(true);
    const updated = await api.put(`/v1/resolvers/${p}/nxv:myresolver?rev=1`, cross([shared], 55));
    expect(updated.status, updated.text).to.equal(200);
    expect(updated.body._rev).to.equal(2);
    expect((await api.post(`/v1/resolvers/${p}/nxv:myresolver/tags?rev=2`, { tag: 'v1', rev: 1 })).status).to.equal(201);
    expect((await api.get(`/v1/resolvers/${p}/nxv:myresolver?tag=v1`)).body.priority).to.equal(50);
    expect((await api.get(`/v1/resolvers/${p}/nxv:myresolver?rev=2`)).body.priority).to.equal(55);
    expect((await api.get(`/v1/resolvers/${p}/nxv:myresolver/tags`)).body.tags).to.deep.equal([{ rev: 1, tag: 'v1' }]);
    expect((await api.get(`/v1/resolvers/${p}`)).body._total).to.equal(3);
    const deprecated = await api.delete(`/v1/resolvers/${p}/nxv:myresolver?rev=3`);
    expect(deprecated.status).to.equal(200);
    expect(deprecated.body).to.include({ _rev: 4, _deprecated: true });
    const refused = await api.put(`/v1/resolvers/${p}/nxv:myresolver?rev=4`, cross([shared], 56));
    expect(refused.status).to.equal(400);
    expect(refused.body['@type']).to.equal('ResolverIsDeprecated');
  });

  it('refuses bad payloads and lost races with Delta’s rejections, changing nothing', async () => {
    const p = await freshProject(api);
    const expectRejected = async (reply: Promise<{ status: number; body: { '@type': string } }>, status: number, type: string) => {
      const r = await reply;
      expect(r.status, JSON.stringify(r.body)).to.equal(status);
      expect(r.body['@type']).to.equal(type);
    };
    await expectRejected(api.put(`/v1/resolvers/${p}/x`, cross([p], 1)), 400, 'PriorityAlreadyExists');
    await expectRejected(api.put(`/v1/resolvers/${p}/x`, { '@type': 'Nope', priority: 3 }), 400, 'DecodingFailed');
    await expectRejected(api.put(`/v1/resolvers/${p}/x`, { '@type': 'InProject', priority: 1001 }), 400, 'DecodingFailed');
    await expectRejected(api.put(`/v1/resolvers/${p}/x`, cross([p], 3, { useCurrentCaller: true })), 400, 'DecodingFailed');
    await expectRejected(
      api.put(`/v1/resolvers/${p}/x`, { '@type': 'CrossProject', projects: ['notaref'], useCurrentCaller: true, priority: 3 }),
      400,
      'DecodingFailed',
    );
    await expectRejected(api.put(`/v1/resolvers/${p}/x`, cross([p], 3, { identities: [] })), 400, 'NoIdentities');
    await expectRejected(api.put(`/v1/resolvers/${p}/x`, cross([p], 3, { identities: [{ realm: 'r', subject: 'bob' }] })), 400, 'InvalidIdentities');
    await expectRejected(api.put(`/v1/resolvers/${p}/x`, { '@id': 'http://other/', '@type': 'InProject', priority: 3 }), 400, 'UnexpectedId');
    expect((await api.get(`/v1/resolvers/${p}`)).body._total).to.equal(1);
    expect((await api.put(`/v1/resolvers/${p}/x`, cross([p], 3))).status).to.equal(201);
    await expectRejected(api.put(`/v1/resolvers/${p}/x`, cross([p], 4)), 409, 'ResourceAlreadyExists');
    await expectRejected(api.put(`/v1/resolvers/${p}/x?rev=5`, cross([p], 4)), 409, 'IncorrectRev');
    await expectRejected(api.put(`/v1/resolvers/${p}/x?rev=1`, { '@type': 'InProject', priority: 4 }), 400, 'DifferentResolverType');
    await expectRejected(api.get(`/v1/resolvers/${p}/nope`), 404, 'ResourceNotFound');
    await expectRejected(api.get(`/v1/resolvers/${p}/x?rev=9`), 404, 'RevisionNotFound');
    await expectRejected(api.get(`/v1/resolvers/${p}/${enc('a<b')}`), 400, 'InvalidResolverId');
  });

  it('streams ResolverCreated, ResolverUpdated, ResolverTagAdded and ResolverDeprecated as Delta renders them', async () => {
    const p = await freshProject(api);
    expect((await api.put(`/v1/resolvers/${p}/nxv:s`, cross([p], 7))).status).to.equal(201);
    expect((await api.put(`/v1/resolvers/${p}/nxv:s?rev=1`, cross([p], 8))).status).to.equal(200);
    expect((await api.post(`/v1/resolvers/${p}/nxv:s/tags?rev=2`, { tag: 't', rev: 1 })).status).to.equal(201);
    expect((await api.delete(`/v1/resolvers/${p}/nxv:s?rev=3`)).status).to.equal(200);
    const stream = await openStream(`${base}/v1/resolvers/${p}/events`);
    try {
      const events = await stream.take(5);
      expect(events.map((e) => e.event)).to.deep.equal(['ResolverCreated', 'ResolverCreated', 'ResolverUpdated', 'ResolverTagAdded', 'ResolverDeprecated']);
      const created = JSON.parse(events[1]!.data);
      expect(created).to.include({ '@type': 'ResolverCreated', _resolverId: `${NXV}s`, _resourceId: `${NXV}s`, _rev: 1, _project: p });
      expect(created._types).to.deep.equal([`${NXV}Resolver`, `${NXV}CrossProject`]);
      expect(created._source).to.deep.equal(cross([p], 7));
      expect(JSON.parse(events[3]!.data)).to.include({ tag: 't', targetRev: 1 });
    } finally {
      stream.close();
    }
  });

  it('resolves through every resolver (`_`) or one, with showReport, and refuses what no resolver finds', async () => {
    const shared = await freshProject(api);
    const p = await freshProject(api);
    expect((await api.post(`/v1/resources/${shared}`, { '@context': { '@vocab': EX }, '@id': `${EX}thing`, '@type': 'Thing', n: 1 })).status).to.equal(201);
    const missing = await api.get(`/v1/resolvers/${p}/_/${enc(`${EX}thing`)}`);
    expect(missing.status).to.equal(404);
    expect(missing.body['@type']).to.equal('InvalidResolution');
    expect(missing.body.report.history[0]).to.deep.include({ resolverId: DEFAULT, success: false });
    expect((await api.put(`/v1/resolvers/${p}/nxv:shared`, cross([shared], 20, { resourceTypes: [`${EX}Other`] }))).status).to.equal(201);
    const typed = await api.get(`/v1/resolvers/${p}/_/${enc(`${EX}thing`)}?showReport=true`);
    expect(typed.body.history[1].rejections[0].cause['@type']).to.equal('ResourceTypesDenied');
    expect((await api.put(`/v1/resolvers/${p}/nxv:shared?rev=1`, cross([shared], 20))).status).to.equal(200);
    const found = await api.get(`/v1/resolvers/${p}/_/${enc(`${EX}thing`)}`);
    expect(found.status, found.text).to.equal(200);
    expect(found.body).to.include({ '@id': `${EX}thing`, _project: shared, n: 1 });
    const report = await api.get(`/v1/resolvers/${p}/_/${enc(`${EX}thing`)}?showReport=true`);
    expect(report.body.history).to.deep.equal([
      {
        resolverId: DEFAULT,
        success: false,
        rejections: [{ project: p, cause: { '@type': 'ResourceNotFound', reason: `The resource was not found in project '${p}'.` } }],
      },
      { resolverId: `${NXV}shared`, success: true, resourceProject: shared, rejections: [] },
    ]);
    const one = await api.get(`/v1/resolvers/${p}/nxv:shared/${enc(`${EX}thing`)}?showReport=true`);
    expect(one.body).to.include({ resolverId: `${NXV}shared`, success: true, resourceProject: shared });
    const source = await api.get(`/v1/resolvers/${p}/nxv:shared/${enc(`${EX}thing`)}/source`);
    expect(source.body).to.deep.equal({ '@context': { '@vocab': EX }, '@id': `${EX}thing`, '@type': 'Thing', n: 1 });
    const viaDefault = await api.get(`/v1/resolvers/${p}/nxv:defaultInProject/${enc(`${EX}thing`)}`);
    expect(viaDefault.status).to.equal(404);
    expect(viaDefault.body['@type']).to.equal('InvalidResolverResolution');
    const badRev = await api.get(`/v1/resolvers/${p}/_/${enc(`${EX}thing`)}?rev=7&showReport=true`);
    expect(badRev.body.history[1].rejections[0].cause).to.include({ '@type': 'RevisionNotFound', provided: 7 });
    const badId = await api.get(`/v1/resolvers/${p}/_/${enc('a<b')}`);
    expect(badId.body['@type']).to.equal('InvalidResolvedResourceId');
  });

  it('validates a resource against a schema of a shared project found through a resolver', async () => {
    const shared = await freshProject(api);
    const p = await freshProject(api);
    const schemaId = `${EX}schemas/person`;
    const schema = await api.post(`/v1/schemas/${shared}`, schemaPayload(schemaId, 'Person', { name: { datatype: 'xsd:string', minCount: 1 } }));
    expect(schema.status, schema.text).to.equal(201);
    const person = { '@context': { '@vocab': EX }, '@type': 'Person', name: 'Ada' };
    const before = await api.post(`/v1/resources/${p}/${enc(schemaId)}`, person);
    expect(before.status).to.equal(404);
    expect((await api.put(`/v1/resolvers/${p}/nxv:shared`, cross([shared], 10))).status).to.equal(201);
    const created = await api.post(`/v1/resources/${p}/${enc(schemaId)}`, person);
    expect(created.status, created.text).to.equal(201);
    expect(created.body._constrainedBy).to.equal(schemaId);
    const invalid = await api.post(`/v1/resources/${p}/${enc(schemaId)}`, { '@context': { '@vocab': EX }, '@type': 'Person' });
    expect(invalid.status).to.equal(400);
    expect(invalid.body['@type']).to.equal('InvalidResource');
  });

  it('tags where @bbp/nexus-sdk 1.3 posts the tag: on the resolver itself', async () => {
    const p = await freshProject(api);
    expect((await api.put(`/v1/resolvers/${p}/nxv:t`, cross([p], 9))).status).to.equal(201);
    const tagged = await api.post(`/v1/resolvers/${p}/nxv:t?rev=1`, { tag: 'v1', rev: 1 });
    expect(tagged.status, tagged.text).to.equal(201);
    expect(tagged.body._rev).to.equal(2);
    expect((await api.get(`/v1/resolvers/${p}/nxv:t/tags`)).body.tags).to.deep.equal([{ rev: 1, tag: 'v1' }]);
    const stale = await api.post(`/v1/resolvers/${p}/nxv:t?rev=1`, { tag: 'v2', rev: 1 });
    expect([stale.status, stale.body['@type']]).to.deep.equal([409, 'IncorrectRev']);
  });

  it('resolves a JSON-LD context kept in another project through the resolvers, pinned to its project and revision', async () => {
    const shared = await freshProject(api);
    const p = await freshProject(api);
    const ctx = `${EX}${unique('ctx')}`;
    expect((await api.post(`/v1/resources/${shared}`, { '@context': { '@vocab': EX, nick: `${EX}nickname` }, '@id': ctx })).status).to.equal(201);
    const uses = (id: string) => ({ '@context': ctx, '@id': `${EX}${id}`, '@type': 'Person', nick: 'A' });
    const refused = await api.post(`/v1/resources/${p}`, uses('u1'));
    expect(refused.status, refused.text).to.equal(400);
    expect(refused.body['@type']).to.equal('InvalidJsonLdFormat');
    expect(refused.body.reason).to.contain(ctx);
    expect((await api.get(`/v1/resources/${p}/_/${enc(`${EX}u1`)}`)).status).to.equal(404);
    // A resolver whose resourceTypes the context does not carry finds nothing either.
    expect((await api.put(`/v1/resolvers/${p}/nxv:shared`, cross([shared], 20, { resourceTypes: [`${EX}Other`] }))).status).to.equal(201);
    expect((await api.post(`/v1/resources/${p}`, uses('u1'))).body['@type']).to.equal('InvalidJsonLdFormat');
    expect((await api.get(`/v1/resources/${p}`)).body._total).to.equal(0);

    expect((await api.put(`/v1/resolvers/${p}/nxv:shared?rev=1`, cross([shared], 20))).status).to.equal(200);
    const created = await api.post(`/v1/resources/${p}`, uses('u1'));
    expect(created.status, created.text).to.equal(201);
    const pinned = (rev: number) => [{ '@type': 'ProjectContextRef', iri: ctx, resource: { id: ctx, project: shared, rev } }];
    const u1 = `/v1/resources/${p}/_/${enc(`${EX}u1`)}`;
    expect((await api.get(`${u1}/remote-contexts`)).body.remoteContexts).to.deep.equal(pinned(1));
    const expanded = async (path: string) => (await api.get(path, { accept: 'application/n-triples' })).text;
    expect(await expanded(u1)).to.contain(`<${EX}u1> <${EX}nickname> "A"`);

    // The context changes in its project: what was written reads as it was expanded; a new write takes the new revision.
    const changed = await api.put(`/v1/resources/${shared}/_/${enc(ctx)}?rev=1`, { '@context': { '@vocab': EX, nick: `${EX}alias` }, '@id': ctx });
    expect(changed.status, changed.text).to.equal(200);
    const fetched = await api.get(u1);
    expect(fetched.body).to.include({ nick: 'A', '@type': 'Person' });
    expect(fetched.body['@context']).to.deep.equal([ctx, 'https://bluebrain.github.io/nexus/contexts/metadata.json']);
    expect(await expanded(u1)).to.contain(`<${EX}nickname>`);
    expect((await api.post(`/v1/resources/${p}`, uses('u2'))).status).to.equal(201);
    expect((await api.get(`/v1/resources/${p}/_/${enc(`${EX}u2`)}/remote-contexts`)).body.remoteContexts).to.deep.equal(pinned(2));
    expect(await expanded(`/v1/resources/${p}/_/${enc(`${EX}u2`)}`)).to.contain(`<${EX}u2> <${EX}alias> "A"`);
    // As in Delta, a deprecated context still resolves.
    expect((await api.delete(`/v1/resources/${shared}/_/${enc(ctx)}?rev=2`)).status).to.equal(200);
    expect((await api.post(`/v1/resources/${p}`, uses('u3'))).status).to.equal(201);
  });

  it('resolves owl:imports kept in another project through the resolvers', async () => {
    const shared = await freshProject(api);
    const p = await freshProject(api);
    const [base, top, gone] = ['base', 'top', 'gone'].map((n) => `${EX}${unique(n)}`) as [string, string, string];
    const ontology = `${EX}${unique('onto')}`;
    const nameShape = {
      '@context': { sh: 'http://www.w3.org/ns/shacl#', ex: EX },
      '@id': ontology,
      '@type': 'sh:NodeShape',
      'sh:targetClass': { '@id': 'ex:Person' },
      'sh:property': { 'sh:path': { '@id': 'ex:name' }, 'sh:minCount': 1 },
    };
    expect((await api.post(`/v1/resources/${shared}`, nameShape)).status).to.equal(201);
    expect(
      (await api.post(`/v1/schemas/${shared}`, schemaPayload(base, 'Person', { age: { datatype: 'xsd:integer', minCount: 1 } }, [ontology]))).status,
    ).to.equal(201);
    const importing = schemaPayload(top, 'Person', {}, [base]);
    const missing = await api.post(`/v1/schemas/${p}`, importing);
    expect(missing.status, missing.text).to.equal(400);
    expect(missing.body['@type']).to.equal('InvalidSchemaResolution');
    expect(missing.body.reason).to.contain(base).and.to.contain('resolvers');
    expect((await api.get(`/v1/schemas/${p}/${enc(top)}`)).status).to.equal(404);

    expect((await api.put(`/v1/resolvers/${p}/nxv:shared`, cross([shared], 20))).status).to.equal(201);
    const created = await api.post(`/v1/schemas/${p}`, importing);
    expect(created.status, created.text).to.equal(201);
    const against = `/v1/resources/${p}/${enc(top)}`;
    // Both the imported schema's shape and the ontology it imports in turn apply.
    expect((await api.post(against, thing('Person', { name: 'Ann', age: 3 }))).status).to.equal(201);
    const noAge = await api.post(against, thing('Person', { name: 'Ann' }));
    expect(noAge.body['@type']).to.equal('InvalidResource');
    expect(JSON.stringify(noAge.body.details)).to.contain(`${EX}age`);
    expect((await api.post(against, thing('Person', { age: 3 }))).body['@type']).to.equal('InvalidResource');

    // A deprecated schema of the other project is not found through the resolvers (Delta excludes it).
    expect((await api.post(`/v1/schemas/${shared}`, schemaPayload(gone, 'Person', {}))).status).to.equal(201);
    expect((await api.delete(`/v1/schemas/${shared}/${enc(gone)}?rev=1`)).status).to.equal(200);
    const deprecated = await api.post(`/v1/schemas/${p}`, schemaPayload(`${EX}${unique('s')}`, 'Person', {}, [gone]));
    expect(deprecated.status).to.equal(400);
    expect(deprecated.body['@type']).to.equal('InvalidSchemaResolution');
    expect(deprecated.body.reason).to.contain(gone);
  });
});
