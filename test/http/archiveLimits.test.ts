import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { MINIMUM_PERMISSIONS } from '../../src/kernel/permissions.js';
import { startServer } from '../support/server.js';
import type { TestServer } from '../support/server.js';
import { OidcIssuer } from '../support/oidcIssuer.js';
import { storagesConfig } from '../support/files.js';

const EX = 'http://example.com/';
const META = 'application/ld+json';
/** Callers with `resources/read` on every project but `hidden`: each test its own callers and projects, as caps count across tests. */
const READERS = ['alice', 'bob', 'carol', 'dave', 'erin', 'frank', 'gina', 'hank', 'ivan'];
const PROJECTS = ['c1', 'c2', 'pc', 'b', 'paths', 'o', 'y'];

/**
 * What one caller of archives and multi-fetch cannot do to the others (issue 32, findings 2, 3, 9
 * and 11's archive oracle): hold memory without end, hold the event loop, write members outside
 * the extraction target, learn what exists in a project it may not read.
 */
describe('archives and multi-fetch: caps, shares, turns, member paths, existence', function () {
  this.timeout(120_000);
  let provider: OidcIssuer;
  let server: TestServer;
  const tokens: Record<string, string> = {};
  const big = randomBytes(24 * 1024 * 1024);

  const call = async (method: string, path: string, who: string | undefined, body?: unknown, accept = META) => {
    const headers: Record<string, string> = { accept };
    if (who) headers['authorization'] = `Bearer ${tokens[who]}`;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(`${server.url}${path}`, { method, headers, redirect: 'manual', ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
    const text = await res.text();
    let parsed: Record<string, any> = {}; // eslint-disable-line @typescript-eslint/no-explicit-any
    try {
      parsed = text ? JSON.parse(text) : {};
    } catch {
      /* an archive's bytes */
    }
    return { status: res.status, headers: res.headers, body: parsed };
  };
  const user = (subject: string) => ({ realm: 'r1', subject });
  const grant = async (path: string, subjects: string[], permissions: string[]) => {
    const current = await call('GET', `/v1/acls${path}?self=false`, 'admin');
    const rev = (current.body['_results'] as { _rev: number }[] | undefined)?.[0]?._rev ?? 0;
    const acl = subjects.map((s) => ({ identity: user(s), permissions }));
    const res = await call('PATCH', `/v1/acls${path}?rev=${rev}`, 'admin', { '@type': 'Append', acl });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
  };
  const resources = (n: number, project?: string) =>
    Array.from({ length: n }, (_, i) => ({ '@type': 'Resource', resourceId: `${EX}r1`, path: `r/${i}.json`, ...(project ? { project } : {}) }));

  before(async () => {
    provider = await OidcIssuer.start();
    const { config: storages } = storagesConfig({ 'plugins.storage.storages.disk.default-max-file-size': String(64 * 1024 * 1024) });
    server = await startServer({
      storages,
      maxPayloadBytes: 4 * 1024 * 1024,
      archivesPerCaller: 3,
      archiveBytesPerCaller: 8_000_000,
      archivesPerProject: 5,
      archiveBytesPerProject: 100_000_000,
      costlyPerCaller: 1,
    });
    expect((await call('PUT', '/v1/realms/r1', undefined, { name: 'r1', openIdConfig: provider.openIdConfig })).status).to.equal(201);
    for (const name of ['admin', ...READERS]) tokens[name] = await provider.sign({ sub: name });
    const locked = await call('PUT', '/v1/acls?rev=0', undefined, { acl: [{ identity: user('admin'), permissions: [...MINIMUM_PERMISSIONS] }] });
    expect(locked.status, JSON.stringify(locked.body)).to.equal(201);
    expect((await call('PUT', '/v1/orgs/a', 'admin', {})).status).to.equal(201);
    for (const p of [...PROJECTS, 'hidden']) {
      expect((await call('PUT', `/v1/projects/a/${p}`, 'admin', {})).status).to.equal(201);
      expect((await call('PUT', `/v1/resources/a/${p}/_/${encodeURIComponent(`${EX}r1`)}`, 'admin', { '@context': { '@vocab': EX }, n: 1 })).status).to.equal(
        201,
      );
    }
    // Delta's permission: `resources/read` alone makes archives (its archives' write permission is resources/read).
    for (const p of PROJECTS) await grant(`/a/${p}`, READERS, ['resources/read']);
    const file = async (path: string, bytes: Buffer | string, name: string) => {
      const form = new FormData();
      form.append('file', new Blob([typeof bytes === 'string' ? bytes : new Uint8Array(bytes)]), name);
      const res = await fetch(`${server.url}${path}`, { method: 'PUT', headers: { authorization: `Bearer ${tokens['admin']}` }, body: form });
      expect(res.status, await res.text()).to.equal(201);
    };
    await file('/v1/files/a/y/big', big, 'big.bin');
    await file('/v1/files/a/hidden/secret', 'secret', 'secret.txt');
  });
  after(async () => {
    await server?.stop(true);
    await provider?.stop();
  });

  it('caps the archives one caller holds (count), whatever project, with 429 ArchiveQuotaReached and Retry-After; others are not held to it', async () => {
    for (let n = 0; n < 3; n++)
      expect((await call('PUT', `/v1/archives/a/c${1 + (n % 2)}/alice-${n}`, 'alice', { resources: resources(1) })).status).to.equal(201);
    const refused = await call('PUT', '/v1/archives/a/c2/alice-3', 'alice', { resources: resources(1) });
    expect([refused.status, refused.body['@type']]).to.deep.equal([429, 'ArchiveQuotaReached']);
    expect(refused.body).to.include({ scope: 'caller', limit: 'count', max: 3 });
    expect(Number(refused.headers.get('retry-after'))).to.be.within(1, 18_000);
    expect((await call('GET', '/v1/archives/a/c2/alice-3', 'alice')).status).to.equal(404);
    expect((await call('POST', '/v1/archives/a/c2', 'alice', { resources: resources(1) })).status).to.equal(429);
    expect((await call('PUT', '/v1/archives/a/c2/bob-0', 'bob', { resources: resources(1) })).status).to.equal(201);
  });

  it('caps the archives one project holds (count)', async () => {
    for (const [n, who] of ['carol', 'carol', 'hank', 'hank', 'ivan'].entries())
      expect((await call('PUT', `/v1/archives/a/pc/${who}-${n}`, who, { resources: resources(1) })).status).to.equal(201);
    const refused = await call('POST', '/v1/archives/a/pc', 'ivan', { resources: resources(1) });
    expect([refused.status, refused.body['@type']]).to.deep.equal([429, 'ArchiveQuotaReached']);
    expect(refused.body).to.include({ scope: 'project', limit: 'count', max: 5 });
    expect((await call('POST', '/v1/archives/a/c1', 'ivan', { resources: resources(1) })).status).to.equal(201);
  });

  it('caps the bytes of one caller’s archives', async () => {
    const heavy = () => ({ resources: [{ ...resources(1)[0], note: 'x'.repeat(3_500_000) }] });
    expect((await call('PUT', '/v1/archives/a/b/dave-0', 'dave', heavy())).status).to.equal(201);
    expect((await call('PUT', '/v1/archives/a/b/dave-1', 'dave', heavy())).status).to.equal(201);
    const refused = await call('PUT', '/v1/archives/a/b/dave-2', 'dave', heavy());
    expect([refused.status, refused.body['@type']]).to.deep.equal([429, 'ArchiveQuotaReached']);
    expect(refused.body).to.include({ scope: 'caller', limit: 'bytes', max: 8_000_000 });
  });

  it('refuses member paths that leave the extraction target, with 400 InvalidResourceCollection, keeping nothing', async () => {
    const unsafe = [
      '..\u0000/x',
      'a/..\u0000/x',
      '../x',
      'a/../../x',
      '/etc/x',
      'a\\..\\x',
      '..\\x',
      'C:/x',
      'c:x',
      'a//b',
      'a/',
      './a',
      'a/./b',
      '.',
      'a/\u0007b',
      'a\u202Eb',
      'line\nbreak',
      'a\u2028b',
    ];
    for (const [n, path] of unsafe.entries()) {
      const refused = await call('PUT', `/v1/archives/a/paths/unsafe-${n}`, 'erin', { resources: [{ '@type': 'Resource', resourceId: `${EX}r1`, path }] });
      expect([refused.status, refused.body['@type']], JSON.stringify(path)).to.deep.equal([400, 'InvalidResourceCollection']);
      expect(refused.body['invalids']).to.deep.equal([path]);
      expect((await call('GET', `/v1/archives/a/paths/unsafe-${n}`, 'erin')).status).to.equal(404);
    }
    // Still fine: nested relative paths, dots inside names, non-ASCII letters.
    expect(
      (await call('PUT', '/v1/archives/a/paths/safe', 'erin', { resources: [{ '@type': 'Resource', resourceId: `${EX}r1`, path: 'a/..b/.c/été.json' }] }))
        .status,
    ).to.equal(201);
  });

  it('answers an archive File entry of a project the caller may not read with 403, whether the file (or project) exists or not', async () => {
    const outcomes: [number, string][] = [];
    for (const [n, entry] of [
      { '@type': 'File', resourceId: 'secret', project: 'a/hidden' },
      { '@type': 'File', resourceId: 'nothing', project: 'a/hidden' },
      { '@type': 'File', resourceId: 'nothing', project: 'a/nowhere' },
      { '@type': 'Resource', resourceId: `${EX}r1`, project: 'a/nowhere' },
      { '@type': 'Resource', resourceId: `${EX}nothing`, project: 'a/hidden' },
    ].entries()) {
      expect((await call('PUT', `/v1/archives/a/o/oracle-${n}`, n < 3 ? 'frank' : 'gina', { resources: [entry] })).status).to.equal(201);
      const res = await call('GET', `/v1/archives/a/o/oracle-${n}`, 'carol', undefined, 'application/x-tar');
      outcomes.push([res.status, res.body['@type']]);
    }
    expect(outcomes).to.deep.equal(Array(5).fill([403, 'AuthorizationFailed']));
    // Who may read the project is told: not found.
    const found = await call('GET', '/v1/archives/a/o/oracle-1', 'admin', undefined, 'application/x-tar');
    expect([found.status, found.body['@type']]).to.deep.equal([404, 'ResourceNotFound']);
  });

  it('counts a download, and a multi-fetch of many entries, against the caller’s share of costly requests', async () => {
    expect((await call('PUT', '/v1/archives/a/y/bigfile', 'gina', { resources: [{ '@type': 'File', resourceId: 'big' }] })).status).to.equal(201);
    const held = await fetch(`${server.url}/v1/archives/a/y/bigfile`, { headers: { accept: 'application/x-tar', authorization: `Bearer ${tokens['erin']}` } });
    expect(held.status).to.equal(200);
    // Read a first chunk, then stop reading: the download stays in flight, its bytes held back by the socket.
    const reader = held.body!.getReader();
    await reader.read();
    try {
      const second = await call('GET', '/v1/archives/a/y/bigfile', 'erin', undefined, 'application/x-tar');
      expect([second.status, second.body['@type']]).to.deep.equal([429, 'TooManyRequests']);
      const many = (n: number) => ({ format: 'source', resources: Array.from({ length: n }, () => ({ id: `${EX}r1`, project: 'a/y' })) });
      expect((await call('POST', '/v1/multi-fetch/resources', 'erin', many(101))).status).to.equal(429);
      expect((await call('POST', '/v1/multi-fetch/resources', 'erin', many(100))).status).to.equal(200);
      // The description is not a download; another caller has a share of its own.
      expect((await call('GET', '/v1/archives/a/y/bigfile', 'erin')).status).to.equal(200);
      expect((await call('GET', '/v1/archives/a/y/bigfile', 'bob', undefined, 'application/x-tar')).status).to.equal(200);
    } finally {
      await reader.cancel();
    }
    // Once the held download is gone, its share is free again (polled: the server notices the closed socket on its own time).
    let status = 0;
    for (let i = 0; i < 100 && status !== 200; i++) {
      const res = await fetch(`${server.url}/v1/multi-fetch/resources`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${tokens['erin']}` },
        body: JSON.stringify({ format: 'source', resources: Array.from({ length: 101 }, () => ({ id: `${EX}r1`, project: 'a/y' })) }),
      });
      status = res.status;
      await res.arrayBuffer();
      if (status !== 200) await new Promise((ok) => setTimeout(ok, 50));
    }
    expect(status).to.equal(200);
  });

  it('lets other requests through while a download of many entries is checked and rendered (slices of the shared turns)', async () => {
    const entries = 30_000;
    expect((await call('PUT', '/v1/archives/a/y/many', 'bob', { resources: resources(entries) })).status).to.equal(201);
    const order: string[] = [];
    const download = fetch(`${server.url}/v1/archives/a/y/many`, { headers: { accept: 'application/x-tar', authorization: `Bearer ${tokens['bob']}` } }).then(
      async (res) => {
        order.push('download headers');
        await res.arrayBuffer();
        order.push('download end');
      },
    );
    // Sent once the download is under way: answered between its slices, not after its whole check.
    await new Promise((ok) => setTimeout(ok, 30));
    const live = fetch(`${server.url}/health/live`).then(async (res) => {
      await res.arrayBuffer();
      order.push('live');
    });
    await Promise.all([download, live]);
    expect(order[0]).to.equal('live');
  });
});
