import { expect } from 'chai';
import { startServer } from '../support/server.js';
import type { TestServer } from '../support/server.js';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { call, client } from '../support/client.js';
import { OidcIssuer } from '../support/oidcIssuer.js';

/** `?rev=` on organizations, projects, realms and the permissions reads that revision, before and after a restart. */
describe('earlier revisions of organizations, projects, realms and permissions', function () {
  this.timeout(60_000);
  let server: TestServer;
  let provider: OidcIssuer;
  let api: ReturnType<typeof client>;
  before(async () => {
    provider = await OidcIssuer.start();
    server = await startServer();
    api = client(server.url);
    // The history both tests read: each passes alone and in either order.
    await api.put('/v1/orgs/hist', { description: 'first' });
    await api.put('/v1/orgs/hist?rev=1', { description: 'second' });
    await api.delete('/v1/orgs/hist?rev=2');
    await api.put('/v1/orgs/hist2', {});
    await api.put('/v1/projects/hist2/p', { description: 'first' });
    await api.put('/v1/projects/hist2/p?rev=1', { description: 'second', apiMappings: [{ prefix: 'ex', namespace: 'http://example.com/' }] });
    await api.put('/v1/realms/r1', { name: 'first name', openIdConfig: provider.openIdConfig });
    expect((await api.put('/v1/realms/r1?rev=1', { name: 'second name', openIdConfig: provider.openIdConfig })).status).to.equal(200);
    expect((await call(server.url, 'PATCH', '/v1/permissions?rev=0', { '@type': 'Append', permissions: ['extra/one'] })).status).to.equal(200);
    expect((await call(server.url, 'PATCH', '/v1/permissions?rev=1', { '@type': 'Append', permissions: ['extra/two'] })).status).to.equal(200);
  });
  after(async () => {
    await server?.stop(true);
    await provider?.stop();
  });

  const expectRevisions = async () => {
    const org1 = await api.get('/v1/orgs/hist?rev=1');
    expect([org1.status, org1.body['_rev'], org1.body['description']]).to.deep.equal([200, 1, 'first']);
    expect((await api.get('/v1/orgs/hist?rev=2')).body).to.include({ _rev: 2, description: 'second' });
    expect((await api.get('/v1/orgs/hist')).body).to.include({ _rev: 3, _deprecated: true });
    expect((await api.get('/v1/orgs/hist?rev=2')).body['_deprecated']).to.equal(false);

    const project1 = await api.get('/v1/projects/hist2/p?rev=1');
    expect([project1.body['_rev'], project1.body['description'], project1.body['apiMappings']]).to.deep.equal([1, 'first', []]);
    expect((await api.get('/v1/projects/hist2/p?rev=2')).body['apiMappings']).to.deep.equal([{ prefix: 'ex', namespace: 'http://example.com/' }]);
    expect((await api.get('/v1/projects/hist2/p')).body['description']).to.equal('second');

    expect((await api.get('/v1/realms/r1?rev=1')).body).to.include({ _rev: 1, name: 'first name' });
    expect((await api.get('/v1/realms/r1')).body).to.include({ _rev: 2, name: 'second name' });

    const minimum = (await api.get('/v1/permissions?rev=0')).body;
    expect(minimum['_rev']).to.equal(0);
    expect(minimum['permissions']).to.not.include('extra/one');
    expect((await api.get('/v1/permissions?rev=1')).body['permissions'])
      .to.include('extra/one')
      .and.not.include('extra/two');
    expect((await api.get('/v1/permissions')).body['permissions']).to.include.members(['extra/one', 'extra/two']);

    for (const path of ['/v1/orgs/hist?rev=9', '/v1/projects/hist2/p?rev=3', '/v1/realms/r1?rev=5', '/v1/permissions?rev=7']) {
      const missing = await api.get(path);
      expect([path, missing.status, missing.body['@type']]).to.deep.equal([path, 404, 'RevisionNotFound']);
    }
    expect((await api.get('/v1/orgs/hist?rev=9')).body).to.include({ provided: 9, current: 3 });
    expect((await api.get('/v1/orgs/hist?rev=zero')).body['@type']).to.equal('MalformedQueryParamRejection');
  };

  it('answers each revision as it was, and RevisionNotFound for one that never was', async () => {
    await expectRevisions();
  });

  it('answers them the same after a restart (from the snapshot, and from the log alone)', async () => {
    await server.stop();
    server = await startServer({}, server.dataDir);
    api = client(server.url);
    await expectRevisions();
    await server.stop();
    rmSync(join(server.dataDir, 'projection', 'snapshot.json'));
    server = await startServer({}, server.dataDir);
    api = client(server.url);
    await expectRevisions();
  });
});
