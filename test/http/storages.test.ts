import { expect } from 'chai';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve } from '../support/server.js';
import { storagesConfig } from '../support/files.js';
import { openStream } from '../support/sse.js';
import type { client } from '../support/client.js';

const DEFAULT = 'https://bluebrain.github.io/nexus/vocabulary/diskStorageDefault';

describe('storages (spec 2.5, 4.4)', () => {
  let api: ReturnType<typeof client>;
  let base = '';
  const { config, volume } = storagesConfig({ 'plugins.storage.storages.disk.default-max-file-size': '1000' });
  serve(
    (s, a) => {
      api = a;
      base = s.url;
    },
    { storages: { ...config, allowedVolumes: [tmpdir()] } },
  );
  const T = '/v1/storages/org/proj';

  before(async () => {
    expect((await api.put('/v1/orgs/org', {})).status).to.equal(201);
    expect((await api.put('/v1/projects/org/proj', {})).status).to.equal(201);
  });

  it('creates the default disk storage with each project, with every default filled in', async () => {
    const r = await api.get(`${T}/defaultStorage`);
    expect(r.status).to.equal(200);
    expect(r.body['@id']).to.equal(DEFAULT);
    expect(r.body['@type']).to.deep.equal(['Storage', 'DiskStorage']);
    expect(r.body).to.include({ default: true, volume, readPermission: 'resources/read', writePermission: 'files/write', maxFileSize: 1000 });
    expect(r.body).to.include({ _algorithm: 'SHA-256', _constrainedBy: 'https://bluebrain.github.io/nexus/schemas/storages.json', _rev: 1 });
    expect((await api.get(`${T}/defaultStorage/source`)).body).to.deep.equal({ '@id': DEFAULT, '@type': 'DiskStorage', default: true });
  });

  it('answers a storage write with its metadata and a fetch with its fields, each with its own contexts and links', async () => {
    const ctx = (name: string) => `https://bluebrain.github.io/nexus/contexts/${name}.json`;
    const volume = mkdtempSync(join(tmpdir(), 'registry-volume-'));
    // A project of its own: the other tests count this project's storages and events.
    expect((await api.put('/v1/projects/org/shapes', {})).status).to.equal(201);
    const created = await api.put('/v1/storages/org/shapes/shaped', { '@type': 'DiskStorage', default: false, volume });
    expect(created.status, created.text).to.equal(201);
    const self = `${base}/v1/storages/org/shapes/${encodeURIComponent(created.body['@id'])}`;
    const links = { _self: self, _incoming: `${self}/incoming`, _outgoing: `${self}/outgoing`, _project: 'org/shapes' };
    expect(created.body['@context']).to.deep.equal([ctx('storages-metadata'), ctx('metadata')]);
    expect(created.body).to.include(links).and.not.have.property('volume');
    const fetched = await api.get('/v1/storages/org/shapes/shaped');
    expect(fetched.body['@context']).to.deep.equal([ctx('storages'), ctx('metadata')]);
    expect(fetched.body).to.include({ ...links, volume, default: false, '@id': created.body['@id'] });
    expect(fetched.body['@type']).to.deep.equal(['Storage', 'DiskStorage']);
    expect((await fetch(fetched.body._incoming)).status).to.equal(200);
  });

  it('creates, updates, tags, fetches by rev and tag, deprecates; a new default unsets the previous one', async () => {
    // A project of its own: this test changes its default storage, which the others read.
    expect((await api.put('/v1/projects/org/lifecycle', {})).status).to.equal(201);
    const L = '/v1/storages/org/lifecycle';
    const other = mkdtempSync(join(tmpdir(), 'registry-volume-'));
    const created = await api.put(`${L}/disk2`, { '@type': 'DiskStorage', default: true, volume: other, maxFileSize: 500 });
    expect(created.status, created.text).to.equal(201);
    expect(created.body['@type']).to.deep.equal(['Storage', 'DiskStorage']);
    expect((await api.get(`${L}/defaultStorage`)).body).to.include({ default: false, _rev: 2 });
    const updated = await api.put(`${L}/disk2?rev=1`, { '@type': 'DiskStorage', default: true, volume: other, maxFileSize: 600 });
    expect(updated.status, updated.text).to.equal(200);
    expect((await api.post(`${L}/disk2/tags?rev=2`, { tag: 'v1', rev: 1 })).status).to.equal(201);
    expect((await api.get(`${L}/disk2?tag=v1`)).body.maxFileSize).to.equal(500);
    expect((await api.get(`${L}/disk2?rev=2`)).body.maxFileSize).to.equal(600);
    expect((await api.get(`${L}/disk2/tags`)).body.tags).to.deep.equal([{ rev: 1, tag: 'v1' }]);
    const listed = await api.get(L);
    expect(listed.body._total).to.equal(2);
    const everywhere = await api.get('/v1/storages?size=100');
    expect(everywhere.body._results.filter((r: { _project: string }) => r._project === 'org/lifecycle')).to.have.length(2);
    expect((await api.get(`${L}?type=nxv:DiskStorage`)).body._total).to.equal(2);
    expect((await api.delete(`${L}/disk2?rev=3`)).status).to.equal(200);
    expect((await api.get(L)).body._total).to.equal(1);
    const refused = await api.put(`${L}/disk2?rev=4`, { '@type': 'DiskStorage', default: false, volume: other });
    expect(refused.body['@type']).to.equal('StorageIsDeprecated');
  });

  it('finds storages by the words of their attributes with q, scored, at every scope', async () => {
    const other = mkdtempSync(join(tmpdir(), 'registry-volume-'));
    expect((await api.put(`${T}/searchable`, { '@type': 'DiskStorage', volume: other, maxFileSize: 777 })).status).to.equal(201);
    for (const path of [T, '/v1/storages/org', '/v1/storages']) {
      const found = await api.get(`${path}?q=777`);
      expect(found.status, found.text).to.equal(200);
      expect(found.body._total, path).to.equal(1);
      expect(found.body._results[0]['@id']).to.match(/searchable$/);
      expect(found.body._results[0]._score).to.be.a('number').above(0);
      expect(found.body._maxScore).to.equal(found.body._results[0]._score);
    }
    expect((await api.get(`${T}?q=nothing-like-this`)).body._total).to.equal(0);
    expect((await api.delete(`${T}/searchable?rev=1`)).status).to.equal(200);
    expect((await api.get(`${T}?q=777`)).body._total).to.equal(0);
    expect((await api.get(`${T}?q=777&deprecated=true`)).body._total).to.equal(1);
  });

  it('refuses what it cannot use, with the wire rejections', async () => {
    const missing = await api.put(`${T}/x1`, { '@type': 'DiskStorage', default: false, volume: join(tmpdir(), 'no-such-volume-x') });
    expect([missing.status, missing.body['@type']]).to.deep.equal([400, 'StorageNotAccessible']);
    expect(missing.body.details).to.include('does not exist');
    const file = join(mkdtempSync(join(tmpdir(), 'registry-volume-')), 'plain');
    writeFileSync(file, 'x');
    expect((await api.put(`${T}/x2`, { '@type': 'DiskStorage', default: false, volume: file })).body['@type']).to.equal('StorageNotAccessible');
    expect((await api.put(`${T}/x2`, { '@type': 'DiskStorage', default: false, volume: '/' })).body['@type']).to.equal('StorageNotAccessible');
    const tooBig = await api.put(`${T}/x3`, { '@type': 'DiskStorage', default: false, maxFileSize: 1001 });
    expect([tooBig.status, tooBig.body['@type']]).to.deep.equal([400, 'InvalidMaxFileSize']);
    expect((await api.put(`${T}/x3`, { '@type': 'DiskStorage', default: false, maxFileSize: 0 })).body['@type']).to.equal('InvalidMaxFileSize');
    const disabled = await api.put(`${T}/x4`, { '@type': 'BlobStorage', default: false });
    expect([disabled.status, disabled.body['@type']]).to.deep.equal([400, 'InvalidStorageType']);
    const perms = await api.put(`${T}/x5`, { '@type': 'DiskStorage', default: false, readPermission: 'no/such' });
    expect([perms.status, perms.body['@type']]).to.deep.equal([400, 'PermissionsAreNotDefined']);
    const shape = await api.put(`${T}/x6`, { '@type': 'DiskStorage', default: false, volume: '' });
    expect([shape.status, shape.body['@type']]).to.deep.equal([400, 'InvalidStorage']);
    expect((await api.put(`${T}/defaultStorage?rev=99`, { '@type': 'DiskStorage', default: false })).body['@type']).to.equal('IncorrectRev');
    const unknown = await api.get(`${T}/nope`);
    expect([unknown.status, unknown.body['@type']]).to.deep.equal([404, 'ResourceNotFound']);
    expect(unknown.body.reason).to.match(/^Storage '.*nope' not found in project 'org\/proj'\.$/);
    expect((await api.put(`${T}/defaultStorage`, { '@type': 'DiskStorage', default: false })).status).to.equal(409);
    expect((await api.get(`${T}?type=nxv:DiskStorage`)).body._total).to.equal(1);
  });

  it('refuses an id the store cannot spell (InvalidResourceId), before anything is written', async () => {
    for (const id of ['http%3A%2F%2Fex.org%2Fa%3Cb', 'http%3A%2F%2Fex.org%2Fa%0Ab']) {
      const r = await api.put(`${T}/${id}`, { '@type': 'DiskStorage' });
      expect([r.status, r.body['@type']], id).to.deep.equal([400, 'InvalidResourceId']);
    }
    const inPayload = await api.post(T, { '@id': 'http://ex.org/a"b', '@type': 'DiskStorage' });
    expect([inPayload.status, inPayload.body['@type']]).to.deep.equal([400, 'InvalidResourceId']);
  });

  it('refuses a changed type on update', async () => {
    const rev = (await api.get(`${T}/defaultStorage`)).body._rev as number;
    const r = await api.put(`${T}/defaultStorage?rev=${rev}`, { '@type': 'RemoteDiskStorage', default: false, folder: 'f' });
    // Remote disk is disabled here: the type is refused before it is compared.
    expect(r.body['@type']).to.be.oneOf(['InvalidStorageType', 'DifferentStorageType']);
  });

  it('streams storage events with _storageId and _source (secrets: test/integration/secretSweep)', async () => {
    // A project of its own, so that its stream holds this test's events only.
    expect((await api.put('/v1/projects/org/streamed', {})).status).to.equal(201);
    const volume = mkdtempSync(join(tmpdir(), 'registry-volume-'));
    expect((await api.put('/v1/storages/org/streamed/disk2', { '@type': 'DiskStorage', default: true, volume })).status).to.equal(201);
    const stream = await openStream(`${base}/v1/storages/org/streamed/events`);
    try {
      const events = await stream.take(3);
      expect(events.map((e) => e.event)).to.deep.equal(['StorageCreated', 'StorageCreated', 'StorageUpdated']);
      const first = events[0]!.payload;
      expect(first).to.include({ _storageId: DEFAULT, _resourceId: DEFAULT, _project: 'org/streamed', _rev: 1 });
      expect(first._source).to.deep.equal({ '@id': DEFAULT, '@type': 'DiskStorage', default: true });
      expect(first._types).to.deep.equal(['https://bluebrain.github.io/nexus/vocabulary/Storage', 'https://bluebrain.github.io/nexus/vocabulary/DiskStorage']);
    } finally {
      stream.close();
    }
  });
});
