import { context } from '../../kernel/vocabulary.js';
import type { Aggregations } from '../../catalogue/Listings.js';
import type { Page } from '../../catalogue/ResourceQueries.js';

export const LISTING_CONTEXT = [context('metadata'), context('search'), context('search-metadata')];

/** Spec 2.6: `_total`, `_results` (metadata only, no `@context` of their own), `_next`; `_maxScore` with `q`. */
export const listingBody = (total: number, results: Record<string, unknown>[], next?: string, maxScore?: number) => ({
  '@context': LISTING_CONTEXT,
  _total: total,
  ...(maxScore !== undefined ? { _maxScore: maxScore } : {}),
  _results: results.map(({ '@context': _ctx, ...rest }) => rest),
  ...(next ? { _next: next } : {}),
});

/** A listing page rendered item by item; with `q`, each result carries its `_score` and the listing `_maxScore`. */
export const pageBody = <T>(page: Page<T>, render: (item: T) => Record<string, unknown>, next?: string) =>
  listingBody(
    page.total,
    page.items.map((item, i) => ({ ...render(item), ...(page.scores ? { _score: page.scores[i] } : {}) })),
    next,
    page.maxScore,
  );

/** Spec 2.8: `projects` and `types` bucket aggregations and the total. */
export const aggregationsBody = (a: Aggregations) => {
  const terms = (buckets: { key: string; count: number }[]) => ({
    buckets: buckets.map((b) => ({ key: b.key, doc_count: b.count })),
    doc_count_error_upper_bound: 0,
    sum_other_doc_count: 0,
  });
  return {
    '@context': context('aggregations'),
    aggregations: { projects: terms(a.projects), types: terms(a.types) },
    total: a.total,
  };
};
