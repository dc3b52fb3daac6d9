import { expect } from 'chai';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Config } from '../../src/config/Config.js';
import { ConfigError } from '../../src/kernel/ConfigError.js';
import { closedPortAddress, OidcIssuer } from '../support/oidcIssuer.js';
import { startServer } from '../support/server.js';
import type { TestServer } from '../support/server.js';

/** Delta 1.11 (running-nexus/configuration: "Realm provisioning", "Acl provisioning"): realms and ACLs written at start-up. */
describe('realm and ACL provisioning at start-up', function () {
  this.timeout(60_000);
  let provider: OidcIssuer;
  const dir = mkdtempSync(join(tmpdir(), 'provisioning-'));
  const servers: TestServer[] = [];
  before(async () => (provider = await OidcIssuer.start()));
  after(async () => {
    for (const s of servers) await s.stop(true).catch(() => undefined);
    await provider.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const file = (name: string, content: unknown) => {
    const path = join(dir, name);
    writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
    return path;
  };
  const admins = { realm: 'myrealm', group: 'admins' };
  const aclFile = () =>
    file('acls.json', {
      '/': [{ identity: admins, permissions: ['acls/read', 'acls/write', 'organizations/create', 'organizations/read', 'realms/read'] }],
      '/myorg/myproj': [{ identity: { realm: 'myrealm', subject: 'alice' }, permissions: ['resources/read'] }],
    });
  const provisioning = (over: Partial<NonNullable<Config['provisioning']>> = {}): Partial<Config> => ({
    provisioning: {
      realms: { myrealm: { name: 'My realm', openIdConfig: provider.openIdConfig, acceptedAudiences: ['registry'] } },
      aclFile: aclFile(),
      ...over,
    },
  });
  const start = async (overrides: Partial<Config>, dataDir?: string) => {
    const s = await startServer(overrides, dataDir);
    servers.push(s);
    return s;
  };
  const get = async (s: TestServer, path: string, token?: string) => {
    const r = await fetch(`${s.url}${path}`, { headers: token ? { authorization: `Bearer ${token}` } : {} });
    return { status: r.status, body: (await r.json()) as Record<string, unknown> };
  };
  const refused = async (overrides: Partial<Config>): Promise<string> => {
    try {
      await start(overrides);
    } catch (error) {
      expect(error).to.be.instanceOf(ConfigError);
      return (error as Error).message;
    }
    throw new Error('started');
  };

  it('creates the realms and writes the ACL file before serving: the fresh open root is never served', async () => {
    const s = await start(provisioning());
    expect(s.registry.openToAnonymous()).to.equal(false);
    expect((await fetch(`${s.url}/v1/orgs/myorg`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: '{}' })).status).to.equal(403);
    const token = await provider.sign({ sub: 'root', groups: ['admins'], aud: 'registry' });
    const realm = await get(s, '/v1/realms/myrealm', token);
    expect(realm.status, JSON.stringify(realm.body)).to.equal(200);
    expect(realm.body).to.include({ name: 'My realm', openIdConfig: provider.openIdConfig, _rev: 1 });
    expect(realm.body['_createdBy']).to.match(/\/v1\/realms\/internal\/users\/registry$/);
    const root = await get(s, '/v1/acls?self=false', token);
    expect((root.body['_results'] as { _rev: number; _path: string }[])[0]).to.include({ _rev: 1, _path: '/' });
    const project = await get(s, '/v1/acls/myorg/myproj?self=false', token);
    expect((project.body['_results'] as { acl: unknown[] }[])[0]!.acl).to.have.length(1);
  });

  it('leaves an existing realm and a written root ACL alone at the next start', async () => {
    const data = mkdtempSync(join(dir, 'data-'));
    const first = await start(provisioning(), data);
    await first.stop();
    servers.splice(servers.indexOf(first), 1);
    const other = file('other-acls.json', { '/': [{ identity: { realm: 'myrealm', group: 'others' }, permissions: ['acls/read'] }] });
    const again = await start({ provisioning: { realms: { myrealm: { name: 'Renamed', openIdConfig: provider.openIdConfig } }, aclFile: other } }, data);
    const token = await provider.sign({ sub: 'root', groups: ['admins'], aud: 'registry' });
    expect((await get(again, '/v1/realms/myrealm', token)).body).to.include({ name: 'My realm', _rev: 1 });
    const root = await get(again, '/v1/acls?self=false', token);
    expect((root.body['_results'] as { _rev: number }[])[0]).to.include({ _rev: 1 });
  });

  it('does not apply the ACL file once an operator wrote the root ACL', async () => {
    const data = mkdtempSync(join(dir, 'data-'));
    const fresh = await start({}, data);
    const locked = await fetch(`${fresh.url}/v1/acls?rev=0`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ acl: [{ identity: { '@type': 'Anonymous' }, permissions: ['acls/read', 'acls/write', 'realms/read', 'realms/write'] }] }),
    });
    expect(locked.status).to.equal(201);
    await fresh.stop();
    servers.splice(servers.indexOf(fresh), 1);
    const s = await start(provisioning(), data);
    // The realm is created; the root keeps the operator's ACL.
    expect((await get(s, '/v1/realms/myrealm')).status).to.equal(200);
    const root = await get(s, '/v1/acls?self=false');
    expect((root.body['_results'] as { _rev: number }[])[0]).to.include({ _rev: 1 });
    expect((await get(s, '/v1/acls/myorg/myproj?self=false')).body['_total']).to.equal(0);
  });

  it('stops the start-up naming the file when it is missing, not JSON, of another shape, or names what does not exist', async () => {
    const missing = join(dir, 'nowhere.json');
    expect(await refused(provisioning({ aclFile: missing }))).to.include(`'${missing}': cannot be read (ENOENT)`);
    const notJson = file('not.json', '{"/": [');
    expect(await refused(provisioning({ aclFile: notJson }))).to.include(`'${notJson}': is not valid JSON`);
    const array = file('array.json', [1]);
    expect(await refused(provisioning({ aclFile: array }))).to.include(`'${array}': expected an object`);
    const badPath = file('path.json', { '/a/b/c': [] });
    expect(await refused(provisioning({ aclFile: badPath }))).to.include(`'${badPath}': '/a/b/c'`);
    const unknown = file('unknown.json', { '/': [{ identity: admins, permissions: ['nothing/here'] }] });
    const message = await refused(provisioning({ aclFile: unknown }));
    expect(message).to.include(`acls.provisioning.path`).and.include(`'${unknown}': '/'`).and.include('nothing/here');
    const otherRealm = file('realm.json', { '/': [{ identity: { realm: 'elsewhere', group: 'g' }, permissions: ['acls/read'] }] });
    expect(await refused(provisioning({ aclFile: otherRealm })))
      .to.include(`'${otherRealm}'`)
      .and.include('elsewhere');
  });

  it('stops the start-up naming the realm its provider does not answer for', async () => {
    const message = await refused({
      provisioning: { realms: { down: { name: 'Down', openIdConfig: `${await closedPortAddress()}/.well-known/openid-configuration` } } },
    });
    expect(message).to.include('realms.provisioning.realms').and.include("realm 'down'");
  });
});
