import { createHash } from 'node:crypto';
import { mkdir, open, readdir, realpath, rename, rm, stat, utimes } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { CapacityGrant, CapacityLedger, CapacityRequest } from './files/CapacityLedger.js';

export interface LedgerTimes {
  /** A live grant's file is touched this often. */
  heartbeatMillis: number;
  /** A grant's file untouched this long belongs to a process that died: it no longer counts. */
  staleMillis: number;
  /** A committed grant still counts this long, for replicas whose projection has not yet seen its file. */
  graceMillis: number;
  /** A lock older than this was left by a process that died while holding it. */
  lockStaleMillis: number;
}

const TIMES: LedgerTimes = { heartbeatMillis: 5_000, staleMillis: 60_000, graceMillis: 60_000, lockStaleMillis: 10_000 };

/**
 * `r.{uuid}.{bytes}`: a grant in flight; `c.{seq}.{uuid}.{bytes}`: a grant committed, its file
 * recorded by the log's event at `seq` (a grant committed by an older build, `c.{uuid}.{bytes}`, names
 * no event: it counts until its grace ends).
 */
const ENTRY = /^([rc])\.(?:(\d+)\.)?([0-9a-f-]{36})\.(\d+)$/;

/**
 * The capacity account of a disk storage, kept in its volume (`{volume}/.registry-capacity/{hash of
 * the storage}/`) so that every replica writing to the volume shares it: one file per grant, the
 * account read and a grant added under a lock file created with O_EXCL. In one process, reservations
 * of an account are also queued, so they do not contend for the lock file. A process that dies
 * leaves grants that stop counting once their heartbeat is stale.
 */
export class VolumeCapacityLedger implements CapacityLedger {
  private readonly queues = new Map<string, Promise<unknown>>();

  constructor(private readonly times: LedgerTimes = TIMES) {}

  async reserve(request: CapacityRequest): Promise<CapacityGrant> {
    const dir = join(await realpath(request.volume), '.registry-capacity', createHash('sha256').update(request.storageKey).digest('hex').slice(0, 32));
    const previous = this.queues.get(dir) ?? Promise.resolve();
    const turn = previous.catch(() => undefined).then(() => this.locked(dir, () => this.grant(dir, request)));
    this.queues.set(dir, turn);
    try {
      return await turn;
    } finally {
      if (this.queues.get(dir) === turn) this.queues.delete(dir);
    }
  }

  private async grant(dir: string, request: CapacityRequest): Promise<CapacityGrant> {
    const now = Date.now();
    const { used, position } = await request.usage();
    let taken = 0;
    for (const name of await readdir(dir)) {
      const entry = ENTRY.exec(name);
      if (!entry) continue;
      const [, kind, seq, , bytes] = entry;
      const info = await stat(join(dir, name)).catch(() => undefined);
      // Gone since the listing: committed (renamed) or released meanwhile; counted to be safe.
      if (!info) {
        taken += Number(bytes);
        continue;
      }
      const age = now - info.mtimeMs;
      if ((kind === 'r' && age > this.times.staleMillis) || (kind === 'c' && age > this.times.graceMillis)) {
        await rm(join(dir, name), { force: true });
        continue;
      }
      // Its file is in the account the usage gave: counted there, not twice.
      if (kind === 'c' && seq !== undefined && Number(seq) <= position) continue;
      taken += Number(bytes);
    }
    const bytes = Math.max(0, Math.min(request.wanted, request.capacity - used - taken));
    if (bytes === 0) return { bytes, commit: async () => undefined, release: async () => undefined };
    const live = join(dir, `r.${request.uuid}.${bytes}`);
    await (await open(live, 'wx')).close();
    const heartbeat = setInterval(() => void utimes(live, new Date(), new Date()).catch(() => undefined), this.times.heartbeatMillis);
    heartbeat.unref();
    let settled = false;
    return {
      bytes,
      commit: async (written: number, seq: number) => {
        if (settled) return;
        settled = true;
        clearInterval(heartbeat);
        const committed = join(dir, `c.${seq}.${request.uuid}.${Math.min(written, bytes)}`);
        await rename(live, committed).catch(() => undefined);
        // Its age counts from the commit: the grace is for replicas to see the file's event.
        await utimes(committed, new Date(), new Date()).catch(() => undefined);
      },
      release: async () => {
        if (settled) return;
        settled = true;
        clearInterval(heartbeat);
        await rm(live, { force: true });
      },
    };
  }

  /** Runs `work` holding the account's lock file (created with O_EXCL; a stale one is broken). */
  private async locked<T>(dir: string, work: () => Promise<T>): Promise<T> {
    await mkdir(dir, { recursive: true });
    const lock = join(dir, 'lock');
    for (let attempt = 0; ; attempt++) {
      try {
        await (await open(lock, 'wx')).close();
        break;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
        const info = await stat(lock).catch(() => undefined);
        if (info && Date.now() - info.mtimeMs > this.times.lockStaleMillis) await rm(lock, { force: true });
        else await sleep(Math.min(50, 2 + attempt));
      }
    }
    try {
      return await work();
    } finally {
      await rm(lock, { force: true });
    }
  }
}
