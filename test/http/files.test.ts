import { expect } from 'chai';
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve } from '../support/server.js';
import { multipart, storagesConfig, upload } from '../support/files.js';
import type { client } from '../support/client.js';

const sha256 = (data: Buffer | string) => createHash('sha256').update(data).digest('hex');

/** Every file below a folder, recursively. */
const filesUnder = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => (statSync(join(dir, name)).isDirectory() ? filesUnder(join(dir, name)) : [join(dir, name)]));

describe('files on disk storages', () => {
  let api: ReturnType<typeof client>;
  let base = '';
  const { config, volume } = storagesConfig({ 'plugins.storage.storages.disk.default-max-file-size': '100000' });
  serve(
    (s, a) => {
      api = a;
      base = s.url;
    },
    { storages: { ...config, allowedVolumes: [tmpdir()] } },
  );
  const F = () => `${base}/v1/files/${P}`;
  // Each test has a project of its own (with its default storage), so that each passes alone and in any order.
  let P = '';
  let made = 0;

  before(async () => {
    expect((await api.put('/v1/orgs/org', {})).status).to.equal(201);
  });
  beforeEach(async () => {
    P = `org/p${++made}`;
    expect((await api.put(`/v1/projects/${P}`, {})).status).to.equal(201);
  });

  it('uploads (PUT), answers the metadata, downloads the bytes with their name and type', async () => {
    const data = 'hello, files\n';
    const created = await upload(`${F()}/my-file`, 'PUT', data, 'hello.txt', 'text/plain');
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    expect(created.body).to.include({ '@type': 'File', _bytes: data.length, _filename: 'hello.txt', _mediaType: 'text/plain', _rev: 1 });
    expect(created.body._digest).to.deep.equal({ _algorithm: 'SHA-256', _value: sha256(data) });
    expect(created.body._storage).to.deep.include({ '@id': 'https://bluebrain.github.io/nexus/vocabulary/diskStorageDefault', '@type': 'DiskStorage' });
    expect(created.body._constrainedBy).to.equal('https://bluebrain.github.io/nexus/schemas/files.json');
    const got = await fetch(`${F()}/my-file`, { headers: { 'accept-encoding': 'gzip, br' } });
    expect(got.status).to.equal(200);
    expect(got.headers.get('content-encoding')).to.equal(null);
    expect(got.headers.get('content-length')).to.equal(String(data.length));
    expect(got.headers.get('content-type')).to.equal('text/plain; charset=UTF-8');
    expect(got.headers.get('content-disposition')).to.equal('attachment; filename="hello.txt"');
    expect(await got.text()).to.equal(data);
    const meta = await api.get(`/v1/files/${P}/my-file`, { accept: 'application/ld+json' });
    expect(meta.body).to.include({ _filename: 'hello.txt', _bytes: data.length });
    // Laid out under the volume by project and a generated path: nothing of the id or filename.
    const stored = filesUnder(join(volume, P));
    expect(stored).to.have.length(1);
    expect(stored[0]).not.to.include('hello');
  });

  it('answers a Range with 206 and encodes non-ASCII names (RFC 6266)', async () => {
    const data = Buffer.from(Array.from({ length: 1000 }, (_, i) => i % 256));
    const created = await upload(`${F()}`, 'POST', data, 'données é.bin');
    expect(created.status).to.equal(201);
    expect(created.body._filename).to.equal('données é.bin');
    const id = encodeURIComponent(created.body['@id']);
    const part = await fetch(`${F()}/${id}`, { headers: { range: 'bytes=10-19' } });
    expect(part.status).to.equal(206);
    expect(part.headers.get('content-range')).to.equal('bytes 10-19/1000');
    expect(Buffer.from(await part.arrayBuffer())).to.deep.equal(data.subarray(10, 20));
    const disposition = part.headers.get('content-disposition')!;
    expect(disposition).to.include("filename*=UTF-8''donn%C3%A9es%20%C3%A9.bin");
    const beyond = await fetch(`${F()}/${id}`, { headers: { range: 'bytes=5000-' } });
    expect(beyond.status).to.equal(416);
    expect((await beyond.json())['@type']).to.equal('RangeNotSatisfiable');
  });

  it('updates with rev, tags, fetches by rev and tag, deprecates; listings and statistics count every revision', async () => {
    const everywhere = (await api.get('/v1/files')).body._total as number;
    expect((await upload(`${F()}/my-file`, 'PUT', 'hello, files\n', 'hello.txt', 'text/plain')).status).to.equal(201);
    expect((await upload(`${F()}/other`, 'PUT', Buffer.alloc(1000, 7), 'other.bin')).status).to.equal(201);
    expect((await upload(`${F()}/my-file?rev=1`, 'PUT', 'second version', 'v2.txt')).status).to.equal(200);
    expect((await api.post(`/v1/files/${P}/my-file/tags?rev=2`, { tag: 'first', rev: 1 })).status).to.equal(201);
    expect(await (await fetch(`${F()}/my-file?tag=first`)).text()).to.equal('hello, files\n');
    expect(await (await fetch(`${F()}/my-file?rev=2`)).text()).to.equal('second version');
    expect((await api.get(`/v1/files/${P}/my-file/tags`)).body.tags).to.deep.equal([{ rev: 1, tag: 'first' }]);
    expect((await api.get(`/v1/files/${P}`)).body._total).to.equal(2);
    expect((await api.get('/v1/files')).body._total).to.equal(everywhere + 2);
    const stats = await api.get(`/v1/storages/${P}/defaultStorage/statistics`);
    expect(stats.body).to.include({ files: 3, spaceUsed: 13 + 1000 + 14 });
    expect(stats.body.lastProcessedEventDateTime).to.be.a('string');
    expect((await api.delete(`/v1/files/${P}/my-file?rev=3`)).status).to.equal(200);
    expect((await api.get(`/v1/files/${P}`)).body._total).to.equal(1);
    const again = await upload(`${F()}/my-file?rev=4`, 'PUT', 'x');
    expect([again.status, again.body['@type']]).to.deep.equal([400, 'FileIsDeprecated']);
    const outgoing = await api.get(`/v1/files/${P}/my-file/outgoing`);
    expect(outgoing.body._results.map((r: { '@id': string }) => r['@id'])).to.include('https://bluebrain.github.io/nexus/vocabulary/diskStorageDefault');
  });

  it('takes a file of maxFileSize bytes and one under; refuses one over while streaming (413), leaving nothing behind and no event', async () => {
    for (const [id, bytes] of [
      ['under', 99_999],
      ['exactly', 100_000],
    ] as const) {
      const r = await upload(`${F()}/${id}`, 'PUT', Buffer.alloc(bytes, 1));
      expect([r.status, r.body._bytes], id).to.deep.equal([201, bytes]);
    }
    const before = filesUnder(volume).length;
    const big = await upload(`${F()}/big`, 'PUT', Buffer.alloc(100_001, 1));
    expect([big.status, big.body['@type']]).to.deep.equal([413, 'FileTooLarge']);
    expect(big.body.reason).to.equal('File size exceeds the max file size for the storage (100000 bytes).');
    expect(filesUnder(volume).length).to.equal(before);
    expect((await api.get(`/v1/files/${P}/big`, { accept: 'application/ld+json' })).status).to.equal(404);
  });

  it('enforces the capacity of a disk storage: what is left is taken to the byte, one more is refused', async () => {
    const other = mkdtempSync(join(tmpdir(), 'registry-volume-'));
    expect((await api.put(`/v1/storages/${P}/small`, { '@type': 'DiskStorage', default: false, volume: other, capacity: 50 })).status).to.equal(201);
    expect((await upload(`${F()}/c1?storage=small`, 'PUT', Buffer.alloc(39))).status).to.equal(201);
    expect((await upload(`${F()}/c2?storage=small`, 'PUT', Buffer.alloc(10))).status, 'one under what is left').to.equal(201);
    const over = await upload(`${F()}/c3?storage=small`, 'PUT', Buffer.alloc(2));
    expect([over.status, over.body['@type']]).to.deep.equal([413, 'FileTooLarge']);
    expect(over.body.reason).to.equal('File size exceeds the space left on the storage (1 bytes of its capacity remain).');
    expect((await upload(`${F()}/c3?storage=small`, 'PUT', Buffer.alloc(1))).status, 'exactly what is left').to.equal(201);
    expect((await upload(`${F()}/c4?storage=small`, 'PUT', Buffer.alloc(1))).status, 'nothing left').to.equal(413);
    // The capacity account (.registry-capacity) aside, three files: a refused upload's partial file
    // is removed as its stream ends, which may come just after the refusal was answered.
    const stored = () => filesUnder(other).filter((f) => !f.includes('.registry-capacity'));
    for (let i = 0; i < 40 && stored().length !== 3; i++) await new Promise((r) => setTimeout(r, 50));
    expect(stored(), filesUnder(other).join(' ')).to.have.length(3);
  });

  it('refuses over maxFileSize, not over the capacity, while the capacity leaves as much or more', async () => {
    const other = mkdtempSync(join(tmpdir(), 'registry-volume-'));
    const storage = { '@type': 'DiskStorage', default: false, volume: other, capacity: 150, maxFileSize: 100 };
    expect((await api.put(`/v1/storages/${P}/roomy`, storage)).status).to.equal(201);
    const maxReason = 'File size exceeds the max file size for the storage (100 bytes).';
    expect((await upload(`${F()}/r1?storage=roomy`, 'PUT', Buffer.alloc(101))).body.reason, '150 left').to.equal(maxReason);
    expect((await upload(`${F()}/r2?storage=roomy`, 'PUT', Buffer.alloc(50))).status).to.equal(201);
    expect((await upload(`${F()}/r3?storage=roomy`, 'PUT', Buffer.alloc(101))).body.reason, 'as much left as maxFileSize').to.equal(maxReason);
    expect((await upload(`${F()}/r4?storage=roomy`, 'PUT', Buffer.alloc(100))).status).to.equal(201);
  });

  it('refuses bad uploads with typed errors', async () => {
    const other = mkdtempSync(join(tmpdir(), 'registry-volume-'));
    expect((await api.put(`/v1/storages/${P}/small`, { '@type': 'DiskStorage', default: false, volume: other })).status).to.equal(201);
    expect((await upload(`${F()}/my-file`, 'PUT', 'x')).status).to.equal(201);
    expect((await upload(`${F()}/c1?storage=small`, 'PUT', 'x')).status).to.equal(201);
    const noFile = multipart([{ name: 'other', filename: 'a.txt', data: 'x' }]);
    const r1 = await fetch(`${F()}/nf`, { method: 'PUT', body: new Uint8Array(noFile.body), headers: { 'content-type': noFile.type } });
    expect([r1.status, (await r1.json())['@type']]).to.deep.equal([400, 'InvalidMultipartFieldName']);
    const r2 = await fetch(`${F()}/nf`, { method: 'PUT', body: 'x', headers: { 'content-type': 'text/plain' } });
    expect(r2.status).to.equal(415);
    expect((await upload(`${F()}/my-file`, 'PUT', 'x')).body['@type']).to.equal('ResourceAlreadyExists');
    expect((await upload(`${F()}/c1?rev=7`, 'PUT', 'x')).body['@type']).to.equal('IncorrectRev');
    const unknown = await upload(`${F()}/u1?storage=nope`, 'PUT', 'x');
    expect([unknown.status, unknown.body['@type']]).to.deep.equal([404, 'ResourceNotFound']);
    expect((await api.delete(`/v1/storages/${P}/small?rev=1`)).status).to.equal(200);
    const deprecated = await upload(`${F()}/u2?storage=small`, 'PUT', 'x');
    expect([deprecated.status, deprecated.body['@type']]).to.deep.equal([400, 'StorageIsDeprecated']);
    expect((await api.put(`/v1/files/${P}/c1/undeprecate?rev=1`)).body['@type']).to.equal('FileIsNotDeprecated');
    const noBoundary = await fetch(`${F()}/nb`, { method: 'PUT', body: 'x', headers: { 'content-type': 'multipart/form-data' } });
    expect([noBoundary.status, (await noBoundary.json())['@type']]).to.deep.equal([400, 'MalformedRequestContentRejection']);
  });

  it('says when the bytes of a file are gone from its storage (FileNotAccessible)', async () => {
    const created = await upload(`${F()}/gone`, 'PUT', 'soon gone');
    expect(created.status).to.equal(201);
    for (const path of filesUnder(volume)) if (path.endsWith(created.body._uuid)) rmSync(path);
    const r = await fetch(`${F()}/gone`);
    expect([r.status, (await r.json())['@type']]).to.deep.equal([500, 'FileNotAccessible']);
  });

  it('multi-fetch serves storages and files metadata; links reach files and storages', async () => {
    const DEFAULT = 'https://bluebrain.github.io/nexus/vocabulary/diskStorageDefault';
    const fileId = `${base}/v1/resources/${P}/_/c1`;
    expect((await upload(`${F()}/c1`, 'PUT', Buffer.alloc(40))).status).to.equal(201);
    const compacted = await api.post('/v1/multi-fetch/resources', {
      format: 'compacted',
      resources: [
        { id: DEFAULT, project: `${P}` },
        { id: `${fileId}?rev=1`, project: `${P}` },
        { id: 'urn:nothing', project: `${P}` },
      ],
    });
    expect(compacted.status, compacted.text).to.equal(200);
    const [storage, file, missing] = compacted.body.resources;
    expect(storage.value).to.include({ '@id': DEFAULT, default: true, _algorithm: 'SHA-256' });
    expect(file.value).to.include({ '@id': fileId, '@type': 'File', _bytes: 40 });
    expect(missing.error['@type']).to.equal('NotFound');
    const triples = await api.post('/v1/multi-fetch/resources', { format: 'n-triples', resources: [{ id: fileId, project: `${P}` }] });
    expect(triples.body.resources[0].value).to.include('<https://bluebrain.github.io/nexus/vocabulary/bytes>');
    await api.put(`/v1/resources/${P}/_/citing`, { '@context': { '@vocab': 'http://x/' }, file: { '@id': fileId }, storage: { '@id': DEFAULT } });
    expect((await api.get(`/v1/files/${P}/c1/incoming`)).body._total).to.equal(1);
    expect((await api.get(`/v1/storages/${P}/defaultStorage/incoming`)).body._results.map((r: { '@id': string }) => r['@id'])).to.include(
      `${base}/v1/resources/${P}/_/citing`,
    );
  });

  it('refuses a file id the store cannot spell (InvalidResourceId), keeping no bytes', async () => {
    const before = filesUnder(volume).length;
    const r = await upload(`${F()}/http%3A%2F%2Fex.org%2Fa%3Eb`, 'PUT', 'x');
    expect([r.status, r.body['@type']]).to.deep.equal([400, 'InvalidResourceId']);
    expect(filesUnder(volume).length).to.equal(before);
  });

  it('finds files by their name with q, scored', async () => {
    expect((await upload(`${F()}/searched`, 'PUT', 'some bytes', 'quarterly-report.csv', 'text/csv')).status).to.equal(201);
    const found = await api.get(`/v1/files/${P}?q=quarterly report`);
    expect(found.status, found.text).to.equal(200);
    expect(found.body._total).to.equal(1);
    expect(found.body._results[0]._filename).to.equal('quarterly-report.csv');
    expect(found.body._results[0]._score).to.be.a('number').above(0);
    expect((await api.get(`/v1/files/${P}?q=annual`)).body._total).to.equal(0);
  });

  it('has no default storage to upload to once the default is deprecated', async () => {
    expect((await api.delete(`/v1/storages/${P}/defaultStorage?rev=1`)).status).to.equal(200);
    const r = await upload(`${F()}/orphan`, 'PUT', 'x');
    expect([r.status, r.body['@type'], r.body.reason]).to.deep.equal([404, 'ResourceNotFound', `Project '${P}' has no default storage.`]);
  });
});
