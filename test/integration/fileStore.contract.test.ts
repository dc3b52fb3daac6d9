import { expect } from 'chai';
import { createHash } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import type { FileStore } from '../../src/modules/files/files/FileStore.js';
import { DiskFileStore } from '../../src/modules/files/DiskFileStore.js';
import { S3FileStore } from '../../src/modules/files/S3FileStore.js';
import { RemoteDiskFileStore } from '../../src/modules/files/RemoteDiskFileStore.js';
import { startRemoteDisk, startS3 } from '../support/objectStores.js';

class TooLarge extends Error {}

/** The contract every file store passes: streamed writes with digest, limits, ranges, removal, access checks. */
const contract = (name: string, make: () => Promise<{ store: FileStore; stop(): Promise<void> }>) =>
  describe(`file store contract: ${name}`, () => {
    let store: FileStore;
    let stop: () => Promise<void>;
    // A storage's store is checked when the storage is written, before any file (an S3 bucket is
    // created then): each test may run alone.
    before(async () => {
      ({ store, stop } = await make());
      await store.check();
    });
    after(() => stop());

    it('is accessible', async () => {
      await store.check();
    });

    it('saves a stream with its size and SHA-256, reads it back whole and by range, removes it', async () => {
      const data = Buffer.from(Array.from({ length: 3 * 1024 * 1024 + 5 }, (_, i) => (i * 7) % 256));
      const saved = await store.save('o/p/aa/bb/one', Readable.from([data.subarray(0, 1000), data.subarray(1000)]), 10 * 1024 * 1024, () => new TooLarge());
      expect(saved).to.deep.equal({ bytes: data.length, digest: createHash('sha256').update(data).digest('hex') });
      const back = Buffer.concat(await (await store.read('o/p/aa/bb/one')).toArray());
      expect(back.equals(data)).to.equal(true);
      const part = Buffer.concat(await (await store.read('o/p/aa/bb/one', { start: 5, end: 9 })).toArray());
      expect(part.equals(data.subarray(5, 10))).to.equal(true);
      await store.remove('o/p/aa/bb/one');
      await store.read('o/p/aa/bb/one').then(
        async (s) => expect.fail(`still readable: ${await text(s)}`),
        () => undefined,
      );
    });

    it('refuses bytes beyond the limit and keeps nothing', async () => {
      const error = await store.save('o/p/aa/bb/big', Readable.from([Buffer.alloc(600), Buffer.alloc(600)]), 1000, () => new TooLarge()).catch((e) => e);
      expect(error).to.be.instanceOf(TooLarge);
      await store.read('o/p/aa/bb/big').then(
        () => expect.fail('a partial file was kept'),
        () => undefined,
      );
    });
  });

contract('disk', async () => {
  const volume = mkdtempSync(join(tmpdir(), 'registry-volume-'));
  return { store: new DiskFileStore('urn:disk', volume, [volume]), stop: async () => undefined };
});

contract('S3 (s3rver)', async () => {
  const s3 = await startS3();
  const store = new S3FileStore('urn:s3', { endpoint: s3.endpoint, accessKey: 'S3RVER', secretKey: 'S3RVER', bucket: 'bucket-one' });
  return { store, stop: s3.stop };
});

contract('remote disk', async () => {
  const service = await startRemoteDisk('secret-token', ['folder-one']);
  return { store: new RemoteDiskFileStore('urn:remote', service.endpoint, 'folder-one', 'secret-token', 2_000), stop: async () => void (await service.stop()) };
});

describe('file stores refuse what they cannot use (StorageNotAccessible)', () => {
  it('an S3 access key the store does not know, and an unreachable endpoint', async () => {
    const s3 = await startS3();
    try {
      const refused = await new S3FileStore('urn:s3', { endpoint: s3.endpoint, accessKey: 'NOT-KNOWN', secretKey: 'x', bucket: 'bucket-two' })
        .check()
        .catch((e) => e);
      expect(refused.type).to.equal('StorageNotAccessible');
      expect(refused.fields.details).to.match(/InvalidAccessKeyId|Forbidden|403/);
    } finally {
      await s3.stop();
    }
    const unreachable = await new S3FileStore('urn:s3', { endpoint: 'http://127.0.0.1:9', accessKey: 'S3RVER', secretKey: 'x', bucket: 'bucket-two' }, 1_000)
      .check()
      .catch((e) => e);
    expect(unreachable.type).to.equal('StorageNotAccessible');
  });

  it('a remote disk service without the right token or folder', async () => {
    const service = await startRemoteDisk('secret-token', ['folder-one']);
    try {
      const badToken = await new RemoteDiskFileStore('urn:r', service.endpoint, 'folder-one', 'wrong', 1_000).check().catch((e) => e);
      expect(badToken.type).to.equal('StorageNotAccessible');
      const badFolder = await new RemoteDiskFileStore('urn:r', service.endpoint, 'nope', 'secret-token', 1_000).check().catch((e) => e);
      expect(badFolder.type).to.equal('StorageNotAccessible');
    } finally {
      await service.stop();
    }
  });
});
