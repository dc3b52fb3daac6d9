import type { JsonObject } from '../../kernel/json.js';
import type { ProjectRef } from '../../kernel/labels.js';
import { integer, iri, literal, quad, XSD } from '../../rdf/terms.js';
import { words } from '../../kernel/analyzer.js';
import { epochMillis, typeOf } from '../dsl/fields.js';

/**
 * How the search API's documents lie in the external store, one graph per project
 * (`urn:registry:search/{org}/{project}`), each document (the current, non-deprecated resource as the
 * search API matches it: its payload as written with the `_` metadata) as the subject of:
 * - `search:id` its `@id`, `search:source` its JSON text (what a hit shows when no fetch replaces it);
 * - for each leaf value at a dotted path `p` (arrays are several values, objects are walked into;
 *   `@context` is not searched), `search:v/{p}` the value as written: strings as plain literals
 *   (the `.keyword` sub-field of Elasticsearch's dynamic mapping), whole numbers as `xsd:integer`
 *   and others as `xsd:double` (Virtuoso answers doubles with six significant digits), booleans as
 *   `xsd:boolean`;
 * - for a string that is an ISO date (Elasticsearch's date detection), `search:d/{p}` its instant in
 *   epoch milliseconds (`xsd:integer`), what ranges and date sorts compare;
 * - for any other string, `search:w/{p}` each distinct word of it (the analyzer's words, lower-cased):
 *   the text index, one triple per distinct word (a word-triple model in standard SPARQL, so any
 *   SPARQL 1.1 server serves; no vendor's free-text index).
 * `{p}` is the path percent-encoded as one IRI segment.
 *
 * What each is read by (translateSearch.ts, StoreSearchEngine.ts), none written for nothing:
 * `search:id` every query (a document's `_id`, `ids`, the tie-break order); `search:source` a hit's
 * `_source` and an aggregate view's member read whole; `search:v` `term`/`terms` on `.keyword` and
 * on numbers and booleans, `range`, `exists`, `prefix` on `.keyword`, sorts and aggregations;
 * `search:d` date terms, ranges, sorts and `min`/`max`; `search:w` `match`, `term` and `prefix` on
 * a text field and the idf weights of scoring (~94 of a 25-property resource's ~134 triples: the
 * next to replace by the store's text index, as listings' words were, textGraph.ts).
 */
export const SEARCH_PREFIX = 'urn:registry:search';
export const searchGraphOf = (project: ProjectRef): string => `${SEARCH_PREFIX}/${project}`;
export const ID = `${SEARCH_PREFIX}:id`;
export const SOURCE = `${SEARCH_PREFIX}:source`;
export const valueOf = (path: string): string => `${SEARCH_PREFIX}:v/${encodeURIComponent(path)}`;
export const dateOf = (path: string): string => `${SEARCH_PREFIX}:d/${encodeURIComponent(path)}`;
export const wordsOf = (path: string): string => `${SEARCH_PREFIX}:w/${encodeURIComponent(path)}`;

const DOUBLE = `${XSD}double`;

/** A document's triples as N-Triples text (see above). */
export const documentTriples = (node: string, doc: JsonObject): string => {
  const s = iri(node);
  const out: string[] = [quad(s, iri(ID), literal(String(doc['@id'])), ''), quad(s, iri(SOURCE), literal(JSON.stringify(doc)), '')];
  const seen = new Set<string>();
  const add = (p: string, o: string) => {
    const line = quad(s, iri(p), o, '');
    if (!seen.has(line)) (seen.add(line), out.push(line));
  };
  const walk = (value: unknown, path: string): void => {
    if (value === null || value === undefined) return;
    if (Array.isArray(value)) for (const v of value) walk(v, path);
    else if (typeof value === 'object') {
      for (const [k, v] of Object.entries(value)) if (k !== '@context') walk(v, path ? `${path}.${k}` : k);
    } else if (typeof value === 'number') add(valueOf(path), Number.isSafeInteger(value) ? integer(value) : literal(String(value), DOUBLE));
    else if (typeof value === 'boolean') add(valueOf(path), literal(String(value), `${XSD}boolean`));
    else {
      const text = String(value);
      add(valueOf(path), literal(text));
      if (typeOf(text) === 'date') add(dateOf(path), integer(epochMillis(text)));
      else for (const word of new Set(words(text))) add(wordsOf(path), literal(word));
    }
  };
  walk(doc, '');
  return out.join('');
};
