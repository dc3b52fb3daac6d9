import { closeSync, existsSync, fsync, fsyncSync, openSync, readFileSync, renameSync, unlinkSync, writeSync, mkdirSync } from 'node:fs';
import type { Log } from '../kernel/Log.js';
import { consoleLog } from '../kernel/Log.js';
import { dirname } from 'node:path';
import type { Snapshot } from './snapshotText.js';
import { parseSnapshot, snapshotText } from './snapshotText.js';

export type { Snapshot } from './snapshotText.js';

/** One snapshot file, replaced atomically (write to a temporary file, fsync, rename). */
export class Snapshots {
  constructor(
    private readonly path: string,
    private readonly log: Log = consoleLog,
  ) {
    mkdirSync(dirname(path), { recursive: true });
  }

  load(): Snapshot | undefined {
    if (!existsSync(this.path)) return undefined;
    try {
      return parseSnapshot(readFileSync(this.path, 'utf8'));
    } catch (error) {
      // The log is the source of truth: a snapshot that cannot be read only costs a full replay.
      this.log.warn(`snapshot ${this.path} ignored (${(error as Error).message}): replaying the whole log`);
      return undefined;
    }
  }

  /** Writes the snapshot at once (shutdown, after a permanent deletion). */
  save(snapshot: Snapshot): void {
    const file = this.begin();
    for (const _ of this.pieces(snapshot, file.fd)) {
      /* written by the generator */
    }
    fsyncSync(file.fd);
    closeSync(file.fd);
    this.commit(file);
  }

  /**
   * Writes the snapshot in pieces, yielding to the event loop between them, so requests go on
   * while a large registry is saved. The states are immutable values (every event makes new
   * ones), so the arrays captured by the caller stay a consistent picture while this runs.
   * `durable` makes what the snapshot refers to durable (the revision file) before it replaces
   * the previous snapshot; fsyncs run off the event loop.
   */
  async saveInBackground(snapshot: Snapshot, durable: () => Promise<void>): Promise<void> {
    const file = this.begin();
    try {
      for (const _ of this.pieces(snapshot, file.fd)) await new Promise<void>((resolve) => setImmediate(resolve));
      await new Promise<void>((resolve, reject) => fsync(file.fd, (error) => (error ? reject(error) : resolve())));
    } finally {
      closeSync(file.fd);
    }
    await durable();
    this.commit(file);
  }

  /** Bumped by every snapshot: a background one superseded by a later one is abandoned, never renamed over it. */
  private generation = 0;

  private begin(): { fd: number; tmp: string; generation: number } {
    const generation = ++this.generation;
    const tmp = `${this.path}.${generation}.tmp`;
    return { fd: openSync(tmp, 'w'), tmp, generation };
  }

  private commit(file: { tmp: string; generation: number }): void {
    if (file.generation === this.generation) renameSync(file.tmp, this.path);
    else unlinkSync(file.tmp);
  }

  private *pieces(snapshot: Snapshot, fd: number): Generator<void> {
    for (const text of snapshotText(snapshot)) {
      const bytes = Buffer.from(text);
      let done = 0;
      while (done < bytes.length) done += writeSync(fd, bytes, done);
      yield;
    }
  }
}
