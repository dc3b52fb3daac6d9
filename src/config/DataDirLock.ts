import { closeSync, mkdirSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';

/** Another live process already serves this data directory. */
export class DataDirLocked extends Error {}

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/**
 * One process per data directory: a lock file holding the owner's pid. A lock left by a process
 * that died (SIGKILL) is taken over; a live owner makes start-up fail with a clear message.
 */
export const lockDataDir = (dataDir: string): (() => void) => {
  mkdirSync(dataDir, { recursive: true });
  const path = join(dataDir, 'registry.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(path, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return () => {
        try {
          unlinkSync(path);
        } catch {
          /* already gone */
        }
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const owner = Number(readFileSync(path, 'utf8').trim());
      if (owner && owner !== process.pid && alive(owner))
        throw new DataDirLocked(
          `The data directory '${dataDir}' is in use by another registry process (pid ${owner}); stop it or set DATA_DIR to another directory.`,
        );
      unlinkSync(path);
    }
  }
  throw new DataDirLocked(`Could not lock the data directory '${dataDir}'.`);
};
