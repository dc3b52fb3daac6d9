import type { EventLog } from '../../events/EventLog.js';
import { SparqlHttpClient } from '../../store/SparqlHttpClient.js';
import type { SparqlServer } from '../../store/SparqlHttpClient.js';
import type { DocumentOf, StateDocument } from '../TextProjection.js';
import { StoreSearchEngine } from './StoreSearchEngine.js';
import { StoreSearchProjection } from './StoreSearchProjection.js';
import { StoreTextMatcher } from './StoreTextMatcher.js';
import { StoreTextProjection } from './StoreTextProjection.js';

/** What listings' text index covers: the kinds whose words are their payload's, and those whose words are read off their state. */
export interface TextKinds {
  payloadKinds: readonly string[];
  stateDocuments: Readonly<Record<string, StateDocument>>;
}

/**
 * Full text on the external store: the search API (its documents' projection and the engine searching
 * them) and listings' `q` (the text graphs' projection and the matcher), so that no replica keeps a
 * copy of the documents.
 */
export const storeSearch = (server: SparqlServer, documentOf: DocumentOf, log: EventLog, timeoutMillis: number, text: TextKinds) => {
  const writes = new SparqlHttpClient(server, { timeoutMillis: 30_000 });
  // A search's queries are bounded by the search's time budget and not retried past it.
  const reads = new SparqlHttpClient(server, { timeoutMillis, attempts: 1 });
  return {
    projection: new StoreSearchProjection(writes, documentOf, log),
    engine: new StoreSearchEngine(reads),
    textProjection: new StoreTextProjection(writes, text.payloadKinds, text.stateDocuments),
    matcher: new StoreTextMatcher(reads),
  };
};
