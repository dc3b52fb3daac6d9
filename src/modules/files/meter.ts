import { createHash } from 'node:crypto';
import { Transform } from 'node:stream';
import type { SavedBytes } from './files/FileStore.js';

/** A pass-through that counts and hashes the bytes flowing through it and fails once they exceed `maxBytes`. */
export class Meter extends Transform {
  private readonly hash = createHash('sha256');
  private count = 0;

  constructor(
    private readonly maxBytes: number,
    private readonly tooLarge: () => Error,
  ) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: (error?: Error | null, data?: Buffer) => void): void {
    this.count += chunk.length;
    if (this.count > this.maxBytes) return done(this.tooLarge());
    this.hash.update(chunk);
    done(null, chunk);
  }

  /** Size and digest; only once every byte went through. */
  result(): SavedBytes {
    return { bytes: this.count, digest: this.hash.digest('hex') };
  }
}
