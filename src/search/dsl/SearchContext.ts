import type { DocSet } from './DocSet.js';

/** What the queries and aggregations of one search share. */
export interface Context {
  set: DocSet;
  /** Clauses compiled so far in this search (Elasticsearch's `indices.query.bool.max_clause_count`). */
  clauses?: { count: number };
  /** Throws once the search is over its time budget: checked by every clause and every few thousand documents of a scan. */
  inBudget?: () => void;
}
