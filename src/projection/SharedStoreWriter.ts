import type { Addresses } from '../kernel/Addresses.js';
import type { Log } from '../kernel/Log.js';
import type { SharedViewGraphs } from '../store/SharedViewGraphs.js';
import type { Change } from './Projection.js';
import type { ProjectItemStates } from './ProjectItemStates.js';
import type { States } from './States.js';

/**
 * A capability's part of what the shared store's single writer writes (views' graphs), after the
 * core's part of each batch, under the same lease.
 */
export interface SharedStoreWriter {
  /** A batch under the lease, in log order; false when it stopped before the end (`proceed()` no longer held). */
  write(changes: readonly Change[], proceed: () => boolean): Promise<boolean>;
  /** Keeps up even while nothing is written (a holder that took over), every `millis` while `holding()`. */
  every(millis: number, holding: () => boolean, proceed: () => boolean): void;
  stop(): Promise<void>;
}

/** What a capability's shared-store writer is made with: the store's graphs, the states, the lease. */
export interface SharedStoreWriterDeps {
  store: SharedViewGraphs;
  states: States;
  /** A project's items over every kind, the shared ones read where the log keeps them. */
  items: ProjectItemStates;
  addresses: Addresses;
  /** The epoch of the store's lease while this replica holds it (undefined: it does not). */
  epoch: () => number | undefined;
  /**
   * Extends the lease (false: it was lost). A build outlasts a lease (the store's runner renews it
   * between batches only): renewed before each run of members, else a large view's build would end
   * with every holder's lease, and begin again with the next.
   */
  renew: () => Promise<boolean>;
  log: Log;
}
