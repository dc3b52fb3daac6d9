import { createHash } from 'node:crypto';
import { Transform } from 'node:stream';
import type { Readable } from 'node:stream';

/**
 * The bytes of a download, checked against what was recorded when they were written: more or fewer
 * bytes, or (for a whole file) another SHA-256, fail the stream. The last chunk is held back until the
 * check passes, so a client never receives a complete response with bytes other than the recorded ones.
 */
export const verifiedBytes = (source: Readable, expected: { bytes: number; digest?: string }, mismatch: (details: string) => Error): Readable => {
  const hash = expected.digest === undefined ? undefined : createHash('sha256');
  let count = 0;
  let held: Buffer | undefined;
  const check = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      count += chunk.length;
      if (count > expected.bytes) return done(mismatch(`the storage sent more than the ${expected.bytes} bytes recorded`));
      hash?.update(chunk);
      const previous = held;
      held = chunk;
      done(null, previous);
    },
    flush(done) {
      if (count !== expected.bytes) return done(mismatch(`the storage sent ${count} bytes, ${expected.bytes} were recorded`));
      if (hash && hash.digest('hex') !== expected.digest) return done(mismatch('the bytes the storage sent do not have the recorded SHA-256 digest'));
      done(null, held);
    },
  });
  source.once('error', (error) => check.destroy(error));
  check.once('close', () => source.destroy());
  return source.pipe(check);
};
