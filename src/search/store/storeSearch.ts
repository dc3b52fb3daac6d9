import type { EventLog } from '../../events/EventLog.js';
import type { Change } from '../../projection/Projection.js';
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
  const projection = new StoreSearchProjection(writes, documentOf, log);
  const textProjection = new StoreTextProjection(writes, text.payloadKinds, text.stateDocuments);
  return {
    projection,
    engine: new StoreSearchEngine(reads),
    textProjection,
    matcher: new StoreTextMatcher(reads),
    /**
     * The full text of a batch of changes (the store's lease holder): each change's updates in log
     * order, several changes to a request (one was two requests a change), while `proceed()` holds.
     * Each update is idempotent (an item's triples removed, then its current ones inserted).
     */
    writeBatch: async (changes: readonly Change[], proceed: () => boolean): Promise<boolean> => {
      let pending: string[] = [];
      let bytes = 0;
      const flush = async () => {
        if (pending.length) await writes.update(pending.join(' ;\n'));
        pending = [];
        bytes = 0;
      };
      for (const change of changes) {
        for (const update of [await projection.updateOf(change), textProjection.updateOf(change)]) {
          if (update === undefined) continue;
          pending.push(update);
          bytes += update.length;
        }
        if (pending.length >= UPDATES_PER_REQUEST || bytes >= BYTES_PER_REQUEST) {
          if (!proceed()) return false;
          await flush();
        }
      }
      if (!proceed()) return false;
      await flush();
      return true;
    },
  };
};

/**
 * Updates sent in one request: Virtuoso slows down fast with the operations of a request (about a
 * hundred changes' worth took seconds, twice that is refused), so a few changes at a time.
 */
const UPDATES_PER_REQUEST = 16;
const BYTES_PER_REQUEST = 256 * 1024;
