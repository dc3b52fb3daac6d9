import { expect } from 'chai';
import { MINIMUM_PERMISSIONS } from '../../src/kernel/permissions.js';
import { startServer } from '../support/server.js';
import type { TestServer } from '../support/server.js';
import { OidcIssuer } from '../support/oidcIssuer.js';
import { call as request } from '../support/client.js';
import { EX, schemaPayload, thing } from '../support/schemas.js';

/** Contexts and `owl:imports` of another project resolve only with the read permission a cross-project resolver checks. */
describe('resolution across projects checks the caller’s access (useCurrentCaller) and the resolver’s identities', function () {
  this.timeout(60_000);
  let provider: OidcIssuer;
  let server: TestServer;
  const tokens: Record<string, string> = {};
  const call = (method: string, path: string, who: string, body?: unknown) =>
    request(server.url, method, path, body, { authorization: `Bearer ${tokens[who]}` });
  const grant = async (path: string, subject: string, permissions: string[]) => {
    const current = await call('GET', `/v1/acls${path}?self=false`, 'admin');
    const rev = (current.body?._results as { _rev: number }[] | undefined)?.[0]?._rev ?? 0;
    const res = await call('PATCH', `/v1/acls${path}?rev=${rev}`, 'admin', { '@type': 'Append', acl: [{ identity: { realm: 'r1', subject }, permissions }] });
    expect(res.status, res.text).to.equal(200);
  };
  const ctx = `${EX}access/context`;
  const imported = `${EX}access/base`;

  before(async () => {
    provider = await OidcIssuer.start();
    server = await startServer();
    const anonymous = (method: string, path: string, body: unknown) => request(server.url, method, path, body);
    expect((await anonymous('PUT', '/v1/realms/r1', { name: 'r1', openIdConfig: provider.openIdConfig })).status).to.equal(201);
    for (const name of ['admin', 'alice', 'bob']) tokens[name] = await provider.sign({ sub: name, groups: [] });
    expect(
      (await anonymous('PUT', '/v1/acls?rev=0', { acl: [{ identity: { realm: 'r1', subject: 'admin' }, permissions: [...MINIMUM_PERMISSIONS] }] })).status,
    ).to.equal(201);
    for (const path of ['/v1/orgs/o', '/v1/projects/o/shared', '/v1/projects/o/p', '/v1/projects/o/q'])
      expect((await call('PUT', path, 'admin', {})).status).to.equal(201);
    expect((await call('PUT', `/v1/resources/o/shared/_/${encodeURIComponent(ctx)}`, 'admin', { '@context': { '@vocab': EX } })).status).to.equal(201);
    const base = schemaPayload(imported, 'Person', { name: { datatype: 'xsd:string', minCount: 1 } });
    expect((await call('POST', '/v1/schemas/o/shared', 'admin', base)).status).to.equal(201);
    const withCaller = { '@type': 'CrossProject', projects: ['o/shared'], useCurrentCaller: true, priority: 10 };
    expect((await call('PUT', '/v1/resolvers/o/p/nxv:shared', 'admin', withCaller)).status).to.equal(201);
    // Resolution as bob, who reads nothing of the shared project; he creates it, as only the holder of an identity may name it.
    const asBob = { '@type': 'CrossProject', projects: ['o/shared'], identities: [{ realm: 'r1', subject: 'bob' }], priority: 10 };
    await grant('/o/q', 'bob', ['resolvers/write']);
    expect((await call('PUT', '/v1/resolvers/o/q/nxv:shared', 'bob', asBob)).status).to.equal(201);
    await grant('/o/p', 'alice', ['resources/read', 'resources/write', 'schemas/write']);
  });
  after(async () => {
    await server?.stop(true);
    await provider?.stop();
  });

  it('refuses a context and an import the caller cannot read, writing nothing; accepts them once it can', async () => {
    const refusedContext = await call('PUT', '/v1/resources/o/p/_/r1', 'alice', { '@context': ctx, name: 'x' });
    expect([refusedContext.status, refusedContext.body['@type']]).to.deep.equal([400, 'InvalidJsonLdFormat']);
    expect(refusedContext.body.reason).to.contain(ctx);
    const schema = schemaPayload(`${EX}access/top`, 'Person', {}, [imported]);
    const refusedImport = await call('POST', '/v1/schemas/o/p', 'alice', schema);
    expect([refusedImport.status, refusedImport.body['@type']]).to.deep.equal([400, 'InvalidSchemaResolution']);
    expect((await call('GET', '/v1/resources/o/p', 'admin')).body._total).to.equal(0);
    expect((await call('GET', '/v1/schemas/o/p', 'admin')).body._total).to.equal(0);
    // The admin, who reads the shared project, resolves both through the same resolver.
    expect((await call('PUT', '/v1/resources/o/p/_/byAdmin', 'admin', { '@context': ctx, name: 'x' })).status).to.equal(201);

    await grant('/o/shared', 'alice', ['resources/read']);
    const context = await call('PUT', '/v1/resources/o/p/_/r1', 'alice', { '@context': ctx, name: 'x' });
    expect(context.status, context.text).to.equal(201);
    expect((await call('GET', '/v1/resources/o/p/_/r1/remote-contexts', 'alice')).body.remoteContexts[0].resource).to.deep.equal({
      id: ctx,
      project: 'o/shared',
      rev: 1,
    });
    const created = await call('POST', '/v1/schemas/o/p', 'alice', schema);
    expect(created.status, created.text).to.equal(201);
    expect((await call('POST', `/v1/resources/o/p/${encodeURIComponent(`${EX}access/top`)}`, 'alice', thing('Person', {}))).body['@type']).to.equal(
      'InvalidResource',
    );
  });

  it('checks the resolver’s identities, not the caller’s, when it names them', async () => {
    // The admin reads the shared project, but the resolver of o/q resolves as bob.
    const refused = await call('PUT', '/v1/resources/o/q/_/r2', 'admin', { '@context': ctx, name: 'x' });
    expect([refused.status, refused.body['@type']]).to.deep.equal([400, 'InvalidJsonLdFormat']);
    const imports = await call('POST', '/v1/schemas/o/q', 'admin', schemaPayload(`${EX}access/q`, 'Person', {}, [imported]));
    expect(imports.body['@type']).to.equal('InvalidSchemaResolution');
    await grant('/o/shared', 'bob', ['resources/read']);
    expect((await call('PUT', '/v1/resources/o/q/_/r2', 'admin', { '@context': ctx, name: 'x' })).status).to.equal(201);
  });
});
