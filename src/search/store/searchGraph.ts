import type { JsonObject } from '../../kernel/json.js';
import type { ProjectRef } from '../../kernel/labels.js';
import { integer, iri, literal, quad, XSD } from '../../rdf/terms.js';
import { words } from '../../kernel/analyzer.js';
import { epochMillis, typeOf } from '../dsl/fields.js';
import { INDEXED_WORD } from './textGraph.js';

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
 * a text field and the idf weights of scoring (~94 of a 25-property resource's ~134 triples; with
 * the store's text index, the `search:t` texts below instead: ~22).
 *
 * On a store with a text index (Virtuoso's free-text index, `SPARQL_TEXT_INDEX=virtuoso`), no
 * `search:w/{p}` is written: instead, for each path holding words, one `search:t` literal (indexed by
 * the rule of docker/virtuoso/text-index.sql), the path's tag (`fieldTag`) then each distinct word
 * of its values, one space after each: the index finds a word's candidates, `CONTAINS` of ` {word} `
 * after the tag checks them as the word triples matched (searchText.ts). One predicate for every
 * path because Virtuoso's index rules name their predicates, and the paths are the users'. A
 * document holding a word longer than the index keeps (`INDEXED_WORD`) is marked `search:long`: a
 * prefix may begin it, so it is always a prefix's candidate. (~84–94 word triples of a 25-property
 * resource become ~22 literals and their index entries.)
 */
export const SEARCH_PREFIX = 'urn:registry:search';
export const searchGraphOf = (project: ProjectRef): string => `${SEARCH_PREFIX}/${project}`;
export const ID = `${SEARCH_PREFIX}:id`;
export const SOURCE = `${SEARCH_PREFIX}:source`;
export const TEXT = `${SEARCH_PREFIX}:t`;
export const LONG = `${SEARCH_PREFIX}:long`;
export const valueOf = (path: string): string => `${SEARCH_PREFIX}:v/${encodeURIComponent(path)}`;
export const dateOf = (path: string): string => `${SEARCH_PREFIX}:d/${encodeURIComponent(path)}`;
export const wordsOf = (path: string): string => `${SEARCH_PREFIX}:w/${encodeURIComponent(path)}`;

/**
 * How a `search:t` literal begins: its path's UTF-8 bytes in hex, then a space. Hex, not the path,
 * so that the index does not take a path's names (`name`, `type`) for words of every document
 * holding them; no space in it, so no word's ` {word} ` is found in it.
 */
export const fieldTag = (path: string): string => `${Buffer.from(path, 'utf8').toString('hex')} `;

const DOUBLE = `${XSD}double`;

/** A document's triples as N-Triples text (see above); `indexed`: the store indexes `search:t` (no word triples). */
export const documentTriples = (node: string, doc: JsonObject, indexed = false): string => {
  const s = iri(node);
  const out: string[] = [quad(s, iri(ID), literal(String(doc['@id'])), ''), quad(s, iri(SOURCE), literal(JSON.stringify(doc)), '')];
  const seen = new Set<string>();
  const texts = new Map<string, Set<string>>();
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
      else if (indexed) {
        const held = texts.get(path) ?? new Set<string>();
        for (const word of words(text)) held.add(word);
        if (held.size) texts.set(path, held);
      } else for (const word of new Set(words(text))) add(wordsOf(path), literal(word));
    }
  };
  walk(doc, '');
  for (const [path, held] of texts) out.push(quad(s, iri(TEXT), literal(`${fieldTag(path)}${[...held].map((w) => `${w} `).join('')}`), ''));
  if ([...texts.values()].some((held) => [...held].some((w) => w.length > INDEXED_WORD))) out.push(quad(s, iri(LONG), literal('1'), ''));
  return out.join('');
};
