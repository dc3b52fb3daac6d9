import { closeSync, fsyncSync, openSync, renameSync, writeSync } from 'node:fs';

/** Replaces a file's content atomically: a temporary file, fsync, rename; a crash leaves the old content or the new, never a torn file. */
export const replaceFile = (path: string, text: string): void => {
  const tmp = `${path}.tmp`;
  const fd = openSync(tmp, 'w');
  try {
    const bytes = Buffer.from(text);
    let done = 0;
    while (done < bytes.length) done += writeSync(fd, bytes, done);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, path);
};
