import { closeSync, existsSync, fdatasyncSync, ftruncateSync, fstatSync, mkdirSync, openSync, readSync, writeSync } from 'node:fs';
import type { Log } from '../kernel/Log.js';
import { consoleLog } from '../kernel/Log.js';
import type { FileHandle } from 'node:fs/promises';
import { open } from 'node:fs/promises';
import { dirname } from 'node:path';
import { eachLine, readHead, record } from './journalRecords.js';
import type { Damage } from './journalRecords.js';
import { JournalDamaged } from './journalRecords.js';
import type { Appended, BatchEntry, EventDraft, EventLog, LogEvent } from './EventLog.js';
import { RevisionConflict, ScopeDeleted } from './EventLog.js';

interface Pending {
  event: LogEvent;
  line: Buffer;
  resolve: (e: LogEvent) => void;
  reject: (e: unknown) => void;
}

const TAIL = 1_000;

/** Makes the bytes written so far survive a power cut; an append resolves only once it has. */
export type DurableSync = (file: FileHandle) => Promise<void>;
const fdatasync: DurableSync = (file) => file.datasync();

/**
 * The embedded event log: one append-only file of records `seq \t key \t rev \t json \t crc32`
 * (see journalRecords.ts). Appends are
 * group-committed: every append waiting while a write is in flight goes into the next single
 * write + fdatasync, and no append resolves before its bytes are on disk. Pruning overwrites the
 * item's lines with spaces in place, so positions stay valid and nothing of the item remains.
 */
export class JournalEventLog implements EventLog {
  private readonly fd: number;
  private size = 0;
  private last = 0;
  private readonly offsets: number[] = [];
  private readonly lengths: number[] = [];
  private readonly revs = new Map<string, number>();
  /** Key → position of its last deletion (an event taking its revision to 0): what `within` is judged by. */
  private readonly deleted = new Map<string, number>();
  private readonly keySeqs = new Map<string, number[]>();
  private readonly tail = new Map<number, LogEvent>();
  private pending: Pending[] = [];
  private enqueued = 0;
  private flushing = false;
  private failed: unknown;
  private waiters: Array<() => void> = [];

  private constructor(
    private readonly file: FileHandle,
    private readonly path: string,
    private readonly log: Log,
    private readonly sync: DurableSync,
  ) {
    this.fd = file.fd;
    this.size = fstatSync(this.fd).size;
    this.scan();
    this.enqueued = this.last;
  }

  static async open(path: string, log: Log = consoleLog, sync: DurableSync = fdatasync): Promise<JournalEventLog> {
    mkdirSync(dirname(path), { recursive: true });
    if (!existsSync(path)) closeSync(openSync(path, 'w'));
    const file = await open(path, 'r+');
    try {
      return new JournalEventLog(file, path, log, sync);
    } catch (error) {
      await file.close();
      throw error;
    }
  }

  /**
   * Rebuilds positions and revisions, checking every record. Damage after the last sound record
   * (a torn or partly written tail: never acknowledged) is cut off and logged; damage followed by
   * sound records stops the start with where it is and what to do.
   */
  private scan(): void {
    const damaged: Damage[] = [];
    let soundEnd = 0;
    eachLine(this.fd, this.size, (data, from, end, offset) => {
      if (data[from] === 0x20) return; // pruned line
      const head = readHead(data, from, end);
      if (!head || head.seq <= this.last) {
        damaged.push({ offset, length: end - from + 1, after: this.last });
        return;
      }
      if (damaged.length) throw new JournalDamaged(this.path, damaged[0]!);
      this.offsets[head.seq] = offset;
      this.lengths[head.seq] = end - from;
      this.revs.set(head.key, head.rev);
      if (head.rev === 0) this.deleted.set(head.key, head.seq);
      this.seqsOf(head.key).push(head.seq);
      this.last = head.seq;
      soundEnd = offset + end - from + 1;
    });
    if (soundEnd < this.size) {
      this.log.warn(
        `journal ${this.path}: bytes ${soundEnd}-${this.size} after event ${this.last} are ${damaged.length ? 'damaged' : 'an unfinished record'} (a write interrupted by a crash, never acknowledged): cut off`,
      );
      ftruncateSync(this.fd, soundEnd);
      fdatasyncSync(this.fd);
      this.size = soundEnd;
    }
  }

  private seqsOf(key: string): number[] {
    let seqs = this.keySeqs.get(key);
    if (!seqs) this.keySeqs.set(key, (seqs = []));
    return seqs;
  }

  append(draft: EventDraft, expectedRev: number): Promise<LogEvent> {
    if (this.failed) return Promise.reject(this.failed);
    const actual = this.revs.get(draft.key) ?? 0;
    if (actual !== expectedRev) return Promise.reject(new RevisionConflict(draft.key, expectedRev, actual));
    // The state travels only to a log that keeps states (Redis); the journal's are folded in process.
    const { within, state: _state, ...recorded } = draft;
    const deletedAt = within && (this.deleted.get(within.key) ?? 0);
    if (within && deletedAt! > within.since) return Promise.reject(new ScopeDeleted(within.key, deletedAt!));
    const event: LogEvent = { ...recorded, seq: ++this.enqueued };
    this.revs.set(draft.key, draft.rev);
    if (draft.rev === 0) this.deleted.set(draft.key, event.seq);
    const { key, rev, seq, ...rest } = event;
    const line = record(seq, key, rev, rest);
    return new Promise<LogEvent>((resolve, reject) => {
      this.pending.push({ event, line, resolve, reject });
      if (!this.flushing) void this.flush();
    });
  }

  /** Every entry joins the same group commit: they are enqueued in this tick, before the flush takes its batch. */
  async appendBatch(entries: readonly BatchEntry[]): Promise<Appended[]> {
    const settled = await Promise.allSettled(entries.map(({ draft, expectedRev }) => this.append(draft, expectedRev)));
    return settled.map((outcome) => {
      if (outcome.status === 'fulfilled') return outcome.value;
      if (outcome.reason instanceof RevisionConflict || outcome.reason instanceof ScopeDeleted) return outcome.reason;
      throw outcome.reason;
    });
  }

  private async flush(): Promise<void> {
    this.flushing = true;
    // Let every append issued in this tick join the batch.
    await new Promise<void>((r) => setImmediate(r));
    while (this.pending.length) {
      const batch = this.pending;
      this.pending = [];
      try {
        const bytes = Buffer.concat(batch.map((p) => p.line));
        // Into the page cache at once (a few KiB): an asynchronous write cost the batch one more
        // hop through the thread pool and the event loop, each a wait for a core on a busy machine.
        writeFullySync(this.fd, bytes, this.size);
        await this.sync(this.file);
        let offset = this.size;
        for (const { event, line } of batch) {
          this.offsets[event.seq] = offset;
          this.lengths[event.seq] = line.length - 1;
          offset += line.length;
          this.seqsOf(event.key).push(event.seq);
          this.remember(event);
        }
        this.size = offset;
        this.last = batch[batch.length - 1]!.event.seq;
      } catch (error) {
        // Revisions were reserved for these events; the log can no longer vouch for them.
        this.failed = error;
        for (const p of [...batch, ...this.pending]) p.reject(error);
        this.pending = [];
        break;
      }
      for (const p of batch) p.resolve(p.event);
      this.wake();
    }
    this.flushing = false;
  }

  private remember(event: LogEvent): void {
    this.tail.set(event.seq, event);
    this.tail.delete(event.seq - TAIL);
  }

  private wake(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const w of waiters) w();
  }

  async read(after: number, limit: number): Promise<LogEvent[]> {
    const out: LogEvent[] = [];
    let seq = Math.max(after, 0) + 1;
    while (seq <= this.last && out.length < limit) {
      const cached = this.tail.get(seq);
      if (cached) {
        out.push(cached);
        seq++;
        continue;
      }
      if (this.offsets[seq] === undefined) {
        seq++;
        continue;
      }
      // One read for a run of consecutive lines not held in memory.
      let end = seq;
      while (end + 1 <= this.last && out.length + (end - seq + 1) < limit && !this.tail.has(end + 1) && end - seq < 4096) end++;
      out.push(...this.readRange(seq, end));
      seq = end + 1;
    }
    return out;
  }

  private readRange(from: number, to: number): LogEvent[] {
    let first = from;
    while (first <= to && this.offsets[first] === undefined) first++;
    let lastSeq = to;
    while (lastSeq >= first && this.offsets[lastSeq] === undefined) lastSeq--;
    if (first > lastSeq) return [];
    const start = this.offsets[first]!;
    const length = this.offsets[lastSeq]! + this.lengths[lastSeq]! - start;
    const buffer = Buffer.allocUnsafe(length);
    readSync(this.fd, buffer, 0, length, start);
    const out: LogEvent[] = [];
    for (let seq = first; seq <= lastSeq; seq++) {
      const offset = this.offsets[seq];
      if (offset === undefined) continue;
      const event = parseLine(buffer.subarray(offset - start, offset - start + this.lengths[seq]!));
      if (event) out.push(event);
    }
    return out;
  }

  async history(key: string, until: number): Promise<LogEvent[]> {
    const events: LogEvent[] = [];
    for (const seq of this.keySeqs.get(key) ?? []) {
      if (seq > until) break;
      const event = await this.get(seq);
      if (event) events.push(event);
    }
    return events;
  }

  async get(seq: number): Promise<LogEvent | undefined> {
    const cached = this.tail.get(seq);
    if (cached) return cached;
    if (seq > this.last || this.offsets[seq] === undefined) return undefined;
    return this.readRange(seq, seq)[0];
  }

  async lastSeq(): Promise<number> {
    return this.last;
  }

  waitForNew(after: number, signal?: AbortSignal): Promise<void> {
    if (this.last > after || signal?.aborted) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        signal?.removeEventListener('abort', done);
        resolve();
      };
      this.waiters.push(done);
      signal?.addEventListener('abort', done, { once: true });
    });
  }

  async prune(key: string, beforeSeq: number): Promise<void> {
    await this.settled();
    const seqs = this.keySeqs.get(key) ?? [];
    const kept: number[] = [];
    for (const seq of seqs) {
      if (seq >= beforeSeq) {
        kept.push(seq);
        continue;
      }
      const offset = this.offsets[seq];
      if (offset !== undefined) await writeFully(this.file, Buffer.alloc(this.lengths[seq]!, 0x20), offset);
      delete this.offsets[seq];
      delete this.lengths[seq];
      this.tail.delete(seq);
    }
    await this.sync(this.file);
    this.keySeqs.set(key, kept);
    // As after a restart, which reads revisions from the events left: a key with none starts again at 0.
    if (kept.length === 0) this.revs.delete(key);
  }

  /** Resolves once nothing is waiting to be written. */
  private async settled(): Promise<void> {
    while (this.flushing || this.pending.length) await new Promise((r) => setTimeout(r, 1));
  }

  async close(): Promise<void> {
    await this.settled();
    this.wake();
    await this.file.close();
  }
}

const parseLine = (line: Buffer): LogEvent | undefined => {
  if (line.length === 0 || line[0] === 0x20) return undefined;
  const t1 = line.indexOf(9);
  const t2 = line.indexOf(9, t1 + 1);
  const t3 = line.indexOf(9, t2 + 1);
  const t4 = line.indexOf(9, t3 + 1);
  const rest = JSON.parse(line.toString('utf8', t3 + 1, t4 === -1 ? line.length : t4)) as Omit<LogEvent, 'seq' | 'key' | 'rev'>;
  return {
    ...rest,
    seq: Number(line.toString('latin1', 0, t1)),
    key: JSON.parse(line.toString('utf8', t1 + 1, t2)) as string,
    rev: Number(line.toString('latin1', t2 + 1, t3)),
  };
};

const writeFully = async (file: FileHandle, bytes: Buffer, position: number): Promise<void> => {
  let written = 0;
  while (written < bytes.length) {
    const { bytesWritten } = await file.write(bytes, written, bytes.length - written, position + written);
    written += bytesWritten;
  }
};

const writeFullySync = (fd: number, bytes: Buffer, position: number): void => {
  for (let written = 0; written < bytes.length;) written += writeSync(fd, bytes, written, bytes.length - written, position + written);
};
