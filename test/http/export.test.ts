import { expect } from 'chai';
import { MINIMUM_PERMISSIONS } from '../../src/kernel/permissions.js';
import { serve, startServer } from '../support/server.js';
import type { TestServer } from '../support/server.js';
import { call, client, enc } from '../support/client.js';
import { EX, freshProject, schemaPayload, thing, unique } from '../support/schemas.js';
import { ndjson, postLines } from '../support/ndjson.js';
import { storagesConfig, upload } from '../support/files.js';
import { tmpdir } from 'node:os';

describe('project export', function () {
  this.timeout(60_000);
  let server: TestServer;
  let api: ReturnType<typeof client>;
  serve((s, a) => ((server = s), (api = a)));

  /** A project with a schema, resources validated by it or not, updates, tags, a deprecation and a tag removed. */
  const populate = async () => {
    const p = await freshProject(api);
    const schemaId = `${EX}schemas/${unique('person')}`;
    expect((await api.post(`/v1/schemas/${p}`, schemaPayload(schemaId, 'Person', { name: { datatype: 'xsd:string', minCount: 1 } }))).status).to.equal(201);
    const ann = `${EX}${unique('ann')}`;
    const plain = `${EX}${unique('plain')}`;
    expect((await api.post(`/v1/resources/${p}/${enc(schemaId)}`, thing('Person', { name: 'Ann' }, ann))).status).to.equal(201);
    expect((await api.put(`/v1/resources/${p}/_/${enc(ann)}?rev=1&tag=v1`, thing('Person', { name: 'Ann B.' }, ann))).status).to.equal(200);
    expect((await api.post(`/v1/resources/${p}/_/${enc(ann)}/tags?rev=2`, { tag: 'first', rev: 1 })).status).to.equal(201);
    const source = { '@context': { ex: EX, n: { '@id': 'ex:n', '@type': 'xsd:integer' } }, '@id': plain, 'ex:kept': [3, 1, 2], n: '7', 'ex:nil': null };
    expect((await api.post(`/v1/resources/${p}`, source)).status).to.equal(201);
    expect((await api.post(`/v1/resources/${p}/_/${enc(plain)}/tags?rev=1`, { tag: 'gone', rev: 1 })).status).to.equal(201);
    expect((await api.delete(`/v1/resources/${p}/_/${enc(plain)}/tags/gone?rev=2`)).status).to.equal(200);
    expect((await api.delete(`/v1/resources/${p}/_/${enc(plain)}?rev=3`)).status).to.equal(200);
    return { p, schemaId, ids: [ann, plain] };
  };

  /** What the comparison keeps of a line: everything but who and when wrote it. */
  const comparable = (line: Record<string, unknown>) => {
    const { _createdAt: _ca, _updatedAt: _ua, _createdBy: _cb, _updatedBy: _ub, _schemaProject: _sp, ...rest } = line;
    return rest;
  };

  it('streams one line per item and revision, schemas first, with the source exactly as sent', async () => {
    const { p, schemaId, ids } = await populate();
    const res = await fetch(`${server.url}/v1/export/projects/${p}`);
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.match(/^application\/x-ndjson/);
    const lines = ndjson(await res.text());
    expect(lines.map((l) => [l._kind, l['@id'], l._rev, l._event])).to.deep.equal([
      ['schemas', schemaId, 1, 'ResourceCreated'],
      ['resources', ids[0], 1, 'ResourceCreated'],
      ['resources', ids[0], 2, 'ResourceUpdated'],
      ['resources', ids[0], 3, 'ResourceTagAdded'],
      ['resources', ids[1], 1, 'ResourceCreated'],
      ['resources', ids[1], 2, 'ResourceTagAdded'],
      ['resources', ids[1], 3, 'ResourceTagDeleted'],
      ['resources', ids[1], 4, 'ResourceDeprecated'],
    ]);
    expect(lines[1]).to.include({ _schema: `${schemaId}?rev=1`, _deprecated: false });
    expect(lines[3]).to.deep.include({ _tags: { v1: 2, first: 1 }, _tag: 'first', _targetRev: 1 });
    expect(lines[4]._source).to.deep.equal((await api.get(`/v1/resources/${p}/_/${enc(ids[1]!)}/source?rev=1`)).body);
    expect(lines[4]._source['ex:nil']).to.equal(null);
    expect(lines[7]).to.include({ _deprecated: true });
    expect(lines[7]._createdBy).to.match(/anonymous$/);
  });

  it('gives every revision graph with Accept: application/n-quads', async () => {
    const { p, ids } = await populate();
    const res = await fetch(`${server.url}/v1/export/projects/${p}`, { headers: { accept: 'application/n-quads' } });
    expect(res.status).to.equal(200);
    const quads = await res.text();
    const graphs = new Set([...quads.matchAll(/ <([^>]+)> \.$/gm)].map((m) => m[1]));
    expect(graphs.size).to.equal(8);
    expect(quads).to.include(`<${ids[1]}> <http://example.com/kept> "3"^^<http://www.w3.org/2001/XMLSchema#integer>`);
  });

  it('round-trips: an export imported into an empty project gives the same items, revisions, tags and sources', async () => {
    const { p, ids } = await populate();
    const exported = await (await fetch(`${server.url}/v1/export/projects/${p}`)).text();
    const target = await freshProject(api);
    const imported = await postLines(`${server.url}/v1/bulk/resources/${target}`, exported.trim().split('\n'));
    expect(imported.lines.map((l) => l.status)).to.deep.equal([201, 201, 200, 200, 201, 200, 200, 200]);
    const again = ndjson(await (await fetch(`${server.url}/v1/export/projects/${target}`)).text());
    expect(again.map(comparable)).to.deep.equal(ndjson(exported).map(comparable));
    for (const id of ids) {
      const [a, b] = await Promise.all([api.get(`/v1/resources/${p}/_/${enc(id)}`), api.get(`/v1/resources/${target}/_/${enc(id)}`)]);
      expect(b.body).to.include({ _rev: a.body._rev, _deprecated: a.body._deprecated });
      expect((await api.get(`/v1/resources/${target}/_/${enc(id)}/tags`)).body.tags).to.deep.equal(
        (await api.get(`/v1/resources/${p}/_/${enc(id)}/tags`)).body.tags,
      );
    }
    // Imported again, every line is refused: nothing is added twice.
    const twice = await postLines(`${server.url}/v1/bulk/resources/${target}`, exported.trim().split('\n'));
    expect(twice.lines.every((l) => l.status >= 400)).to.equal(true);
  });

  it('refuses an unknown project and an unacceptable type', async () => {
    expect((await api.get('/v1/export/projects/nope/nothere')).status).to.equal(404);
    const p = await freshProject(api);
    expect((await api.get(`/v1/export/projects/${p}`, { accept: 'text/html' })).status).to.equal(406);
  });
});

describe('project export permissions', function () {
  this.timeout(60_000);
  let server: TestServer;
  before(async () => {
    server = await startServer();
    const api = client(server.url);
    await api.put('/v1/orgs/o', {});
    await api.put('/v1/projects/o/p', {});
    const kept = MINIMUM_PERMISSIONS.filter((perm) => perm !== 'resources/read' && perm !== 'schemas/write');
    expect((await api.put('/v1/acls?rev=0', { acl: [{ identity: { '@type': 'Anonymous' }, permissions: kept }] })).status).to.equal(201);
  });
  after(() => server.stop(true));

  it('needs resources/read on the project; replaying a schema needs schemas/write', async () => {
    const res = await client(server.url).get('/v1/export/projects/o/p');
    expect(res.status).to.equal(403);
    const schemaLine = {
      _kind: 'schemas',
      _event: 'ResourceCreated',
      '@id': `${EX}s`,
      _rev: 1,
      _schema: 'https://bluebrain.github.io/nexus/schemas/shacl-20170720.ttl',
      _source: {},
    };
    const imported = await postLines(`${server.url}/v1/bulk/resources/o/p`, [schemaLine]);
    expect(imported.lines[0]).to.include({ status: 403, '@type': 'AuthorizationFailed' });
  });
});

describe('project export of files', function () {
  this.timeout(60_000);
  let server: TestServer;
  let api: ReturnType<typeof client>;
  const { config } = storagesConfig();
  serve((s, a) => ((server = s), (api = a)), { storages: { ...config, allowedVolumes: [tmpdir()] } });

  it('gives a line per file revision: its metadata as a fetch shows it and the address of its bytes; an import refuses these lines', async () => {
    const p = await freshProject(api);
    const F = `${server.url}/v1/files/${p}/notes`;
    expect((await upload(F, 'PUT', 'first\n', 'a.txt', 'text/plain')).status).to.equal(201);
    expect((await upload(`${F}?rev=1`, 'PUT', 'second, longer\n', 'b.csv', 'text/csv')).status).to.equal(200);
    expect((await api.post(`/v1/files/${p}/notes/tags?rev=2`, { tag: 'v1', rev: 1 })).status).to.equal(201);
    const lines = ndjson(await (await fetch(`${server.url}/v1/export/projects/${p}`)).text()).filter((l) => l._kind === 'files');
    expect(lines.map((l) => [l._rev, l._event])).to.deep.equal([
      [1, 'FileCreated'],
      [2, 'FileUpdated'],
      [3, 'FileTagAdded'],
    ]);
    for (const line of lines) {
      const { _kind, _event, _tags, _download, ...metadata } = line;
      const fetched = await api.get(`/v1/files/${p}/notes?rev=${line._rev}`, { accept: 'application/ld+json' });
      const { '@context': _context, ...shown } = fetched.body;
      expect(metadata).to.deep.equal(shown);
      expect(_tags).to.deep.equal({ v1: 1 });
      expect(_download).to.equal(`${shown._self}?rev=${line._rev}`);
    }
    expect(lines[0]).to.include({ _filename: 'a.txt', _mediaType: 'text/plain', _bytes: 6 });
    expect(lines[1]).to.include({ _filename: 'b.csv', _mediaType: 'text/csv', _bytes: 15 });
    expect(lines[1]._digest).to.have.keys('_algorithm', '_value');
    expect(lines[1]._storage).to.include({ '@type': 'DiskStorage' });
    expect(await (await fetch(lines[0]._download)).text()).to.equal('first\n');
    const imported = await postLines(`${server.url}/v1/bulk/resources/${await freshProject(api)}`, lines);
    expect(imported.lines.map((l) => [l.status, l['@type']])).to.deep.equal(lines.map(() => [400, 'MalformedRequestContentRejection']));
    expect(imported.lines[0].reason).to.match(/_download/);
  });
});

describe('project export of files kept by a storage the caller may not read', function () {
  this.timeout(60_000);
  let server: TestServer;
  before(async () => (server = await startServer({ storages: storagesConfig().config })));
  after(() => server.stop(true));

  it('leaves them out, as their fetch would refuse them', async () => {
    const api = client(server.url);
    expect((await call(server.url, 'PATCH', '/v1/permissions?rev=0', { '@type': 'Append', permissions: ['custom/read'] })).status).to.equal(200);
    const p = await freshProject(api);
    const storage = await api.put(`/v1/storages/${p}/custom`, {
      '@type': 'DiskStorage',
      default: false,
      readPermission: 'custom/read',
      writePermission: 'files/write',
    });
    expect(storage.status).to.equal(201);
    expect((await upload(`${server.url}/v1/files/${p}/guarded?storage=custom`, 'PUT', 'guarded')).status).to.equal(201);
    expect((await upload(`${server.url}/v1/files/${p}/plain`, 'PUT', 'plain')).status).to.equal(201);
    const exported = async () =>
      ndjson(await (await fetch(`${server.url}/v1/export/projects/${p}`)).text())
        .filter((l) => l._kind === 'files')
        .map((l) => l._self.split('%2F').pop());
    expect(await exported()).to.deep.equal(['plain']);
    expect(
      (await api.put('/v1/acls?rev=0', { acl: [{ identity: { '@type': 'Anonymous' }, permissions: [...MINIMUM_PERMISSIONS, 'custom/read'] }] })).status,
    ).to.equal(201);
    expect(await exported()).to.deep.equal(['guarded', 'plain']);
  });
});

describe('project export: recorded instants and subjects', function () {
  this.timeout(60_000);
  const ELSEWHERE = 'https://elsewhere.example/v1/realms/other/users/alice';
  /** An export as another deployment made it: alice did everything, a minute apart from 2020 on. */
  const recordedElsewhere = (exported: string) =>
    ndjson(exported).map((line, i) => {
      const at = new Date(Date.UTC(2020, 0, 1) + i * 60_000).toISOString();
      return { ...line, _createdBy: ELSEWHERE, _updatedBy: ELSEWHERE, _updatedAt: at, ...(line._rev === 1 ? { _createdAt: at } : {}) };
    });

  /** A server, a project populated, its export as recorded elsewhere, and an empty project to import it into. */
  const setUp = async (server: TestServer) => {
    const api = client(server.url);
    const p = await freshProject(api);
    const id = `${EX}${unique('kept')}`;
    expect((await api.post(`/v1/resources/${p}`, thing('Thing', { name: 'A' }, id))).status).to.equal(201);
    expect((await api.put(`/v1/resources/${p}/_/${enc(id)}?rev=1`, thing('Thing', { name: 'B' }, id))).status).to.equal(200);
    expect((await api.post(`/v1/resources/${p}/_/${enc(id)}/tags?rev=2`, { tag: 't', rev: 1 })).status).to.equal(201);
    const lines = recordedElsewhere(await (await fetch(`${server.url}/v1/export/projects/${p}`)).text());
    return { api, id, lines, target: await freshProject(api) };
  };

  describe('a caller with permissions/write on /', () => {
    let server: TestServer;
    before(async () => (server = await startServer()));
    after(() => server.stop(true));

    it('keeps the recorded instants and subjects, an instant out of order excepted', async () => {
      const { api, id, lines, target } = await setUp(server);
      // The third revision claims to precede the second: it gets the import's own instant.
      lines[2]._updatedAt = '2019-06-01T00:00:00.000Z';
      const started = new Date().toISOString();
      const imported = await postLines(`${server.url}/v1/bulk/resources/${target}`, lines);
      expect(imported.lines.map((l) => l.status)).to.deep.equal([201, 200, 200]);
      const again = ndjson(await (await fetch(`${server.url}/v1/export/projects/${target}`)).text());
      const subject = `${server.url}/v1/realms/other/users/alice`;
      expect(again.map((l) => [l._rev, l._createdAt, l._createdBy, l._updatedBy])).to.deep.equal(
        [1, 2, 3].map((rev) => [rev, '2020-01-01T00:00:00.000Z', subject, subject]),
      );
      expect(again[0]._updatedAt).to.equal('2020-01-01T00:00:00.000Z');
      expect(again[1]._updatedAt).to.equal('2020-01-01T00:01:00.000Z');
      expect(again[2]._updatedAt >= started).to.equal(true);
      const fetched = (await api.get(`/v1/resources/${target}/_/${enc(id)}?rev=2`)).body;
      expect(fetched).to.include({ _createdAt: '2020-01-01T00:00:00.000Z', _updatedAt: '2020-01-01T00:01:00.000Z', _updatedBy: subject });
    });
  });

  describe('a caller without it', () => {
    let server: TestServer;
    before(async () => {
      server = await startServer();
      const kept = MINIMUM_PERMISSIONS.filter((perm) => perm !== 'permissions/write');
      const res = await client(server.url).put('/v1/acls?rev=0', { acl: [{ identity: { '@type': 'Anonymous' }, permissions: kept }] });
      expect(res.status).to.equal(201);
    });
    after(() => server.stop(true));

    it("records the import's own instants and subject", async () => {
      const { lines, target } = await setUp(server);
      const started = new Date().toISOString();
      const imported = await postLines(`${server.url}/v1/bulk/resources/${target}`, lines);
      expect(imported.lines.map((l) => l.status)).to.deep.equal([201, 200, 200]);
      const again = ndjson(await (await fetch(`${server.url}/v1/export/projects/${target}`)).text());
      expect(again).to.have.length(3);
      for (const line of again) {
        expect(line._createdBy).to.equal(`${server.url}/v1/anonymous`);
        expect(line._updatedBy).to.equal(`${server.url}/v1/anonymous`);
        expect(line._createdAt >= started && line._updatedAt >= started).to.equal(true);
      }
    });
  });
});
