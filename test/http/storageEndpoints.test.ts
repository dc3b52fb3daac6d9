import { expect } from 'chai';
import { startServer } from '../support/server.js';
import type { TestServer } from '../support/server.js';
import { storagesConfig, upload } from '../support/files.js';
import { client } from '../support/client.js';
import { startRecorder, startRemoteDisk, startS3 } from '../support/objectStores.js';
import { openStream } from '../support/sse.js';

const DEPLOYMENT_TOKEN = 'deployment-token-Zq81';
const DEPLOYMENT_SECRET = 'deployment-secret-Xk27';

describe('storage endpoints and credentials (issue 19)', () => {
  let s3: Awaited<ReturnType<typeof startS3>>;
  let remote: Awaited<ReturnType<typeof startRemoteDisk>>;
  let internal: Awaited<ReturnType<typeof startRecorder>>;
  let listed: Awaited<ReturnType<typeof startRemoteDisk>>;
  let server: TestServer;
  let api: ReturnType<typeof client>;
  const everything = () => JSON.stringify(internal.received);

  before(async () => {
    s3 = await startS3();
    remote = await startRemoteDisk(DEPLOYMENT_TOKEN, ['folder-one']);
    // A service of the operator's, listed in the configuration, with its own token.
    listed = await startRemoteDisk('own-token', ['folder-one']);
    internal = await startRecorder();
    const { config } = storagesConfig({
      'plugins.storage.storages.blob.enabled': 'true',
      'plugins.storage.storages.blob.default-endpoint': s3.endpoint,
      'plugins.storage.storages.blob.default-access-key': 'S3RVER',
      'plugins.storage.storages.blob.default-secret-key': DEPLOYMENT_SECRET,
      'plugins.storage.storages.blob.default-bucket': 'bucket-one',
      'plugins.storage.storages.remote-disk.enabled': 'true',
      'plugins.storage.storages.remote-disk.default-endpoint': remote.endpoint,
      'plugins.storage.storages.remote-disk.default-credentials': DEPLOYMENT_TOKEN,
      'plugins.storage.storages.remote-disk.allowed-endpoints': JSON.stringify([listed.endpoint]),
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
    await listed.stop();
    await internal.stop();
  });

  it('sends the default credentials to no endpoint but the default one: another must bring its own (400 MissingStorageCredentials)', async () => {
    const rd = await api.put('/v1/storages/org/proj/rd1', { '@type': 'RemoteDiskStorage', default: false, endpoint: internal.endpoint, folder: 'f' });
    expect([rd.status, rd.body['@type']]).to.deep.equal([400, 'MissingStorageCredentials']);
    expect(rd.body.reason).to.include("'credentials'");
    const blob = await api.put('/v1/storages/org/proj/s3x', { '@type': 'BlobStorage', default: false, endpoint: internal.endpoint });
    expect([blob.status, blob.body['@type']]).to.deep.equal([400, 'MissingStorageCredentials']);
    expect(blob.body.reason).to.include("'accessKey' and 'secretKey'");
    expect(internal.received).to.deep.equal([]);
  });

  it('refuses loopback and unlisted endpoints even with credentials (400 InvalidStorageEndpoint), before any request', async () => {
    for (const endpoint of [
      internal.endpoint,
      `${internal.endpoint}/internal/admin?x=`,
      'http://[::1]:9200',
      'http://169.254.169.254',
      'http://user:pw@example.org',
    ]) {
      const r = await api.put('/v1/storages/org/proj/rd2', { '@type': 'RemoteDiskStorage', default: false, endpoint, folder: 'f', credentials: 'mine' });
      expect([r.status, r.body['@type']], endpoint).to.deep.equal([400, 'InvalidStorageEndpoint']);
      const s = await api.put('/v1/storages/org/proj/s3y', { '@type': 'BlobStorage', default: false, endpoint, accessKey: 'k', secretKey: 's' });
      expect([s.status, s.body['@type']], endpoint).to.deep.equal([400, 'InvalidStorageEndpoint']);
    }
    expect(internal.received).to.deep.equal([]);
  });

  it('does not let an update re-point a storage to an internal address with the default credentials', async () => {
    expect((await api.put('/v1/storages/org/proj/rd3', { '@type': 'RemoteDiskStorage', default: false, folder: 'folder-one' })).status).to.equal(201);
    const moved = await api.put('/v1/storages/org/proj/rd3?rev=1', {
      '@type': 'RemoteDiskStorage',
      default: false,
      folder: 'folder-one',
      endpoint: `${internal.endpoint}/internal/admin?x=`,
    });
    expect([moved.status, moved.body['@type']]).to.deep.equal([400, 'MissingStorageCredentials']);
    expect(everything()).not.to.include(DEPLOYMENT_TOKEN);
    expect(internal.received).to.deep.equal([]);
  });

  it('keeps existing files on the endpoint they were written to, checks downloads against the recorded digest', async () => {
    expect((await api.put('/v1/storages/org/proj/rd4', { '@type': 'RemoteDiskStorage', default: false, folder: 'folder-one' })).status).to.equal(201);
    const written = await upload(`${server.url}/v1/files/org/proj/f4?storage=rd4`, 'PUT', 'bytes at the default endpoint', 'a.txt', 'text/plain');
    expect(written.status, JSON.stringify(written.body)).to.equal(201);
    expect(written.body._storage).to.include({ _rev: 1 });
    expect(written.body._location).to.match(new RegExp(`^${remote.endpoint}/buckets/folder-one/files/org/proj/`));
    // Whoever may change the storage's endpoint (to a listed service, with its own token)...
    const moved = await api.put('/v1/storages/org/proj/rd4?rev=1', {
      '@type': 'RemoteDiskStorage',
      default: false,
      folder: 'folder-one',
      endpoint: listed.endpoint,
      credentials: 'own-token',
    });
    expect(moved.status, moved.text).to.equal(200);
    // ...the old file is read where it was written, with that revision's settings.
    expect(await (await fetch(`${server.url}/v1/files/org/proj/f4`)).text()).to.equal('bytes at the default endpoint');
    expect(listed.files.size).to.equal(0);
    const next = await upload(`${server.url}/v1/files/org/proj/f5?storage=rd4`, 'PUT', 'new bytes', 'b.txt');
    expect(next.status).to.equal(201);
    expect(next.body._storage).to.include({ _rev: 2 });
    expect(listed.files.size).to.equal(1);
    // Bytes changed behind the registry's back (same length): the download is cut, never completed.
    const [key] = [...remote.files.keys()];
    remote.files.set(key!, Buffer.from('BYTES AT THE DEFAULT ENDPOINT'));
    const outcome = (url: string) =>
      fetch(url)
        .then((r) => r.text())
        .then(
          () => 'complete',
          () => 'cut',
        );
    expect(await outcome(`${server.url}/v1/files/org/proj/f4`)).to.equal('cut');
    // Fewer bytes than recorded: cut too.
    remote.files.set(key!, Buffer.from('short'));
    expect(await outcome(`${server.url}/v1/files/org/proj/f4`)).to.equal('cut');
    // The file of the current revision still reads whole.
    expect(await outcome(`${server.url}/v1/files/org/proj/f5`)).to.equal('complete');
  });

  it("accepts 'S3Storage' as the object store's type, renders 'BlobStorage', and files carry _location", async () => {
    const created = await api.put('/v1/storages/org/proj/s3alias', { '@type': 'S3Storage', default: false, bucket: 'bucket-alias' });
    expect(created.status, created.text).to.equal(201);
    expect(created.body['@type']).to.deep.equal(['Storage', 'BlobStorage']);
    expect((await api.get('/v1/storages/org/proj/s3alias')).body['@type']).to.deep.equal(['Storage', 'BlobStorage']);
    expect((await api.get('/v1/storages/org/proj/s3alias/source')).body['@type']).to.equal('S3Storage');
    const updated = await api.put('/v1/storages/org/proj/s3alias?rev=1', { '@type': 'nxv:S3Storage', default: false, bucket: 'bucket-alias' });
    expect(updated.status, updated.text).to.equal(200);
    const file = await upload(`${server.url}/v1/files/org/proj/s3file?storage=s3alias`, 'PUT', 'object bytes');
    expect(file.status, JSON.stringify(file.body)).to.equal(201);
    expect(file.body._storage).to.include({ '@type': 'BlobStorage' });
    expect(file.body._location).to.match(new RegExp(`^${s3.endpoint}/bucket-alias/org/proj/`));
    const disk = await upload(`${server.url}/v1/files/org/proj/diskfile`, 'PUT', 'disk bytes');
    expect(disk.body._location).to.match(/^file:\/\/\//);
    expect((await api.get('/v1/files/org/proj/diskfile', { accept: 'application/ld+json' })).body._location).to.equal(disk.body._location);
  });

  it('shows no secret value in any fetch, source, listing, tag list, search hit or event of a storage with credentials', async () => {
    const secretKey = 'blob-secret-VALUE-7f3a';
    const credentials = 'own-token';
    expect((await api.put('/v1/storages/org/proj/withsecret', { '@type': 'BlobStorage', default: false, bucket: 'bucket-secret', secretKey })).status).to.equal(
      201,
    );
    expect(
      (
        await api.put('/v1/storages/org/proj/remotesecret', {
          '@type': 'RemoteDiskStorage',
          default: false,
          folder: 'folder-one',
          endpoint: listed.endpoint,
          credentials,
        })
      ).status,
    ).to.equal(201);
    expect(
      (await api.put('/v1/storages/org/proj/withsecret?rev=1', { '@type': 'BlobStorage', default: false, bucket: 'bucket-secret', secretKey })).status,
    ).to.equal(200);
    expect((await api.post('/v1/storages/org/proj/withsecret/tags?rev=2', { tag: 't', rev: 1 })).status).to.equal(201);
    const texts: string[] = [];
    for (const path of [
      '/v1/storages/org/proj/withsecret',
      '/v1/storages/org/proj/withsecret?rev=1',
      '/v1/storages/org/proj/withsecret?tag=t',
      '/v1/storages/org/proj/withsecret/source',
      '/v1/storages/org/proj/withsecret/source?rev=1',
      '/v1/storages/org/proj/withsecret/tags',
      '/v1/storages/org/proj/remotesecret',
      '/v1/storages/org/proj/remotesecret/source',
      '/v1/storages/org/proj',
      '/v1/storages/org',
      '/v1/storages',
      '/v1/storages/org/proj?q=bucket',
    ]) {
      const r = await api.get(path);
      expect(r.status, path).to.equal(200);
      texts.push(r.text);
    }
    for (const path of ['/v1/storages/events', '/v1/storages/org/proj/events', '/v1/events']) {
      const stream = await openStream(`${server.url}${path}`);
      const events = await stream.until((e) => e.payload?._storageId?.endsWith('withsecret') && e.event === 'StorageTagAdded');
      stream.close();
      texts.push(...events.map((e) => e.data));
    }
    const joined = texts.join('\n');
    expect(joined).to.include('withsecret');
    for (const value of [secretKey, credentials, DEPLOYMENT_SECRET, DEPLOYMENT_TOKEN]) expect(joined).not.to.include(value);
  });
});
