import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { serve } from '../support/server.js';
import type { client } from '../support/client.js';
import { enc } from '../support/client.js';
import { storagesConfig, upload } from '../support/files.js';

const EX = 'http://example.com/';
/** A JSON client: creating answers 201 with the metadata (any `Accept` a zip matches, `*\/*` included, asks for the archive: 303). */
const META = { accept: 'application/ld+json' };

/** Facts from Delta 1.10's archives-api.md, its assets (payload, created, fetched) and ArchiveRejection.scala. */
describe('archives (Delta 1.10 archives API)', function () {
  this.timeout(60_000);
  let api: ReturnType<typeof client>;
  let base = '';
  const { config } = storagesConfig({ 'plugins.storage.storages.disk.default-max-file-size': '20000000' });
  serve(
    (s, a) => {
      api = a;
      base = s.url;
    },
    { storages: { ...config, allowedVolumes: [tmpdir()] }, archiveTtlSeconds: 3600 },
  );
  const A = '/v1/archives/ar/p1';
  const big = randomBytes(5 * 1024 * 1024 + 3);

  before(async () => {
    expect((await api.put('/v1/orgs/ar', {})).status).to.equal(201);
    for (const p of ['p1', 'p2']) expect((await api.put(`/v1/projects/ar/${p}`, {})).status).to.equal(201);
    for (const [p, n] of [
      ['p1', 1],
      ['p2', 2],
    ] as const) {
      const r = await api.post(`/v1/resources/ar/${p}`, { '@context': { '@vocab': EX }, '@id': `${EX}r${n}`, '@type': 'Thing', n });
      expect(r.status, r.text).to.equal(201);
    }
    expect((await api.put(`/v1/resources/ar/p1/_/${enc(`${EX}r1`)}?rev=1`, { '@context': { '@vocab': EX }, '@type': 'Thing', n: 11 })).status).to.equal(200);
    expect((await upload(`${base}/v1/files/ar/p2/bigfile`, 'PUT', big, 'big.bin')).status).to.equal(201);
    expect((await upload(`${base}/v1/files/ar/p1/small`, 'PUT', 'hello', 'hello.txt', 'text/plain')).status).to.equal(201);
    // The archive the downloads read: each of them passes alone, without the test that creates one.
    expect((await api.put(`${A}/shared`, withSelf(), META)).status).to.equal(201);
  });

  const payload = {
    resources: [
      { '@type': 'Resource', resourceId: `${EX}r1`, rev: 1 },
      { '@type': 'Resource', resourceId: `${EX}r2`, project: 'ar/p2', originalSource: true },
      { '@type': 'File', resourceId: 'bigfile', project: 'ar/p2', path: 'my/custom/path/big.bin' },
      { '@type': 'FileSelf', value: '', path: 'self/hello.txt' },
    ],
  };
  const withSelf = () => ({ resources: payload.resources.map((r) => (r['@type'] === 'FileSelf' ? { ...r, value: `${base}/v1/files/ar/p1/small` } : r)) });

  const download = async (path: string, accept: string) => {
    const res = await fetch(`${base}${path}`, { headers: { accept } });
    return { res, bytes: Buffer.from(await res.arrayBuffer()) };
  };
  const extract = (bytes: Buffer, kind: 'tar' | 'zip') => {
    const dir = mkdtempSync(join(tmpdir(), 'archive-'));
    const file = join(dir, `a.${kind}`);
    writeFileSync(file, bytes);
    if (kind === 'tar') execFileSync('tar', ['-xf', file, '-C', dir]);
    else execFileSync('unzip', ['-q', file, '-d', dir]);
    return (path: string) => readFileSync(join(dir, path));
  };

  it('creates with PUT (201, the metadata of created.json) and describes it as fetched.json, with _expiresInSeconds', async () => {
    const created = await api.put(`${A}/myarchive`, withSelf(), META);
    expect(created.status, created.text).to.equal(201);
    expect(created.body['@context']).to.deep.equal([
      'https://bluebrain.github.io/nexus/contexts/archives-metadata.json',
      'https://bluebrain.github.io/nexus/contexts/metadata.json',
    ]);
    const id = created.body['@id'];
    expect(created.body).to.include({ '@type': 'Archive', _self: `${base}${A}/${enc(id)}`, _rev: 1, _deprecated: false, _project: 'ar/p1' });
    expect(created.body._constrainedBy).to.equal('https://bluebrain.github.io/nexus/schemas/archives.json');
    const fetched = await api.get(`${A}/myarchive`);
    expect(fetched.status).to.equal(200);
    expect(fetched.body.resources).to.deep.equal(withSelf().resources);
    expect(fetched.body._expiresInSeconds).to.be.within(3590, 3600);
    const again = await api.put(`${A}/myarchive`, withSelf(), META);
    expect([again.status, again.body['@type']]).to.deep.equal([409, 'ResourceAlreadyExists']);
  });

  it('creates with POST: 201 with the metadata for a JSON client, 303 to the download when Accept asks for the archive (as Delta’s emitCreatedArchive)', async () => {
    const create = (method: 'POST' | 'PUT', path: string, accept?: string) =>
      fetch(`${base}${path}`, {
        method,
        redirect: 'manual',
        headers: { 'content-type': 'application/json', ...(accept === undefined ? {} : { accept }) },
        body: JSON.stringify(withSelf()),
      });
    for (const accept of ['application/ld+json', 'application/json', 'application/ld+json, application/json;q=0.5']) {
      const res = await create('POST', A, accept);
      expect(res.status, accept).to.equal(201);
      const body = (await res.json()) as Record<string, unknown>;
      expect(res.headers.get('location')).to.equal(null);
      expect(body).to.include({ '@type': 'Archive', _project: 'ar/p1', _rev: 1, _expiresInSeconds: 3600 });
      expect(body['_self']).to.equal(`${base}${A}/${enc(body['@id'] as string)}`);
      expect((await api.get(`${A}/${enc(body['@id'] as string)}`)).body.resources).to.have.length(4);
    }
    // Delta's Zip.checkHeader: any media range a zip matches (none at all reads as */*); a tar too, as served here.
    let n = 0;
    for (const accept of ['application/zip', 'application/x-tar', '*/*', 'application/*', 'application/ld+json, */*;q=0.1', undefined]) {
      for (const [method, path] of [
        ['POST', A],
        ['PUT', `${A}/redirected-${n++}`],
      ] as const) {
        const res = await create(method, path, accept);
        expect(res.status, `${method} ${accept}`).to.equal(303);
        const location = res.headers.get('location')!;
        expect(location.startsWith(`${base}${A}/`)).to.equal(true);
        if (method === 'PUT') expect(decodeURIComponent(location)).to.match(new RegExp(`/${path.split('/').pop()}$`));
        const archive = await download(location.slice(base.length), accept === 'application/x-tar' ? 'application/x-tar' : 'application/zip');
        expect(archive.res.status).to.equal(200);
      }
    }
    // A zip refused outright (q=0) is not asked for.
    expect((await create('PUT', `${A}/not-zip`, 'application/zip;q=0, application/ld+json')).status).to.equal(201);
  });

  for (const kind of ['tar', 'zip'] as const)
    it(`downloads every entry as a ${kind} (Accept: ${kind === 'tar' ? 'application/x-tar' : 'application/zip'}) that ${kind} tools read back`, async () => {
      const { res, bytes } = await download(`${A}/shared`, kind === 'tar' ? 'application/x-tar' : 'application/zip');
      expect(res.status).to.equal(200);
      expect(res.headers.get('content-type')).to.equal(kind === 'tar' ? 'application/x-tar' : 'application/zip');
      const read = extract(bytes, kind);
      const r1 = JSON.parse(read(`ar/p1/${enc(`${EX}r1`)}.json`).toString());
      expect(r1).to.include({ '@id': `${EX}r1`, n: 1, _rev: 1 });
      expect(JSON.parse(read(`ar/p2/${enc(`${EX}r2`)}.json`).toString())).to.deep.equal({
        '@context': { '@vocab': EX },
        '@id': `${EX}r2`,
        '@type': 'Thing',
        n: 2,
      });
      expect(read('my/custom/path/big.bin').equals(big)).to.equal(true);
      expect(read('self/hello.txt').toString()).to.equal('hello');
    });

  it('checks zip integrity (CRC-32 of every entry) with unzip -t', async () => {
    const { bytes } = await download(`${A}/shared`, 'application/x-zip');
    const dir = mkdtempSync(join(tmpdir(), 'archive-'));
    writeFileSync(join(dir, 'a.zip'), bytes);
    expect(execFileSync('unzip', ['-t', join(dir, 'a.zip')]).toString()).to.include('No errors detected');
  });

  it('refuses a missing entry with 404 before any byte, unless ignoreNotFound', async () => {
    const put = await api.put(
      `${A}/withmissing`,
      {
        resources: [
          { '@type': 'Resource', resourceId: `${EX}r1` },
          { '@type': 'Resource', resourceId: `${EX}nope` },
        ],
      },
      META,
    );
    expect(put.status).to.equal(201);
    const refused = await api.get(`${A}/withmissing`, { accept: 'application/x-tar' });
    expect([refused.status, refused.body['@type']]).to.deep.equal([404, 'ResourceNotFound']);
    const { res, bytes } = await download(`${A}/withmissing?ignoreNotFound=true`, 'application/x-tar');
    expect(res.status).to.equal(200);
    expect(JSON.parse(extract(bytes, 'tar')(`ar/p1/${enc(`${EX}r1`)}.json`).toString())['@id']).to.equal(`${EX}r1`);
  });

  it('checks each entry’s read permission: a file whose storage names a permission the caller lacks is refused', async () => {
    const perms = await api.get('/v1/permissions');
    const added = await fetch(`${base}/v1/permissions?rev=${perms.body._rev}`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ '@type': 'Append', permissions: ['secret/read'] }),
    });
    expect(added.status).to.equal(200);
    const storage = await api.put('/v1/storages/ar/p1/locked', { '@type': 'DiskStorage', readPermission: 'secret/read', writePermission: 'files/write' });
    expect(storage.status, storage.text).to.equal(201);
    expect((await upload(`${base}/v1/files/ar/p1/lockedfile?storage=locked`, 'PUT', 'top secret', 'secret.txt')).status).to.equal(201);
    expect((await api.put(`${A}/locked`, { resources: [{ '@type': 'File', resourceId: 'lockedfile' }] }, META)).status).to.equal(201);
    const refused = await api.get(`${A}/locked`, { accept: 'application/zip' });
    expect([refused.status, refused.body['@type']]).to.deep.equal([403, 'AuthorizationFailed']);
  });

  it('refuses bad payloads and ids with Delta’s rejections', async () => {
    const rejected = async (body: unknown, status: number, type: string, id = 'bad') => {
      const r = await api.put(`${A}/${id}`, body, META);
      expect(r.status, r.text).to.equal(status);
      expect(r.body['@type']).to.equal(type);
      return r.body;
    };
    await rejected({ resources: [] }, 400, 'DecodingFailed');
    await rejected({ resources: [{ '@type': 'Nope', resourceId: 'x' }] }, 400, 'DecodingFailed');
    await rejected({ resources: [{ '@type': 'Resource', resourceId: 'x', rev: 1, tag: 't' }] }, 400, 'DecodingFailed');
    await rejected({ resources: [{ '@type': 'Resource', resourceId: 'x', originalSource: true, format: 'source' }] }, 400, 'DecodingFailed');
    await rejected({ resources: [{ '@type': 'Resource', resourceId: 'x', format: 'n-triples' }] }, 400, 'DecodingFailed');
    const dup = await rejected(
      {
        resources: [
          { '@type': 'Resource', resourceId: 'x', path: 'a.json' },
          { '@type': 'Resource', resourceId: 'y', path: 'a.json' },
        ],
      },
      400,
      'InvalidResourceCollection',
    );
    expect(dup.duplicates).to.deep.equal(['a.json']);
    const long = await rejected({ resources: [{ '@type': 'Resource', resourceId: `${EX}${'x'.repeat(120)}` }] }, 400, 'InvalidResourceCollection');
    expect(long.longIds).to.have.length(1);
    await rejected({ resources: [{ '@type': 'FileSelf', value: 'http://elsewhere/v1/files/a/b/c' }] }, 400, 'InvalidFileSelf', 'fs');
    expect((await api.put(`${A}/fs`, { resources: [{ '@type': 'FileSelf', value: `${base}/v1/files/ar/p1/nofile` }] }, META)).status).to.equal(201);
    const selfMissing = await api.get(`${A}/fs`, { accept: 'application/x-tar' });
    expect([selfMissing.status, selfMissing.body['@type']]).to.deep.equal([404, 'ResourceNotFound']);
    await rejected({ resources: [{ '@type': 'Resource', resourceId: 'x' }] }, 400, 'InvalidArchiveId', enc('a<b'));
    const missing = await api.get(`${A}/never-made`);
    expect([missing.status, missing.body['@type']]).to.deep.equal([404, 'ResourceNotFound']);
  });
});
