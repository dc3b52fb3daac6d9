import { readdir, realpath, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { PART_FILE } from './DiskFileStore.js';

/** Where a disk storage's files of one project are: `{volume}/{org}/{project}/{xx}/{yy}/`. */
export interface PartFolder {
  volume: string;
  project: string;
}

const folders = async (dir: string): Promise<string[]> =>
  (await readdir(dir, { withFileTypes: true }).catch(() => [])).filter((e) => e.isDirectory() && /^[0-9a-f]{2}$/.test(e.name)).map((e) => join(dir, e.name));

/**
 * Removes the temporary files of uploads that never finished (a crash, a kill) older than
 * `olderThanMillis`: an upload still running touches its file at least that often (a pause that long
 * cuts it off). Only the service's own layout and names are looked at, never the rest of a volume.
 * Returns the paths removed.
 */
export const sweepPartFiles = async (places: readonly PartFolder[], olderThanMillis: number, now = Date.now()): Promise<string[]> => {
  const removed: string[] = [];
  const seen = new Set<string>();
  for (const place of places) {
    const volume = await realpath(place.volume).catch(() => undefined);
    if (volume === undefined) continue;
    const base = join(volume, ...place.project.split('/'));
    if (seen.has(base)) continue;
    seen.add(base);
    for (const first of await folders(base))
      for (const second of await folders(first))
        for (const name of await readdir(second).catch(() => [] as string[])) {
          if (!PART_FILE.test(name)) continue;
          const path = join(second, name);
          const info = await stat(path).catch(() => undefined);
          if (!info?.isFile() || now - info.mtimeMs < olderThanMillis) continue;
          await rm(path, { force: true });
          removed.push(path);
        }
  }
  return removed;
};
