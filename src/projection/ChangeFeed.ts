import type { Change } from './Projection.js';

/**
 * The changes the states' fold made, in log order, kept until every runner reading them has
 * applied them. The fold pushes; each runner reads from its own position at its own pace.
 */
export class ChangeFeed {
  private changes: Change[] = [];
  private folded = 0;
  private readonly listeners = new Set<() => void>();
  private readonly readers = new Set<() => number>();

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
    for (const listener of this.listeners) listener();
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
   * the middle of them would pass the rest.
   */
  after(position: number, limit: number): readonly Change[] {
    let low = 0;
    let high = this.changes.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (this.changes[mid]!.logged.seq <= position) low = mid + 1;
      else high = mid;
    }
    let end = Math.min(low + limit, this.changes.length);
    while (end > low && end < this.changes.length && this.changes[end]!.logged.seq === this.changes[end - 1]!.logged.seq) end++;
    return this.changes.slice(low, end);
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

  /** Releases what every reader has applied (called by readers as they advance). */
  release(): void {
    let lowest = Infinity;
    for (const position of this.readers) lowest = Math.min(lowest, position());
    let drop = 0;
    while (drop < this.changes.length && this.changes[drop]!.logged.seq <= lowest) drop++;
    if (drop) this.changes = this.changes.slice(drop);
  }

  /** A restart: the runners start again from the restored states, at this position. */
  clear(position: number): void {
    this.changes = [];
    this.folded = position;
  }

  get length(): number {
    return this.changes.length;
  }
}
