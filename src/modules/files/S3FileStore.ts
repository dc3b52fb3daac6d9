import { CreateBucketCommand, DeleteObjectCommand, GetObjectCommand, HeadBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { storageRejections } from './storages/storageRejections.js';
import type { ByteRange, FileStore, SavedBytes } from './files/FileStore.js';
import { Meter } from './meter.js';
import type { RemoteTimeouts } from './RemoteDiskFileStore.js';

export interface S3Settings {
  endpoint?: string;
  region?: string;
  accessKey?: string;
  secretKey?: string;
  bucket: string;
}

/**
 * Multipart parts of 5 MiB (the S3 minimum), two in flight: a few tens of MiB of an upload in
 * memory at most. Parts grow for files so large they would need more than S3's 10,000.
 */
const MIN_PART = 5 * 1024 * 1024;
const QUEUE = 2;

/**
 * A bucket of an S3-compatible object store (path-style addresses, so any endpoint works). Large
 * uploads go in parts; an upload that fails or runs over its limit is aborted, leaving no object.
 * The SDK's Node handler follows no redirect; connecting, each pause and each whole request are bounded.
 */
export class S3FileStore implements FileStore {
  private readonly client: S3Client;
  private readonly timeouts: RemoteTimeouts;

  constructor(
    private readonly storageId: string,
    private readonly settings: S3Settings,
    timeouts: RemoteTimeouts | number = 5_000,
  ) {
    this.timeouts = typeof timeouts === 'number' ? { connectMillis: timeouts, transferMillis: 3_600_000 } : timeouts;
    const timeoutMillis = this.timeouts.connectMillis;
    this.client = new S3Client({
      ...(settings.endpoint ? { endpoint: settings.endpoint } : {}),
      region: settings.region ?? 'us-east-1',
      forcePathStyle: true,
      ...(settings.accessKey !== undefined ? { credentials: { accessKeyId: settings.accessKey, secretAccessKey: settings.secretKey ?? '' } } : {}),
      // A streamed body with a checksum is sent aws-chunked, which some S3-compatible servers store verbatim.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      maxAttempts: 2,
      requestHandler: { connectionTimeout: timeoutMillis, requestTimeout: 60_000 },
    });
  }

  async check(): Promise<void> {
    const Bucket = this.settings.bucket;
    try {
      await this.client.send(new HeadBucketCommand({ Bucket }), { abortSignal: this.bound() });
      return;
    } catch (error) {
      if (status(error) !== 404) throw this.refused(error);
    }
    try {
      await this.client.send(new CreateBucketCommand({ Bucket }), { abortSignal: this.bound() });
    } catch (error) {
      throw this.refused(error);
    }
  }

  async save(path: string, body: Readable, maxBytes: number, tooLarge: () => Error): Promise<SavedBytes> {
    const meter = new Meter(maxBytes, tooLarge);
    const upload = new Upload({
      client: this.client,
      params: { Bucket: this.settings.bucket, Key: path, Body: meter },
      partSize: Math.max(MIN_PART, Math.ceil(maxBytes / 9_000)),
      queueSize: QUEUE,
    });
    const timer = setTimeout(() => void upload.abort().catch(() => undefined), this.timeouts.transferMillis);
    // A failed upload stops reading: the pipeline is torn down with it instead of waiting forever.
    const done = upload.done().catch((error: unknown) => {
      meter.destroy(error as Error);
      throw error;
    });
    const [piped, uploaded] = await Promise.allSettled([pipeline(body, meter), done]).finally(() => clearTimeout(timer));
    if (piped.status === 'rejected' || uploaded.status === 'rejected') {
      await upload.abort().catch(() => undefined);
      if (uploaded.status === 'fulfilled') await this.remove(path).catch(() => undefined);
      throw piped.status === 'rejected' ? piped.reason : (uploaded as PromiseRejectedResult).reason;
    }
    return meter.result();
  }

  async read(path: string, range?: ByteRange): Promise<Readable> {
    const answer = await this.client.send(
      new GetObjectCommand({ Bucket: this.settings.bucket, Key: path, ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}) }),
      { abortSignal: this.bound() },
    );
    return answer.Body as Readable;
  }

  async remove(path: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.settings.bucket, Key: path }), { abortSignal: this.bound() });
  }

  location(path: string): string {
    const endpoint = (this.settings.endpoint ?? `https://s3.${this.settings.region ?? 'us-east-1'}.amazonaws.com`).replace(/\/+$/, '');
    return `${endpoint}/${this.settings.bucket}/${path}`;
  }

  /** The whole of one request (a download's body included) within the transfer bound. */
  private bound(): AbortSignal {
    return AbortSignal.timeout(this.timeouts.transferMillis);
  }

  private refused(error: unknown) {
    const e = error as { name?: string; message?: string; Code?: string };
    return storageRejections.storageNotAccessible(
      this.storageId,
      `Bucket '${this.settings.bucket}' at '${this.settings.endpoint ?? 'the default endpoint'}' cannot be used: ${e.Code ?? e.name ?? 'error'}${status(error) ? ` (status ${status(error)})` : ''}${e.message ? `: ${e.message}` : ''}`,
    );
  }
}

const status = (error: unknown): number | undefined => (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
