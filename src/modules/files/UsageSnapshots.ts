import type { UsageSnapshot } from './files/UsageAccounts.js';

/**
 * Where the storages' accounts are kept between starts, so a start reads only the log after them:
 * beside the log (Redis, shared by every replica: one on an empty data directory starts from it) or
 * in the data directory (embedded).
 */
export interface UsageSnapshots {
  /**
   * The furthest snapshot kept, or undefined when there is none that can be trusted. `folded`: how
   * far this process's fold of the log reached at start; a snapshot of this process's own log ahead
   * of it describes events the log no longer has.
   */
  load(folded: number): Promise<UsageSnapshot | undefined>;
  /** Keeps the snapshot unless one as far or further is kept. */
  save(snapshot: UsageSnapshot): Promise<void>;
}
