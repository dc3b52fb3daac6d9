import type { EventLog } from '../../events/EventLog.js';
import type { Change } from '../../projection/Projection.js';
import { SparqlHttpClient } from '../../store/SparqlHttpClient.js';
import type { SparqlServer } from '../../store/SparqlHttpClient.js';
import type { DocumentOf, StateDocument } from '../TextProjection.js';
import { StoreSearchEngine } from './StoreSearchEngine.js';
import { StoreSearchProjection } from './StoreSearchProjection.js';
import { StoreTextMatcher } from './StoreTextMatcher.js';
import { StoreTextProjection } from './StoreTextProjection.js';
import { itemTriplesWrites, lastOfEach } from './itemTriples.js';
import { SEARCH_PREFIX } from './searchGraph.js';
import type { ItemTriples } from './itemTriples.js';

/**
 * Indexes the texts written since the last call (Virtuoso's procedure, which its SPARQL user may
 * run once granted: docker/virtuoso/text-index.sql).
 */
export const FILL_TEXT_INDEX = 'SELECT (<sql:VT_INC_INDEX_DB_DBA_RDF_OBJ>() AS ?done) WHERE {}';

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
  const indexed = server.textIndex === 'virtuoso';
  const searchIndexed = server.searchTextIndex === 'virtuoso';
  const projection = new StoreSearchProjection(documentOf, log, searchIndexed);
  const textProjection = new StoreTextProjection(text.payloadKinds, text.stateDocuments, indexed);
  return {
    engine: new StoreSearchEngine(reads, searchIndexed),
    textProjection,
    matcher: new StoreTextMatcher(reads, indexed),
    /**
     * The full text of a batch of changes (the store's lease holder), while `proceed()` holds: each
     * item's document and words as the batch leaves them, in a few requests of set-wise operations
     * (itemTriples.ts; one change was two requests of its own, then a sixteenth of one).
     */
    writeBatch: async (changes: readonly Change[], proceed: () => boolean): Promise<boolean> => {
      const items: ItemTriples[] = [];
      for (const change of changes) for (const item of [await projection.itemOf(change), textProjection.itemOf(change)]) if (item) items.push(item);
      // The search documents (most of the full text) by the Graph Store protocol; listings' texts by SPARQL, as before.
      const { updates, posts } = itemTriplesWrites(lastOfEach(items), (graph) => graph.startsWith(SEARCH_PREFIX));
      for (const update of updates) {
        if (!proceed()) return false;
        await writes.update(update);
      }
      for (const { graph, ntriples } of posts) {
        if (!proceed()) return false;
        await writes.addToGraph(graph, ntriples);
      }
      // Virtuoso's free-text index takes new texts in batches (its scheduler's, every few minutes):
      // filled now, before the position that promises them to readers is recorded (listings' texts and
      // the search documents' alike; the posted ones are indexed as the written ones, measured).
      if ((indexed || searchIndexed) && items.some((item) => item.triples !== undefined))
        await writes.query(FILL_TEXT_INDEX, 'application/sparql-results+json');
      return true;
    },
  };
};
