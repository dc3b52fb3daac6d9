import type { Log } from '../../src/kernel/Log.js';
import type { ChangeFeed } from '../../src/projection/ChangeFeed.js';
import { everyReplica } from '../../src/projection/everyReplica.js';
import type { EveryReplicaOptions } from '../../src/projection/everyReplica.js';
import type { Change } from '../../src/projection/Projection.js';
import { ProjectionRuntime } from '../../src/projection/ProjectionRuntime.js';
import { storeWriter } from '../../src/projection/storeWriter.js';
import type { StorePosition, StoreWriterOptions } from '../../src/projection/storeWriter.js';
import type { WriterLease } from '../../src/store/StoreLease.js';

/** A change of position `seq` (of no kind the registry knows): what a runner is handed, for runners' tests. */
export const change = (seq: number): Change =>
  ({
    definition: { kind: 'orgs' },
    logged: { seq, key: `k${seq}`, kind: 'orgs', rev: 1, event: { type: 'T', instant: '' } },
    previous: undefined,
    next: {},
  }) as never;

/** A runner every replica runs of its own projection, as the registry makes them (`projections`). */
export const everyReplicaRunner = (name: string, step: (change: Change) => Promise<void>, feed: ChangeFeed, options: EveryReplicaOptions & { log: Log }) =>
  new ProjectionRuntime(name, feed, everyReplica(step, options), options.log);

/** The shared store's runner, as the registry makes it (`wireStoreWriter`). */
export const storeWriterRunner = (
  feed: ChangeFeed,
  lease: WriterLease,
  stored: StorePosition,
  write: (changes: readonly Change[], proceed: () => boolean) => Promise<boolean>,
  options: StoreWriterOptions & { log: Log },
) => new ProjectionRuntime('store', feed, storeWriter(lease, stored, write, options), options.log);
