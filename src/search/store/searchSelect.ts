import type { SparqlHttpClient } from '../../store/SparqlHttpClient.js';
import { SparqlRequestFailed } from '../../store/SparqlHttpClient.js';
import { searchRejections } from '../searchRejections.js';

/**
 * A search's SELECT on the store, its bindings as the SPARQL 1.1 JSON results give them. The
 * client's timeout is the search's budget: a query past it is the typed `SearchTimedOut`, as in
 * process, not an unexpected failure.
 */
export const searchSelect = async <Row>(client: SparqlHttpClient, query: string): Promise<Row[]> => {
  try {
    const answer = await client.query(query, 'application/sparql-results+json');
    return (JSON.parse(answer.body) as { results: { bindings: Row[] } }).results.bindings;
  } catch (error) {
    if (error instanceof SparqlRequestFailed && error.timedOut) throw searchRejections.searchTimedOut(client.timeoutMillis);
    throw error;
  }
};
