import { join } from 'node:path';
import type { Config } from '../config/Config.js';
import type { GraphStore } from '../store/GraphStore.js';
import { OxigraphGraphStore } from '../store/OxigraphGraphStore.js';
import type { ProjectSparqlStore } from '../store/ProjectSparqlStore.js';
import { RemoteGraphStore } from '../store/RemoteGraphStore.js';
import { RemoteProjectSparqlStore } from '../store/RemoteProjectSparqlStore.js';
import { SparqlHttpClient } from '../store/SparqlHttpClient.js';
import { SparqlReplica } from '../store/SparqlReplica.js';
import { refreshedCount } from '../store/refreshedCount.js';

export interface TripleStore {
  graphStore: GraphStore;
  /** The SPARQL endpoint's per-project datasets. */
  datasets: ProjectSparqlStore;
  /** The store's quads as reports give them (`/metrics`, `/v1/version`). */
  quads: () => Promise<number>;
  /** `embedded` or `external`, as `/v1/version` and the logs say. */
  name: 'embedded' | 'external';
  /** The external store, shared by every replica: the position projected into it, recorded in it. */
  recorded?: { get(): Promise<number | undefined>; set(position: number): Promise<void> };
}

/**
 * How old the external store's size in reports may be: counting it scans the whole server. The
 * capacity guard counts on its own (`maxQuads`), exactly.
 */
const QUADS_MAX_AGE_MILLIS = 60_000;

/** Bound of one write or internal query to the external server, in ms. */
const STORE_REQUEST_MILLIS = 30_000;

/**
 * The triple store the configuration names: an external SPARQL 1.1 server when `SPARQL_ENDPOINT` is
 * set (nothing of the store then lives in the process or the data directory), else the embedded
 * Oxigraph with its revision file under the data directory and the SPARQL endpoint's query worker.
 */
export const openTripleStore = (config: Config, warn: (line: string) => void): TripleStore => {
  const timeoutMillis = config.sparqlTimeoutMillis ?? 30_000;
  const maxResults = config.sparqlMaxResults ?? 100_000;
  if (config.sparqlStore) {
    const graphStore = new RemoteGraphStore(new SparqlHttpClient(config.sparqlStore, { timeoutMillis: STORE_REQUEST_MILLIS }), {
      graphPrefix: 'urn:registry:',
      markerGraph: 'urn:registry:store',
    });
    // Callers' queries get their own budget and are never retried past it.
    const datasets = new RemoteProjectSparqlStore(new SparqlHttpClient(config.sparqlStore, { timeoutMillis }), {
      timeoutMillis,
      maxResults,
      writesRevisions: false,
    });
    const recorded = { get: () => graphStore.recordedPosition(), set: (position: number) => graphStore.recordPosition(position) };
    return { graphStore, datasets, name: 'external', recorded, quads: refreshedCount(() => graphStore.size(), QUADS_MAX_AGE_MILLIS) };
  }
  const graphStore = new OxigraphGraphStore({ revisionFile: join(config.dataDir, 'projection', 'revisions.nq'), maxQuads: config.maxStoreQuads });
  // The SPARQL endpoint's queries run in a worker holding a replica of every project's dataset,
  // started from the store's revision file.
  const datasets = new SparqlReplica(graphStore.revisionQuads!, {
    timeoutMillis,
    maxResults,
    workers: config.sparqlWorkers ?? 2,
    heapMb: config.sparqlWorkerHeapMb ?? 512,
    idleMillis: config.sparqlWorkerIdleMillis ?? 60_000,
    queryMemoryMb: config.sparqlQueryMemoryMb ?? 1024,
    maxViewQuads: config.sparqlViewMaxQuads ?? 1_000_000,
    log: warn,
  });
  return { graphStore, datasets, name: 'embedded', quads: () => graphStore.size() };
};
