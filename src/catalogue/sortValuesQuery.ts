import type { SelectQuery } from 'sparqljs';
import { CATALOGUE } from '../store/graphNames.js';
import { stringify } from '../store/sparql.js';
import { bgp, graph, n, nxvTerm, optional, str, triple, v } from '../store/sparqlTerms.js';

/**
 * Every (item, head, value) of one payload property over the head revisions of one kind and
 * project: the same OPTIONAL lookup the SPARQL listing sorts on, so a payload sort index starts
 * from exactly the values that listing would see. No value: `?raw` unbound.
 */
export const sortValuesQuery = (kind: string, project: string, predicate: string): string => {
  const item = v('item');
  const head = v('head');
  const id = v('id');
  const query: SelectQuery = {
    type: 'query',
    queryType: 'SELECT',
    prefixes: {},
    variables: [item, head, v('raw')],
    where: [
      graph(n(CATALOGUE), [
        bgp(
          triple(item, nxvTerm('kind'), str(kind)),
          triple(item, nxvTerm('project'), str(project)),
          triple(item, nxvTerm('head'), head),
          triple(item, nxvTerm('id'), id),
        ),
      ]),
      optional([graph(head, [bgp(triple(id, n(predicate), v('raw')))])]),
    ],
  };
  return stringify(query);
};
