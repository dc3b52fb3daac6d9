import { expect } from 'chai';
import { createHash } from 'node:crypto';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { startServer } from '../support/server.js';
import type { TestServer } from '../support/server.js';
import { storagesConfig, upload } from '../support/files.js';
import { client } from '../support/client.js';
import { startRemoteDisk, startS3 } from '../support/objectStores.js';
import { openStream } from '../support/sse.js';

const filesUnder = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => (statSync(join(dir, name)).isDirectory() ? filesUnder(join(dir, name)) : [join(dir, name)]));

describe('files on BlobStorage (s3rver) and RemoteDiskStorage (a test file service), behind their flags', function () {
  // 11 MiB through s3rver: minutes, not seconds, on a loaded 2-core machine.
  this.timeout(120_000);
  let s3: Awaited<ReturnType<typeof startS3>>;
  let remote: Awaited<ReturnType<typeof startRemoteDisk>>;
  let server: TestServer;
  let api: ReturnType<typeof client>;

  before(async () => {
    s3 = await startS3();
    remote = await startRemoteDisk('remote-token', ['folder-one']);
    const { config } = storagesConfig({
      'plugins.storage.storages.blob.enabled': 'true',
      'plugins.storage.storages.blob.default-endpoint': s3.endpoint,
      'plugins.storage.storages.blob.default-access-key': 'S3RVER',
      'plugins.storage.storages.blob.default-secret-key': 'S3RVER',
      'plugins.storage.storages.blob.default-bucket': 'bucket-one',
      'plugins.storage.storages.blob.default-max-file-size': '20000000',
      'plugins.storage.storages.remote-disk.enabled': 'true',
      'plugins.storage.storages.remote-disk.default-endpoint': remote.endpoint,
    });
    server = await startServer({ storages: config });
    api = client(server.url);
    await api.put('/v1/orgs/org', {});
    await api.put('/v1/projects/org/proj', {});
  });
  after(async () => {
    await server.stop(true);
    await s3.stop();
    await remote.stop();
  });

  it('creates a BlobStorage (its bucket when missing), never shows its secret, and streams files through it', async () => {
    const created = await api.put('/v1/storages/org/proj/s3', { '@type': 'BlobStorage', default: false, bucket: 'bucket-new', secretKey: 'very-secret-value' });
    expect(created.status, created.text).to.equal(201);
    const fetched = await api.get('/v1/storages/org/proj/s3');
    expect(fetched.body).to.include({ bucket: 'bucket-new', endpoint: s3.endpoint, accessKey: 'S3RVER', maxFileSize: 20000000 });
    for (const r of [fetched, created, await api.get('/v1/storages/org/proj/s3/source'), await api.get('/v1/storages/org/proj')]) {
      expect(r.text).not.to.include('very-secret-value');
      expect(r.text).not.to.match(/"(secret|secretKey)"\s*:/);
    }
    const stream = await openStream(`${server.url}/v1/storages/org/proj/events`);
    try {
      const events = await stream.until((e) => e.data.includes('bucket-new'));
      expect(events.at(-1)!.payload._source).to.deep.equal({ '@type': 'BlobStorage', default: false, bucket: 'bucket-new' });
      for (const e of events) expect(e.data).not.to.match(/very-secret-value|"(secret|secretKey)"\s*:/);
    } finally {
      stream.close();
    }
    const data = Buffer.from(Array.from({ length: 11 * 1024 * 1024 + 3 }, (_, i) => (i * 31) % 256));
    const file = await upload(`${server.url}/v1/files/org/proj/big?storage=s3`, 'PUT', data, 'big.bin');
    expect(file.status, JSON.stringify(file.body)).to.equal(201);
    expect(file.body._digest._value).to.equal(createHash('sha256').update(data).digest('hex'));
    expect(file.body._storage).to.include({ '@type': 'BlobStorage' });
    const back = Buffer.from(await (await fetch(`${server.url}/v1/files/org/proj/big`)).arrayBuffer());
    expect(back.equals(data)).to.equal(true);
    const objects = filesUnder(join(s3.directory, 'bucket-new'));
    expect(objects.some((o) => statSync(o).size === data.length)).to.equal(true);
    const range = await fetch(`${server.url}/v1/files/org/proj/big`, { headers: { range: 'bytes=100-199' } });
    expect(range.status).to.equal(206);
    expect(Buffer.from(await range.arrayBuffer()).equals(data.subarray(100, 200))).to.equal(true);
  });

  it('refuses to change the type of a storage on update (DifferentStorageType)', async () => {
    // A storage of its own: the test passes alone and in any order.
    expect((await api.put('/v1/storages/org/proj/s3-typed', { '@type': 'BlobStorage', default: false, bucket: 'bucket-typed' })).status).to.equal(201);
    const r = await api.put('/v1/storages/org/proj/s3-typed?rev=1', { '@type': 'DiskStorage', default: false });
    expect([r.status, r.body['@type']]).to.deep.equal([400, 'DifferentStorageType']);
    const kept = (await api.get('/v1/storages/org/proj/s3-typed')).body;
    expect([kept['@type'], kept._rev]).to.deep.equal([['Storage', 'BlobStorage'], 1]);
  });

  it('refuses an unknown access key and an unreachable endpoint with StorageNotAccessible', async () => {
    const key = await api.put('/v1/storages/org/proj/s3-bad', { '@type': 'BlobStorage', default: false, accessKey: 'UNKNOWN', bucket: 'bucket-bad' });
    expect([key.status, key.body['@type']]).to.deep.equal([400, 'StorageNotAccessible']);
    // Another endpoint than the default one: it brings its own keys, and a loopback one must be listed by the operator.
    const down = await api.put('/v1/storages/org/proj/s3-down', { '@type': 'BlobStorage', default: false, endpoint: 'http://127.0.0.1:9' });
    expect([down.status, down.body['@type']]).to.deep.equal([400, 'MissingStorageCredentials']);
    const own = await api.put('/v1/storages/org/proj/s3-down', {
      '@type': 'BlobStorage',
      default: false,
      endpoint: 'http://127.0.0.1:9',
      accessKey: 'a',
      secretKey: 'b',
    });
    expect([own.status, own.body['@type']]).to.deep.equal([400, 'InvalidStorageEndpoint']);
  });

  it('stores files on the remote disk service with the storage bearer token', async () => {
    const refused = await api.put('/v1/storages/org/proj/remote-bad', {
      '@type': 'RemoteDiskStorage',
      default: false,
      folder: 'folder-one',
      credentials: 'wrong',
    });
    expect([refused.status, refused.body['@type']]).to.deep.equal([400, 'StorageNotAccessible']);
    const created = await api.put('/v1/storages/org/proj/remote', {
      '@type': 'RemoteDiskStorage',
      default: false,
      folder: 'folder-one',
      credentials: 'remote-token',
    });
    expect(created.status, created.text).to.equal(201);
    for (const path of ['/v1/storages/org/proj/remote', '/v1/storages/org/proj/remote/source', '/v1/storages/org/proj?size=100'])
      expect((await api.get(path)).text, path).not.to.match(/remote-token|"credentials"\s*:/);
    const file = await upload(`${server.url}/v1/files/org/proj/r1?storage=remote`, 'PUT', 'remote bytes', 'r.txt', 'text/plain');
    expect(file.status, JSON.stringify(file.body)).to.equal(201);
    expect(await (await fetch(`${server.url}/v1/files/org/proj/r1`)).text()).to.equal('remote bytes');
    expect(remote.files.size).to.equal(1);
  });
});
