import { expect } from 'chai';
import { MINIMUM_PERMISSIONS } from '../../src/kernel/permissions.js';
import { startServer } from '../support/server.js';
import type { TestServer } from '../support/server.js';
import { OidcIssuer } from '../support/oidcIssuer.js';
import { multipart, storagesConfig } from '../support/files.js';

describe("a storage's readPermission and writePermission guard its files", function () {
  this.timeout(60_000);
  let provider: OidcIssuer;
  let server: TestServer;
  const tokens: Record<string, string> = {};

  const call = async (method: string, path: string, who: string, body?: unknown) => {
    const headers: Record<string, string> = { authorization: `Bearer ${tokens[who]}` };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(`${server.url}${path}`, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
    const text = await res.text();
    let parsed: any; // eslint-disable-line @typescript-eslint/no-explicit-any
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    return { status: res.status, text, body: parsed };
  };
  const send = async (path: string, who: string, data: string) => {
    const form = multipart([{ name: 'file', filename: 'f.txt', data }]);
    const res = await fetch(`${server.url}${path}`, {
      method: 'PUT',
      body: new Uint8Array(form.body),
      headers: { 'content-type': form.type, authorization: `Bearer ${tokens[who]}` },
    });
    return { status: res.status, body: await res.json() };
  };
  const grant = async (path: string, subject: string, permissions: string[]) => {
    const current = await call('GET', `/v1/acls${path}?self=false`, 'admin');
    const rev = (current.body?._results as { _rev: number }[] | undefined)?.[0]?._rev ?? 0;
    const res = await call('PATCH', `/v1/acls${path}?rev=${rev}`, 'admin', { '@type': 'Append', acl: [{ identity: { realm: 'r1', subject }, permissions }] });
    expect(res.status, res.text).to.equal(200);
  };

  before(async () => {
    provider = await OidcIssuer.start();
    server = await startServer({ storages: storagesConfig().config });
    const anonymous = async (method: string, path: string, body: unknown) =>
      fetch(`${server.url}${path}`, { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    expect((await anonymous('PUT', '/v1/realms/r1', { name: 'r1', openIdConfig: provider.openIdConfig })).status).to.equal(201);
    for (const name of ['admin', 'alice']) tokens[name] = await provider.sign({ sub: name, groups: [] });
    const perms = await anonymous('PATCH', '/v1/permissions?rev=0', { '@type': 'Append', permissions: ['custom/read', 'custom/write'] });
    expect(perms.status).to.equal(200);
    const all = [...MINIMUM_PERMISSIONS, 'custom/read', 'custom/write'];
    expect((await anonymous('PUT', '/v1/acls?rev=0', { acl: [{ identity: { realm: 'r1', subject: 'admin' }, permissions: all }] })).status).to.equal(201);
    await call('PUT', '/v1/orgs/o', 'admin', {});
    await call('PUT', '/v1/projects/o/p', 'admin', {});
    const custom = await call('PUT', '/v1/storages/o/p/custom', 'admin', {
      '@type': 'DiskStorage',
      default: false,
      readPermission: 'custom/read',
      writePermission: 'custom/write',
    });
    expect(custom.status, custom.text).to.equal(201);
    expect((await send('/v1/files/o/p/guarded?storage=custom', 'admin', 'guarded')).status).to.equal(201);
    expect((await send('/v1/files/o/p/plain', 'admin', 'plain')).status).to.equal(201);
    await grant('/o/p', 'alice', ['resources/read', 'files/write']);
  });
  after(async () => {
    await server?.stop(true);
    await provider?.stop();
  });

  it('reads need the storage readPermission', async () => {
    expect((await call('GET', '/v1/files/o/p/plain', 'alice')).status).to.equal(200);
    const refused = await call('GET', '/v1/files/o/p/guarded', 'alice');
    expect([refused.status, refused.body['@type']]).to.deep.equal([403, 'AuthorizationFailed']);
    expect(refused.body.details).to.include('custom/read');
    await grant('/o/p', 'alice', ['custom/read']);
    expect((await call('GET', '/v1/files/o/p/guarded', 'alice')).text).to.equal('guarded');
  });

  it('uploads need the storage writePermission', async () => {
    expect((await send('/v1/files/o/p/a1', 'alice', 'x')).status).to.equal(201);
    const refused = await send('/v1/files/o/p/a2?storage=custom', 'alice', 'x');
    expect([refused.status, refused.body['@type']]).to.deep.equal([403, 'AuthorizationFailed']);
    expect((await call('DELETE', '/v1/files/o/p/guarded?rev=1', 'alice')).status).to.equal(403);
    await grant('/o/p', 'alice', ['custom/write']);
    expect((await send('/v1/files/o/p/a2?storage=custom', 'alice', 'x')).status).to.equal(201);
  });
});
