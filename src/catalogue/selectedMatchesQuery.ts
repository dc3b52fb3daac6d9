import type { SelectQuery } from 'sparqljs';
import { CATALOGUE } from '../store/graphNames.js';
import { stringify } from '../store/sparql.js';
import { graph, n, optional, bgp, rdfType, triple, v } from '../store/sparqlTerms.js';
import type { ListingFilter } from './ListingQuery.js';
import { selection } from './ListingQuery.js';

/**
 * SELECT of the items among `nodes` a listing selects, `?item`, each with its types `?type` (a row
 * per type; unbound for an item without one): the matches of a `q` listing filtered by its other
 * conditions, with what its aggregations count.
 */
export const selectedMatchesQuery = (f: ListingFilter, nodes: readonly string[]): string => {
  const item = v('item');
  return stringify({
    type: 'query',
    queryType: 'SELECT',
    distinct: true,
    prefixes: {},
    variables: [item, v('type')],
    where: [...selection({ ...f, items: [...nodes] }), optional([graph(n(CATALOGUE), [bgp(triple(item, rdfType, v('type')))])])],
  } as SelectQuery);
};
