import type { CatalogueProjection } from '../catalogue/CatalogueProjection.js';
import type { RedisEventLog } from '../events/RedisEventLog.js';
import type { JsonLdProcessor } from '../jsonld/JsonLdProcessor.js';
import type { Log } from '../kernel/Log.js';
import type { Addresses } from '../kernel/Addresses.js';
import type { SharedStoreWriter, SharedStoreWriterDeps } from '../projection/SharedStoreWriter.js';
import type { ChangeFeed } from '../projection/ChangeFeed.js';
import { RedisProjectionCheckpoints } from '../projection/RedisProjectionCheckpoints.js';
import { RevisionProjection } from '../projection/RevisionProjection.js';
import { StoreBatchWriter } from './StoreBatchWriter.js';
import { ProjectionRuntime } from '../projection/ProjectionRuntime.js';
import { storeWriter } from '../projection/storeWriter.js';
import type { StorePosition } from '../projection/storeWriter.js';
import type { ProjectItemStates } from '../projection/ProjectItemStates.js';
import type { States } from '../projection/States.js';
import type { storeSearch } from '../search/store/storeSearch.js';
import type { GraphStore } from '../store/GraphStore.js';
import type { ProjectSparqlStore } from '../store/ProjectSparqlStore.js';
import { RemoteProjectSparqlStore } from '../store/RemoteProjectSparqlStore.js';
import { RedisWriterLease, soleWriter } from '../store/StoreLease.js';

export interface StoreWriterDeps {
  leaseMillis: number;
  redis: RedisEventLog | undefined;
  /** Where the store records the position it holds (absent: the embedded store, nothing shared). */
  recorded: StorePosition | undefined;
  graphStore: GraphStore;
  datasets: ProjectSparqlStore;
  jsonld: JsonLdProcessor;
  catalogue: CatalogueProjection;
  searchOnStore: ReturnType<typeof storeSearch> | undefined;
  states: States;
  items: ProjectItemStates;
  addresses: Addresses;
  feed: ChangeFeed;
  log: Log;
  /** The capabilities' parts of what the writer writes (the views' graphs). */
  writers: readonly ((deps: SharedStoreWriterDeps) => SharedStoreWriter)[];
}

/**
 * The shared store's single writer (composition, beside app.ts): exactly one replica, the holder of
 * a lease in Redis (the only one without Redis), writes everything the replicas share in the store,
 * in log order from the position recorded there: each batch's revision graphs, heads and catalogue
 * entries, then its full text (search documents, listings' words), then the user-defined SPARQL
 * views' graphs. The others hear its position through Redis. Undefined with the embedded store.
 */
export const wireStoreWriter = (deps: StoreWriterDeps) => {
  const { recorded, redis, leaseMillis, searchOnStore } = deps;
  if (!recorded) return undefined;
  const lease = redis
    ? new RedisWriterLease(redis.connection, redis.keyOf('store-lease'), { ttlMillis: leaseMillis, marginMillis: Math.round(leaseMillis / 5) })
    : soleWriter();
  const batches = new StoreBatchWriter(deps.graphStore, deps.datasets, new RevisionProjection(deps.graphStore, deps.jsonld), deps.catalogue);
  const { datasets } = deps;
  const writers =
    datasets instanceof RemoteProjectSparqlStore
      ? deps.writers.map((made) =>
          made({
            store: datasets,
            states: deps.states,
            items: deps.items,
            addresses: deps.addresses,
            epoch: () => lease.epoch,
            renew: () => lease.renew(),
            log: deps.log,
          }),
        )
      : [];
  const strategy = storeWriter(
    lease,
    recorded,
    async (changes, proceed) => {
      // The batch's graphs, heads and catalogue entries, and its full text, touch different graphs:
      // written side by side (the store works on one while the other's request is built and sent;
      // the writer waited on each in turn). Both are settled before anything is retried or split.
      const [core, text] = await Promise.allSettled([batches.write(changes, proceed), searchOnStore ? searchOnStore.writeBatch(changes, proceed) : true]);
      for (const settled of [core, text]) if (settled.status === 'rejected') throw settled.reason;
      if (!(core as PromiseFulfilledResult<boolean>).value || !(text as PromiseFulfilledResult<boolean>).value) return false;
      for (const writer of writers) if (!(await writer.write(changes, proceed))) return false;
      return true;
    },
    {
      renewMillis: Math.round(leaseMillis / 4),
      // The others hear the holder's position in Redis as it is recorded; reading it again is a backstop.
      pollMillis: 250,
      batch: 100,
      ...(redis
        ? {
            announce: {
              checkpoints: new RedisProjectionCheckpoints(redis.connection, redis.keyOf('checkpoints')),
              as: () => `store:${deps.graphStore.checkpoint(false)}`,
            },
          }
        : {}),
    },
  );
  const runner = new ProjectionRuntime('store', deps.feed, strategy, deps.log);
  // A holder that took over sweeps what a dead one left of the views' graphs even while nothing is written.
  for (const writer of writers)
    writer.every(
      Math.round(leaseMillis / 4),
      () => strategy.holder,
      () => lease.valid(),
    );
  return { runner, writers };
};
