import type { Appended, BatchEntry, EventDraft, EventLog, LogEvent } from '../events/EventLog.js';

/** How far a write waits before it is acknowledged: `sync` (the default) for every projection, `async` for the states only. */
export type Indexing = 'sync' | 'async';

/** What the writer waits on after an append: the states' fold, then the projections a `sync` write promises. */
export interface WriteProgress {
  /** Resolves once the item states (what fetches, ACL decisions and the next command read) include `seq`. */
  states(seq: number): Promise<void>;
  /** Resolves once every projection has applied `seq`, or reports a failure and is not waited for. */
  projections(seq: number): Promise<void>;
  /** Brings the states up to the log head (a write lost a race: learn what the winner wrote). */
  latest(): Promise<void>;
  /** The request's `indexing`, as it arrived. */
  indexing(): Indexing;
}

/**
 * Appends evaluated events. The log checks the expected revision atomically, so no replica appends
 * on a stale state; once appended, the write waits until the item's state includes it (readable by
 * fetch at once), and with `indexing=sync` until the projections applied it too.
 */
export class EventWriter {
  constructor(
    private readonly log: EventLog,
    private readonly progress: WriteProgress,
  ) {}

  /** Throws the log's `RevisionConflict` when the item moved on. */
  async append(draft: EventDraft, expectedRev: number): Promise<LogEvent> {
    const logged = await this.log.append(draft, expectedRev);
    await this.progress.states(logged.seq);
    if (this.progress.indexing() === 'sync') await this.progress.projections(logged.seq);
    return logged;
  }

  /** A batch in one write (see `EventLog.appendBatch`), then one wait for the last event it appended. */
  async appendBatch(entries: readonly BatchEntry[]): Promise<Appended[]> {
    const outcomes = await this.log.appendBatch(entries);
    const last = Math.max(0, ...outcomes.map((o) => ('seq' in o ? o.seq : 0)));
    if (last > 0) {
      await this.progress.states(last);
      if (this.progress.indexing() === 'sync') await this.progress.projections(last);
    }
    return outcomes;
  }

  /** Catches the states up to the log head. */
  latest(): Promise<void> {
    return this.progress.latest();
  }

  /** Removes an item's events before `seq` (its deletion marker) from the log. */
  prune(key: string, seq: number): Promise<void> {
    return this.log.prune(key, seq);
  }
}
