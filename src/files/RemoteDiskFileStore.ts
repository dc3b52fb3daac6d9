import { Readable } from 'node:stream';
import type { ReadableStream as WebStream } from 'node:stream/web';
import { storageRejections } from '../domain/storages/storageRejections.js';
import type { ByteRange, FileStore, SavedBytes } from '../domain/files/FileStore.js';
import { Meter } from './meter.js';

/**
 * A folder ("bucket") of the remote disk service, over HTTP with the storage's bearer token:
 * `HEAD /buckets/{folder}`, and `PUT`, `GET`, `DELETE /buckets/{folder}/files/{path}`. Bodies stream both ways.
 */
export class RemoteDiskFileStore implements FileStore {
  constructor(
    private readonly storageId: string,
    private readonly endpoint: string,
    private readonly folder: string,
    private readonly token: string | undefined,
    private readonly timeoutMillis: number,
  ) {}

  async check(): Promise<void> {
    let answer: Response;
    try {
      answer = await fetch(this.url(), { method: 'HEAD', headers: this.headers(), signal: AbortSignal.timeout(this.timeoutMillis) });
    } catch (error) {
      throw this.refused(`the service at '${this.endpoint}' cannot be reached (${(error as Error).message})`);
    }
    if (!answer.ok) throw this.refused(`the service answered ${answer.status} for folder '${this.folder}'`);
  }

  async save(path: string, body: Readable, maxBytes: number, tooLarge: () => Error): Promise<SavedBytes> {
    const meter = new Meter(maxBytes, tooLarge);
    body.once('error', (error) => meter.destroy(error));
    body.pipe(meter);
    let failure: Error | undefined;
    meter.once('error', (error) => (failure = error));
    let answer: Response;
    try {
      answer = await fetch(this.url(path), {
        method: 'PUT',
        headers: { ...this.headers(), 'content-type': 'application/octet-stream' },
        body: Readable.toWeb(meter) as unknown as ReadableStream,
        duplex: 'half',
      } as RequestInit);
    } catch (error) {
      body.destroy();
      throw failure ?? error;
    }
    if (failure) throw failure;
    if (!answer.ok) throw this.refused(`the service refused the file with ${answer.status}`);
    return meter.result();
  }

  async read(path: string, range?: ByteRange): Promise<Readable> {
    const answer = await fetch(this.url(path), { headers: { ...this.headers(), ...(range ? { range: `bytes=${range.start}-${range.end}` } : {}) } });
    if (!answer.ok || !answer.body) throw this.refused(`the service answered ${answer.status} for '${path}'`);
    return Readable.fromWeb(answer.body as unknown as WebStream);
  }

  async remove(path: string): Promise<void> {
    await fetch(this.url(path), { method: 'DELETE', headers: this.headers() });
  }

  private url(path?: string): string {
    const base = `${this.endpoint.replace(/\/+$/, '')}/buckets/${encodeURIComponent(this.folder)}`;
    return path === undefined ? base : `${base}/files/${path.split('/').map(encodeURIComponent).join('/')}`;
  }

  private headers(): Record<string, string> {
    return this.token === undefined ? {} : { authorization: `Bearer ${this.token}` };
  }

  private refused(details: string) {
    return storageRejections.storageNotAccessible(this.storageId, details);
  }
}
