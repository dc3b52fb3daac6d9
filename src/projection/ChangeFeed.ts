import type { Change } from './Projection.js';

/** What a runner reads: every change of positions in `(from, through]`, in order. */
export interface FeedRead {
  changes: readonly Change[];
  through: number;
}

/**
 * Changes made again from the log, for a runner behind the feed's window: the events of `(after,
 * until]`, at most `limit` of them, folded from each item's state before them as the log has it.
 * `pinned` gives the changes the feed kept of a position (permanent deletions: the log prunes the
 * history they need), used as they are.
 */
export interface ChangeReplay {
  changes(after: number, until: number, limit: number, pinned: (seq: number) => readonly Change[] | undefined): Promise<FeedRead>;
}

/** Most changes kept in the array after they left it (a shift per change would copy the window each time). */
const COMPACT_AT = 1_024;

/**
 * The changes the states' fold made, in log order: a window of at most `maxChanges` of them, kept
 * until every runner reading them has applied them. The fold pushes; each runner reads from its own
 * position at its own pace. A runner that falls behind the window (the store's writer under load,
 * a projection retrying a change) does not hold the rest in memory: it reads the changes it lacks
 * again from the log (`replay`), and returns to the window once it reaches it. Permanent deletions
 * leaving the window are kept aside (`pinned`) until every runner passed them: their item's events
 * are pruned from the log, so the log alone cannot tell what they removed.
 */
export class ChangeFeed {
  private changes: Change[] = [];
  /** Index of the first change held: the ones before it left the window. */
  private head = 0;
  private folded = 0;
  /** Every change of a position above it is held (or pinned); a runner at or past it reads from the window. */
  private floor = 0;
  private readonly pinned = new Map<number, Change[]>();
  private readonly listeners = new Set<() => void>();
  private readonly readers = new Set<() => number>();

  constructor(
    private readonly maxChanges = Infinity,
    private readonly replay?: ChangeReplay,
  ) {}

  push(change: Change): void {
    this.pushAll([change]);
  }

  /**
   * Changes of one position at once: a listener reads the feed as soon as it is told, and one told
   * of a project deletion's first change would apply it alone and pass the position's others.
   */
  pushAll(changes: readonly Change[]): void {
    if (!changes.length) return;
    this.changes.push(...changes);
    this.bound();
    for (const listener of this.listeners) listener();
  }

  /** Whole positions leave the window, oldest first, until it holds at most `maxChanges`. */
  private bound(): void {
    while (this.changes.length - this.head > this.maxChanges) {
      const seq = this.changes[this.head]!.logged.seq;
      while (this.head < this.changes.length && this.changes[this.head]!.logged.seq === seq) {
        const change = this.changes[this.head++]!;
        if (change.next === undefined) this.pinned.set(seq, [...(this.pinned.get(seq) ?? []), change]);
      }
      this.floor = seq;
    }
    this.compact();
  }

  private compact(): void {
    if (this.head < COMPACT_AT && (this.head === 0 || this.head * 2 < this.changes.length)) return;
    this.changes = this.changes.slice(this.head);
    this.head = 0;
  }

  /** The fold's position: events up to it that made no change (pruned, unknown kinds) are passed by every runner. */
  get position(): number {
    return this.folded;
  }

  advance(position: number): void {
    if (position <= this.folded) return;
    this.folded = position;
    for (const listener of this.listeners) listener();
  }

  /**
   * Up to `limit` changes of positions above `position`, in order, and never a part of one position:
   * a project's deletion pushes a change per item at its own position, and a runner that stopped in
   * the middle of them would pass the rest. From the window when it holds `position`, else again
   * from the log up to the window. `through`: the position every change up to which was given.
   */
  async read(position: number, limit: number): Promise<FeedRead> {
    if (position >= this.floor) return this.window(position, limit);
    if (!this.replay) throw new Error(`the change feed holds the changes after ${this.floor} only, and a reader is at ${position}`);
    const until = this.floor;
    const replayed = await this.replay.changes(position, until, limit, (seq) => this.pinned.get(seq));
    // Pinned positions whose event the log no longer has (pruned since) are handed on all the same.
    const given = new Set(replayed.changes.map((c) => c.logged.seq));
    const missing = [...this.pinned].filter(([seq]) => seq > position && seq <= replayed.through && !given.has(seq)).flatMap(([, changes]) => changes);
    if (!missing.length) return replayed;
    return { changes: [...replayed.changes, ...missing].sort((a, b) => a.logged.seq - b.logged.seq), through: replayed.through };
  }

  /** Up to `limit` of the window's changes after `position` (statistics: a runner behind it reads with `read`). */
  after(position: number, limit: number): readonly Change[] {
    return this.window(position, limit).changes;
  }

  /** The window's changes after `position` (at or past the floor). */
  private window(position: number, limit: number): FeedRead {
    let low = this.head;
    let high = this.changes.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (this.changes[mid]!.logged.seq <= position) low = mid + 1;
      else high = mid;
    }
    let end = Math.min(low + limit, this.changes.length);
    while (end > low && end < this.changes.length && this.changes[end]!.logged.seq === this.changes[end - 1]!.logged.seq) end++;
    const changes = this.changes.slice(low, end);
    if (end < this.changes.length) return { changes, through: this.changes[end - 1]!.logged.seq };
    // Every change pushed is given: the fold's position is covered too (a change is pushed before the fold advances past it).
    const last = changes.length ? changes[changes.length - 1]!.logged.seq : position;
    return { changes, through: Math.max(last, this.folded, position) };
  }

  /** A reader's position: changes every reader passed are released. Returns its removal (a runner stopped at run time). */
  reader(position: () => number, onPush: () => void): () => void {
    this.readers.add(position);
    this.listeners.add(onPush);
    return () => {
      this.readers.delete(position);
      this.listeners.delete(onPush);
    };
  }

  /**
   * Releases what every reader has applied (called by readers as they advance). The floor follows:
   * a reader sent back below it (the shared store came back from a crash behind what its writer
   * wrote) reads those changes again from the log rather than passing them.
   */
  release(): void {
    let lowest = Infinity;
    for (const position of this.readers) lowest = Math.min(lowest, position());
    while (this.head < this.changes.length && this.changes[this.head]!.logged.seq <= lowest)
      this.floor = Math.max(this.floor, this.changes[this.head++]!.logged.seq);
    for (const seq of this.pinned.keys()) if (seq <= lowest) (this.pinned.delete(seq), (this.floor = Math.max(this.floor, seq)));
    this.compact();
  }

  /** A restart: the runners start again from the restored states, at this position. */
  clear(position: number): void {
    this.changes = [];
    this.head = 0;
    this.pinned.clear();
    this.folded = position;
    this.floor = position;
  }

  /** Changes held: the window's and the pinned deletions'. */
  get length(): number {
    let pinned = 0;
    for (const changes of this.pinned.values()) pinned += changes.length;
    return this.changes.length - this.head + pinned;
  }
}
