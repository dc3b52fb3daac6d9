import { Readable } from 'node:stream';
import type { ReadableStream as WebStream } from 'node:stream/web';
import { storageRejections } from './storages/storageRejections.js';
import type { ByteRange, FileStore, SavedBytes } from './files/FileStore.js';
import { Meter } from './meter.js';

/** Bounds of every request to the service: reaching it (and its answer's headers), and the whole exchange. */
export interface RemoteTimeouts {
  connectMillis: number;
  transferMillis: number;
}

/**
 * A folder ("bucket") of the remote disk service, over HTTP with the storage's bearer token:
 * `HEAD /buckets/{folder}`, and `PUT`, `GET`, `DELETE /buckets/{folder}/files/{path}`. Bodies stream both ways.
 * Redirects are never followed (a 3xx is a refusal: the token would go where the answer says), and
 * every request is bounded in time.
 */
export class RemoteDiskFileStore implements FileStore {
  private readonly timeouts: RemoteTimeouts;

  constructor(
    private readonly storageId: string,
    private readonly endpoint: string,
    private readonly folder: string,
    private readonly token: string | undefined,
    timeouts: RemoteTimeouts | number,
  ) {
    this.timeouts = typeof timeouts === 'number' ? { connectMillis: timeouts, transferMillis: Math.max(timeouts, 60_000) } : timeouts;
  }

  async check(): Promise<void> {
    let answer: Response;
    try {
      answer = await this.request(this.url(), { method: 'HEAD' });
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
      answer = await this.request(
        this.url(path),
        {
          method: 'PUT',
          headers: { 'content-type': 'application/octet-stream' },
          body: Readable.toWeb(meter) as unknown as ReadableStream,
          duplex: 'half',
        } as RequestInit,
        false,
      );
    } catch (error) {
      body.destroy();
      throw failure ?? error;
    }
    if (failure) throw failure;
    if (!answer.ok) throw this.refused(`the service refused the file with ${answer.status}`);
    return meter.result();
  }

  async read(path: string, range?: ByteRange): Promise<Readable> {
    const answer = await this.request(this.url(path), { headers: range ? { range: `bytes=${range.start}-${range.end}` } : {} });
    if (!answer.ok || !answer.body) {
      await answer.body?.cancel().catch(() => undefined);
      throw this.refused(`the service answered ${answer.status} for '${path}'`);
    }
    return Readable.fromWeb(answer.body as unknown as WebStream);
  }

  async remove(path: string): Promise<void> {
    const answer = await this.request(this.url(path), { method: 'DELETE' });
    await answer.body?.cancel().catch(() => undefined);
  }

  location(path: string): string {
    return this.url(path);
  }

  /**
   * One request: no redirect followed, the answer's headers within the connect bound (when no body
   * is streamed up first), the whole exchange, body included, within the transfer bound.
   */
  private async request(url: string, init: RequestInit, headersBound = true): Promise<Response> {
    const headers = new AbortController();
    const timer = headersBound
      ? setTimeout(() => headers.abort(new Error(`no answer within ${this.timeouts.connectMillis} ms`)), this.timeouts.connectMillis)
      : undefined;
    try {
      return await fetch(url, {
        ...init,
        headers: { ...(init.headers as Record<string, string> | undefined), ...this.headers() },
        redirect: 'manual',
        signal: AbortSignal.any([headers.signal, AbortSignal.timeout(this.timeouts.transferMillis)]),
      });
    } finally {
      clearTimeout(timer);
    }
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
