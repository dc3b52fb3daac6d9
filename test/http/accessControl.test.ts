import { expect } from 'chai';
import { MINIMUM_PERMISSIONS } from '../../src/kernel/permissions.js';
import type { DeclaredRoute } from '../../src/http/route.js';
import { startServer } from '../support/server.js';
import type { TestServer } from '../support/server.js';
import { OidcIssuer } from '../support/oidcIssuer.js';

const METHODS_WITH_BODY = new Set(['put', 'post', 'patch']);

describe('access control over HTTP: realms, tokens, ACLs, enforcement', function () {
  this.timeout(60_000);
  let provider: OidcIssuer;
  let server: TestServer;
  const tokens: Record<string, string> = {};

  const call = async (method: string, path: string, who?: string, body?: unknown) => {
    const headers: Record<string, string> = {};
    if (who) headers['authorization'] = `Bearer ${tokens[who]}`;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(`${server.url}${path}`, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
    const text = await res.text();
    let parsed: Record<string, unknown> = {};
    try {
      parsed = text ? JSON.parse(text) : {};
    } catch {
      /* not JSON */
    }
    return { status: res.status, body: parsed as Record<string, any> }; // eslint-disable-line @typescript-eslint/no-explicit-any
  };
  const user = (subject: string) => ({ realm: 'r1', subject });
  const grant = async (path: string, acl: { identity: unknown; permissions: string[] }[]) => {
    const current = await call('GET', `/v1/acls${path}?self=false`, 'admin');
    const rev = (current.body['_results'] as { _rev: number }[] | undefined)?.[0]?._rev ?? 0;
    const res = await call('PATCH', `/v1/acls${path}?rev=${rev}`, 'admin', { '@type': 'Append', acl });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
  };

  before(async () => {
    provider = await OidcIssuer.start();
    server = await startServer();
    // A fresh service: anonymous may do everything, so the realm and the first ACL need no token.
    const realm = await call('PUT', '/v1/realms/r1', undefined, { name: 'r1', openIdConfig: provider.openIdConfig });
    expect(realm.status, JSON.stringify(realm.body)).to.equal(201);
    for (const [name, groups] of [
      ['admin', []],
      ['alice', ['g1']],
      ['bob', ['g2']],
      ['carol', []],
    ] as const)
      tokens[name] = await provider.sign({ sub: name, groups: [...groups] });
    // Lock it down: the root ACL now grants everything to admin only.
    const locked = await call('PUT', '/v1/acls?rev=0', undefined, { acl: [{ identity: user('admin'), permissions: [...MINIMUM_PERMISSIONS] }] });
    expect(locked.status, JSON.stringify(locked.body)).to.equal(201);
    for (const org of ['o1', 'o2']) expect((await call('PUT', `/v1/orgs/${org}`, 'admin', {})).status).to.equal(201);
    for (const p of ['o1/p1', 'o1/p2', 'o2/p3']) {
      expect((await call('PUT', `/v1/projects/${p}`, 'admin', {})).status).to.equal(201);
      expect(
        (await call('PUT', `/v1/resources/${p}/_/r1`, 'admin', { '@context': { '@vocab': 'http://x/' }, '@type': 'T', link: { '@id': 'http://x/t' } })).status,
      ).to.equal(201);
    }
    await grant('/o1/p1', [{ identity: user('alice'), permissions: ['resources/read'] }]);
    await grant('/o1', [{ identity: { realm: 'r1', group: 'g2' }, permissions: ['resources/read', 'resources/write'] }]);
  });
  after(async () => {
    await server?.stop(true);
    await provider?.stop();
  });

  /** A concrete path for a declared route, on project o1/p1. */
  const concrete = (route: DeclaredRoute) =>
    route.path.replace(':org', 'o1').replace(':project', 'p1').replace(':schema', '_').replace(':id', 'r1').replace(':tag', 't').replace(':realm', 'r1');

  it('records the user as the subject of writes, and GET /v1/identities lists the caller', async () => {
    const r = await call('GET', '/v1/resources/o1/p1/_/r1', 'admin');
    expect(r.body['_createdBy']).to.equal(`${server.url}/v1/realms/r1/users/admin`);
    const ids = await call('GET', '/v1/identities', 'alice');
    expect((ids.body['identities'] as { '@type': string }[]).map((i) => i['@type']).sort()).to.deep.equal(['Anonymous', 'Authenticated', 'Group', 'User']);
    const anonymous = await call('GET', '/v1/identities');
    expect(anonymous.body['identities']).to.deep.equal([{ '@id': `${server.url}/v1/anonymous`, '@type': 'Anonymous' }]);
  });

  it('refuses every checked route to a caller without permission with 403 AuthorizationFailed, before looking anything up', async () => {
    const checked = server.registry.routes.filter((r) => 'on' in r.guard && r.guard.when === undefined && r.method !== 'head');
    expect(checked.length).to.be.greaterThan(40);
    for (const route of checked) {
      const res = await call(route.method.toUpperCase(), concrete(route), 'carol', METHODS_WITH_BODY.has(route.method) ? {} : undefined);
      expect(res.status, `${route.method} ${route.path}`).to.equal(403);
      expect(res.body['@type']).to.equal('AuthorizationFailed');
    }
    expect((await call('GET', '/v1/resources/o1/p1/_/missing', 'carol')).status).to.equal(403);
  });

  it('gives a reader of one project its reads and nothing else', async () => {
    const reads = server.registry.routes.filter((r) => 'on' in r.guard && r.guard.permission === 'resources/read' && r.path.includes(':project'));
    for (const route of reads) {
      // Allowed: an answer, or a rejection other than authorization's; never a failure of ours.
      const res = await call('GET', concrete(route), 'alice');
      expect(res.status, `${route.path}: ${JSON.stringify(res.body)}`).to.not.equal(403);
      expect(res.status, `${route.path}: ${JSON.stringify(res.body)}`).to.be.below(500);
      if (res.status >= 400) expect(res.body['@type'], route.path).to.not.equal('AuthorizationFailed');
    }
    expect((await call('PUT', '/v1/resources/o1/p1/_/r1?rev=1', 'alice', { 'http://x/n': 1 })).status).to.equal(403);
    expect((await call('GET', '/v1/resources/o1/p2/_/r1', 'alice')).status).to.equal(403);
    expect((await call('GET', '/v1/resources/o1/p1/_/r1/incoming', 'alice')).status).to.equal(200);
    expect((await call('GET', '/v1/resources/o2/p3/_/r1/outgoing', 'alice')).status).to.equal(403);
  });

  it('grants through a group on the organization: reads and writes in its projects, not in others', async () => {
    expect((await call('PUT', '/v1/resources/o1/p2/_/byBob', 'bob', { 'http://x/n': 1 })).status).to.equal(201);
    expect((await call('PUT', '/v1/resources/o2/p3/_/byBob', 'bob', { 'http://x/n': 1 })).status).to.equal(403);
    expect((await call('PUT', '/v1/schemas/o1/p2/s', 'bob', { shapes: [] })).status).to.equal(403);
  });

  it('lists, counts and aggregates only what the caller may read, inside the query', async () => {
    const projectsOf = (res: { body: Record<string, unknown> }) => [...new Set((res.body['_results'] as { _project: string }[]).map((r) => r._project))].sort();
    const alice = await call('GET', '/v1/resources', 'alice');
    expect(projectsOf(alice)).to.deep.equal(['o1/p1']);
    expect(alice.body['_total']).to.equal(1);
    // The test of group grants adds o1/p2's byBob: it counts when it ran (each test passes alone and in any order).
    const byBob = (await call('GET', '/v1/resources/o1/p2/_/byBob', 'admin')).status === 200 ? 1 : 0;
    const paged = await call('GET', '/v1/resources?size=1', 'bob');
    expect(paged.body['_total']).to.equal(2 + byBob);
    expect(projectsOf(await call('GET', '/v1/resources/o1', 'bob'))).to.deep.equal(['o1/p1', 'o1/p2']);
    const aggregated = await call('GET', '/v1/resources?aggregations=true', 'alice');
    expect(JSON.stringify(aggregated.body)).to.include('o1/p1').and.not.include('o1/p2').and.not.include('o2/p3');
    const nothing = await call('GET', '/v1/resources', 'carol');
    expect(nothing.status).to.equal(200);
    expect(nothing.body['_total']).to.equal(0);
    expect((await call('GET', '/v1/projects', 'carol')).body['_total']).to.equal(0);
    expect((await call('GET', '/v1/resources', 'admin')).body['_total']).to.equal(3 + byBob);
  });

  it('answers a multi-fetch entry by entry: readable ones with their value, the others AuthorizationFailed', async () => {
    const res = await call('POST', '/v1/multi-fetch/resources', 'alice', {
      format: 'source',
      resources: [
        { id: 'r1', project: 'o1/p2' },
        { id: `${server.url}/v1/resources/o1/p1/_/r1`, project: 'o1/p1' },
      ],
    });
    expect(res.status).to.equal(200);
    const [denied, allowed] = res.body['resources'] as { error?: { '@type': string }; value?: unknown }[];
    expect(denied!.error!['@type']).to.equal('AuthorizationFailed');
    expect(allowed!.value).to.be.an('object');
  });

  it('guards event streams with events/read on their scope path', async () => {
    expect((await call('HEAD', '/v1/events', 'carol')).status).to.equal(403);
    expect((await call('HEAD', '/v1/resources/o1/p1/events', 'alice')).status).to.equal(403);
    await grant('/o1/p1', [{ identity: user('alice'), permissions: ['events/read'] }]);
    expect((await call('HEAD', '/v1/resources/o1/p1/events', 'alice')).status).to.equal(200);
    expect((await call('HEAD', '/v1/resources/o1/events', 'alice')).status).to.equal(403);
    expect((await call('HEAD', '/v1/events', 'alice')).status).to.equal(403);
    expect((await call('HEAD', '/v1/events', 'admin')).status).to.equal(200);
  });

  it('opens the SPARQL endpoint to resources/read or views/query on the project, and to nobody else', async () => {
    const sparql = (project: string, who: string) =>
      call('GET', `/v1/views/${project}/graph/sparql?query=${encodeURIComponent('SELECT ?t WHERE { ?s a ?t FILTER(STRSTARTS(STR(?t), "http://x/")) }')}`, who);
    const alice = await sparql('o1/p1', 'alice');
    expect(alice.status).to.equal(200);
    expect(alice.body['results']).to.deep.equal({ bindings: [{ t: { type: 'uri', value: 'http://x/T' } }] });
    expect((await sparql('o1/p2', 'alice')).status).to.equal(403);
    await grant('/o2/p3', [{ identity: user('carol'), permissions: ['views/query'] }]);
    expect((await sparql('o2/p3', 'carol')).status).to.equal(200);
    expect((await call('GET', '/v1/resources/o2/p3/_/r1', 'carol')).status).to.equal(403);
    const refused = await sparql('o1/p1', 'carol');
    expect([refused.status, refused.body['@type']]).to.deep.equal([403, 'AuthorizationFailed']);
  });

  it('refuses bad tokens with 401 and their names, never as anonymous', async () => {
    const expired = await provider.sign({ sub: 'alice' }, { expiresIn: -60 });
    const stray = await provider.sign({ sub: 'alice' }, { unpublishedKey: true });
    for (const [token, type] of [
      ['not-a-jwt', 'InvalidAccessTokenFormat'],
      [expired, 'InvalidAccessToken'],
      [stray, 'InvalidAccessToken'],
    ] as const) {
      const res = await fetch(`${server.url}/v1/resources/o1/p1/_/r1`, { headers: { authorization: `bearer ${token}` } });
      expect(res.status, type).to.equal(401);
      expect(((await res.json()) as { '@type': string })['@type']).to.equal(type);
    }
    const basic = await fetch(`${server.url}/v1/version`, { headers: { authorization: 'Basic eDp5' } });
    expect(basic.status).to.equal(401);
  });

  it('manages permissions and ACLs with rev, refuses unknown realms and permissions, and a deprecated realm stops its tokens', async () => {
    const perms = await call('GET', '/v1/permissions', 'admin');
    expect(perms.body['permissions']).to.include('resources/read');
    const appended = await call('PATCH', `/v1/permissions?rev=${perms.body['_rev']}`, 'admin', { '@type': 'Append', permissions: ['custom/thing'] });
    expect(appended.status).to.equal(200);
    expect((await call('PATCH', `/v1/permissions?rev=${perms.body['_rev']}`, 'admin', { '@type': 'Append', permissions: ['custom/other'] })).status).to.equal(
      409,
    );
    const unknownRealm = await call('PATCH', '/v1/acls/o2?rev=0', 'admin', {
      '@type': 'Append',
      acl: [{ identity: { realm: 'nope', subject: 'x' }, permissions: ['resources/read'] }],
    });
    expect(unknownRealm.body['@type']).to.equal('UnknownRealms');
    const unknownPermission = await call('PUT', '/v1/acls/o2?rev=0', 'admin', { acl: [{ identity: user('carol'), permissions: ['no/such'] }] });
    expect(unknownPermission.body['@type']).to.equal('UnknownPermissions');
    const ancestors = await call('GET', '/v1/acls/o1/p1?ancestors=true&self=false', 'admin');
    expect((ancestors.body['_results'] as { _path: string }[]).map((a) => a._path)).to.deep.equal(['/', '/o1', '/o1/p1']);
    expect((await call('GET', '/v1/acls/o1/p1?self=false', 'alice')).status).to.equal(403);
    const own = await call('GET', '/v1/acls/o1/p1', 'alice');
    expect(own.status).to.equal(200);
    const first = await call('GET', '/v1/acls/o1/p1?rev=1&self=false', 'admin');
    expect((first.body['_results'] as { _rev: number; acl: { permissions: string[] }[] }[]).map((a) => [a._rev, a.acl[0]!.permissions])).to.deep.equal([
      [1, ['resources/read']],
    ]);
    expect((await call('GET', '/v1/acls/o1/p1?rev=1&ancestors=true', 'admin')).status).to.equal(400);

    const realm = await call('GET', '/v1/realms/r1', 'admin');
    expect(realm.body['_issuer']).to.equal(provider.issuer);
    // A realm of its own to deprecate: r1's tokens, and grants on `/`, are what the other tests stand on.
    const other = await OidcIssuer.start();
    try {
      expect((await call('PUT', '/v1/realms/r2', 'admin', { name: 'r2', openIdConfig: other.openIdConfig })).status).to.equal(201);
      tokens['dave'] = await other.sign({ sub: 'dave', groups: [] });
      await grant('/', [{ identity: { realm: 'r2', subject: 'dave' }, permissions: ['version/read'] }]);
      expect((await call('GET', '/v1/version', 'dave')).status).to.equal(200);
      expect((await call('DELETE', '/v1/realms/r2?rev=1', 'admin')).status).to.equal(200);
      const after = await call('GET', '/v1/version', 'dave');
      expect(after.status).to.equal(401);
      expect(after.body['@type']).to.equal('UnknownAccessTokenIssuer');
    } finally {
      await other.stop();
    }
  });
});
