import type { StateTemplate } from '../kernel/stateTemplate.js';

/**
 * The kinds of item whose changes the log records, as the keys of an interface: a capability module
 * adds its own kind with a declaration merge (`declare module` ... `interface KindNames { views: true }`)
 * in its own folder, so no shared list is edited.
 */
export interface KindNames {
  orgs: true;
  projects: true;
  resources: true;
  schemas: true;
  acls: true;
  realms: true;
  permissions: true;
}
export type Kind = keyof KindNames;

/** What a writer hands to the log. `event` is the domain event, `rev` the item's revision after it (0: deleted). */
export interface EventDraft {
  key: string;
  kind: Kind;
  org?: string;
  project?: string;
  rev: number;
  event: { type: string; instant: string };
  /**
   * The item lives in another (its project): the append is refused (`ScopeDeleted`) when that key
   * was deleted, an event taking its revision to 0, at a position after `since` (where the writer
   * saw it exist, its creation). Judged by the log, as `rev` is; not recorded with the event.
   */
  within?: { key: string; since: number };
  /**
   * The state the event leads the item to, for a log that keeps the latest states beside the events
   * (written in the same atomic step; absent when the item is gone). Not recorded with the event.
   */
  state?: StateTemplate;
}

/** A durable event: `seq` increases by one per event across the whole log, so it is comparable across every scope. */
export interface LogEvent extends EventDraft {
  seq: number;
}

/** The item's revision in the log differs from the one the writer evaluated against. */
export class RevisionConflict extends Error {
  constructor(
    readonly key: string,
    readonly expected: number,
    readonly actual: number,
  ) {
    super(`revision conflict on ${key}: expected ${expected}, log has ${actual}`);
  }
}

/** The key the draft's item lives `within` was deleted after the writer saw it: a write in flight outlived its project's deletion. */
export class ScopeDeleted extends Error {
  constructor(
    readonly key: string,
    readonly deletedAt: number,
  ) {
    super(`${key} was deleted at event ${deletedAt}, after the write saw it`);
  }
}

/** One entry of a batched append: what `append` takes. */
export interface BatchEntry {
  draft: EventDraft;
  expectedRev: number;
}

/** What the log decided for one entry of a batch: its event, or why it refused that entry alone. */
export type Appended = LogEvent | RevisionConflict | ScopeDeleted;

/** The log cannot be reached for the moment (a Redis restart, a network blip): nothing was appended, or the outcome is unknown. */
export class EventLogUnavailable extends Error {}

/**
 * The source of truth. `append` is the only write: it checks the item's revision and appends in one
 * atomic step, and resolves only once the event is durable. Readers pull (`read`, `waitForNew`), which
 * gives replay-then-follow without gaps and lets a slow reader apply its own backpressure.
 */
export interface EventLog {
  /** Refused with `RevisionConflict` when the key is not at `expectedRev`, with `ScopeDeleted` as `draft.within` says. */
  append(draft: EventDraft, expectedRev: number): Promise<LogEvent>;
  /**
   * Many appends in one write (one round trip, one durable sync): each entry is judged on its own and
   * in order, exactly as that many `append` calls would be (a later entry sees an earlier one's
   * revision), and its outcome is in the answer at its index. Resolves only once every appended
   * event is durable; a failure of the log itself (unreachable, a failed write) rejects the whole,
   * and then none of the entries may be taken as appended.
   */
  appendBatch(entries: readonly BatchEntry[]): Promise<Appended[]>;
  /** Up to `limit` events with `seq > after`, in order. Pruned events are skipped. */
  read(after: number, limit: number): Promise<LogEvent[]>;
  /**
   * The events of one key with `seq <= until`, in order: an item's history, to fold its state as of
   * a position (a runner reading changes again from the log). Pruned events are skipped.
   */
  history(key: string, until: number): Promise<LogEvent[]>;
  /** One event by position, or undefined when pruned or unknown. */
  get(seq: number): Promise<LogEvent | undefined>;
  lastSeq(): Promise<number>;
  /** Resolves once an event with `seq > after` exists, or when `signal` aborts. */
  waitForNew(after: number, signal?: AbortSignal): Promise<void>;
  /**
   * Blanks the payload of every event of `key` before `beforeSeq`, keeping only later ones (the deletion
   * marker). A key left with no event is at revision 0 again (a deleted project's items can be created anew).
   */
  prune(key: string, beforeSeq: number): Promise<void>;
  close(): Promise<void>;
}
