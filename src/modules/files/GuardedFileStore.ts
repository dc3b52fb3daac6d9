import type { Readable } from 'node:stream';
import type { ByteRange, FileStore, SavedBytes } from './files/FileStore.js';
import type { EndpointPolicy, RemoteStorageType } from './EndpointPolicy.js';

/**
 * A store of a remote type whose endpoint is checked against the policy before every request: a
 * host name may resolve elsewhere than when the storage was written, and the configuration may
 * have changed since.
 */
export class GuardedFileStore implements FileStore {
  constructor(
    private readonly inner: FileStore,
    private readonly policy: EndpointPolicy,
    private readonly storageId: string,
    private readonly type: RemoteStorageType,
    private readonly endpoint: string | undefined,
  ) {}

  async check(): Promise<void> {
    await this.allowed();
    return this.inner.check();
  }

  async save(path: string, body: Readable, maxBytes: number, tooLarge: () => Error): Promise<SavedBytes> {
    await this.allowed();
    return this.inner.save(path, body, maxBytes, tooLarge);
  }

  async read(path: string, range?: ByteRange): Promise<Readable> {
    await this.allowed();
    return this.inner.read(path, range);
  }

  async remove(path: string): Promise<void> {
    await this.allowed();
    return this.inner.remove(path);
  }

  location(path: string): string {
    return this.inner.location(path);
  }

  private allowed(): Promise<void> {
    return this.policy.check(this.storageId, this.type, this.endpoint);
  }
}
