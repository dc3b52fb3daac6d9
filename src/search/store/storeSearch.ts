import type { EventLog } from '../../events/EventLog.js';
import { SparqlHttpClient } from '../../store/SparqlHttpClient.js';
import type { SparqlServer } from '../../store/SparqlHttpClient.js';
import type { DocumentOf } from '../TextProjection.js';
import { StoreSearchEngine } from './StoreSearchEngine.js';
import { StoreSearchProjection } from './StoreSearchProjection.js';

/** The search API on the external store: the projection writing its documents there and the engine searching them. */
export const storeSearch = (server: SparqlServer, documentOf: DocumentOf, log: EventLog, timeoutMillis: number) => {
  const writes = new SparqlHttpClient(server, { timeoutMillis: 30_000 });
  // A search's queries are bounded by the search's time budget and not retried past it.
  const reads = new SparqlHttpClient(server, { timeoutMillis, attempts: 1 });
  return { projection: new StoreSearchProjection(writes, documentOf, log), engine: new StoreSearchEngine(reads) };
};
