import { closeSync, existsSync, fsync, fsyncSync, openSync, readFileSync, renameSync, unlinkSync, writeSync, mkdirSync } from 'node:fs';
import type { Log } from '../kernel/Log.js';
import { consoleLog } from '../kernel/Log.js';
import { dirname } from 'node:path';

/**
 * Everything a restart needs besides the log: the folded states of every kind (under the kind's
 * name; a kind registered after the snapshot was taken is absent) and how far the revision file goes.
 */
export interface Snapshot {
  version: 1;
  seq: number;
  revisionBytes: number;
  states: Record<string, unknown[]>;
}

/** `terms`: kept by snapshots taken before the catalogue persisted them itself, and ignored. */
const HEADER = new Set(['version', 'seq', 'revisionBytes', 'terms']);

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
    let stored: Record<string, unknown>;
    try {
      stored = JSON.parse(readFileSync(this.path, 'utf8')) as Record<string, unknown>;
      if (stored['version'] !== 1 || typeof stored['seq'] !== 'number' || typeof stored['revisionBytes'] !== 'number')
        throw new Error('not a snapshot of this version');
    } catch (error) {
      // The log is the source of truth: a snapshot that cannot be read only costs a full replay.
      this.log.warn(`snapshot ${this.path} ignored (${(error as Error).message}): replaying the whole log`);
      return undefined;
    }
    // States are stored as top-level arrays named after their kind.
    const states = Object.fromEntries(Object.entries(stored).filter(([key, value]) => !HEADER.has(key) && Array.isArray(value))) as Record<string, unknown[]>;
    return {
      version: 1,
      seq: stored['seq'] as number,
      revisionBytes: stored['revisionBytes'] as number,
      states,
    };
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
    // Written in pieces: one JSON string of every state could exceed V8's string limit.
    const write = (text: string) => {
      const bytes = Buffer.from(text);
      let done = 0;
      while (done < bytes.length) done += writeSync(fd, bytes, done);
    };
    write(`{"version":1,"seq":${snapshot.seq},"revisionBytes":${snapshot.revisionBytes}`);
    for (const [field, items] of Object.entries(snapshot.states)) {
      write(`,${JSON.stringify(field)}:[`);
      for (let i = 0; i < items.length; i += 1000) {
        write(
          (i ? ',' : '') +
            items
              .slice(i, i + 1000)
              .map((x) => JSON.stringify(x))
              .join(','),
        );
        yield;
      }
      write(']');
    }
    write('}');
  }
}
