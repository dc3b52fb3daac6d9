import type { DocSet } from './DocSet.js';

/** What the queries and aggregations of one search share. */
export interface Context {
  set: DocSet;
  /** Clauses compiled so far in this search (Elasticsearch's `indices.query.bool.max_clause_count`). */
  clauses?: { count: number };
  /**
   * Called by every clause and every few thousand documents of a scan: throws once the search is
   * over its time budget, and, once its slice of the event loop is over, resolves at its next turn
   * (a search runs in slices so that other requests are served meanwhile, see CpuTurns).
   */
  checkpoint?: () => Promise<void> | undefined;
}
