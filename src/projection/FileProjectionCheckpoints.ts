import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { ProjectionCheckpoints } from './ProjectionCheckpoints.js';
import { replaceFile } from '../util/replaceFile.js';

/**
 * Projection positions in one small JSON file of the data directory, replaced atomically (a
 * temporary file, fsync, rename): a crash leaves the previous positions or the new ones, never a
 * torn file. Records are chained, so the file always ends with the latest of each name.
 */
export class FileProjectionCheckpoints implements ProjectionCheckpoints {
  private readonly positions: Record<string, number>;
  private writing: Promise<void> = Promise.resolve();

  constructor(private readonly path: string) {
    mkdirSync(dirname(path), { recursive: true });
    this.positions = existsSync(path) ? readPositions(path) : {};
  }

  async get(name: string): Promise<number | undefined> {
    return this.positions[name];
  }

  set(name: string, position: number): Promise<void> {
    this.positions[name] = position;
    const text = JSON.stringify(this.positions);
    // A failed write (a full disk) fails its caller only; the next one tries again.
    const written = this.writing.catch(() => undefined).then(() => this.write(text));
    this.writing = written;
    return written;
  }

  private async write(text: string): Promise<void> {
    replaceFile(this.path, text);
  }
}

/** A file that cannot be read only costs a rebuild of the projections from the states. */
const readPositions = (path: string): Record<string, number> => {
  try {
    const parsed = JSON.parse(readFileSync(path, 'utf8')) as unknown;
    if (!parsed || typeof parsed !== 'object') return {};
    return Object.fromEntries(Object.entries(parsed).filter((entry): entry is [string, number] => Number.isSafeInteger(entry[1])));
  } catch {
    return {};
  }
};
