import type { Kind } from './EventLog.js';

/**
 * The latest state of each item, as the log's last event of its key left it: what the write path
 * evaluates commands against and fetches answer from. Embedded, the states folded in process; on
 * Redis, the states written with their events by the append script, read through a bounded cache.
 * Never the judge of `rev`: the log is (a state read here may be overtaken before the append).
 */
export interface ItemStates {
  /** The item's state, or undefined when it has none (never created, or permanently deleted). */
  get<S>(kind: Kind, key: string): Promise<S | undefined>;
  /** Several items' states in one read, at the keys' indexes. */
  getMany<S>(kind: Kind, keys: readonly string[]): Promise<(S | undefined)[]>;
  /**
   * The log keys (`{kind}/{project}/{id}`) of the project's items of this kind that hold a state now,
   * in no order: what a project's deletion prunes and an export or a job walks, without holding every
   * item of the kind.
   */
  keysOf(kind: Kind, project: string): Promise<string[]>;
  /** How many states this process holds in memory now: the cache's size where the states are shared. */
  held(): number;
}
