import type { Config } from '../config/Config.js';
import { heldEntries } from '../catalogue/CatalogueQueries.js';
import type { EventLog } from '../events/EventLog.js';
import { Metrics } from '../http/metrics.js';
import type { Executor } from '../workers/Executor.js';
import { WorkerPool } from '../workers/WorkerPool.js';
import type { CpuOperations } from './cpuOperations.js';
import type { TripleStore } from './openTripleStore.js';
import type { Projections } from './projections.js';

/** The registry's metrics; their sources are read at each scrape, from the parts `parts` returns once they are built. */
export const registryMetrics = (
  config: Config,
  parts: () => { log: EventLog; store: TripleStore; executor: Executor<CpuOperations>; projections: Projections },
): Metrics =>
  new Metrics({
    logHead: () => parts().log.lastSeq(),
    projected: () => parts().projections.projector.position,
    // Unknown (NaN) while the store's count fails: the other metrics still answer.
    storeQuads: () =>
      parts()
        .store.quads()
        .catch(() => Number.NaN),
    // MAX_STORE_QUADS caps the embedded store only: an external server is sized by its operators.
    maxStoreQuads: config.sparqlStore ? undefined : config.maxStoreQuads,
    openStreams: () => parts().projections.streams.openStreams,
    workerQueue: () => {
      const { executor } = parts();
      return executor instanceof WorkerPool ? executor.queued : 0;
    },
    heldChanges: () => parts().projections.feed.length,
    quarantined: () => parts().projections.projector.quarantined,
    projections: () => parts().projections.statuses(),
    readModels: () => [...heldEntries(parts().projections.catalogueMemory, parts().projections.listingCache), ...parts().projections.heldStates()],
  });
