import type { ProjectRef } from '../../kernel/labels.js';
import { integer, iri, literal, quad } from '../../rdf/terms.js';
import { words } from '../../kernel/analyzer.js';
import { VALUE_BARRIER } from '../searchDocument.js';

/**
 * How listings' text index (`q`) lies in the external store: one graph per kind and project
 * (`urn:registry:text/{kind}/{org}/{project}`), each listed item (deprecated ones too) the subject of
 * - `text:w` each distinct word of its text (searchDocument.ts's `searchableText`: its `@id` and every
 *   value), the analyzer's words: what finds the candidates of a phrase by its words;
 * - `text:t` the text as the analyzer reads it: each value's words joined by one space, values joined by
 *   ` | ` (no phrase runs from one value into the next), with a space before and after, so that a
 *   phrase whose last word is a prefix is the substring ` w1 w2 w3` and its frequency is counted in SPARQL;
 * - `text:n` its number of words (BM25's document length).
 * Standard SPARQL 1.1 only: any server serves it. On a store with a text index of `text:t` (Virtuoso's
 * free-text index, `SPARQL_TEXT_INDEX=virtuoso`), `text:w` is not written (a resource of ~25
 * properties: 2 triples and a marker at most instead of ~35): the index finds the candidates, and
 * (`text:t` is read by every `q`: the phrase's check and its frequency; `text:n` by BM25.)
 * - `text:long` marks an item holding a word longer than the index keeps (`INDEXED_WORD`: Virtuoso
 *   takes a longer one for a noise word, measured), which a prefix may begin: always a candidate.
 */
const TEXT_PREFIX = 'urn:registry:text';
export const textGraphOf = (kind: string, project: ProjectRef): string => `${TEXT_PREFIX}/${kind}/${project}`;
export const WORD = `${TEXT_PREFIX}:w`;
export const TEXT = `${TEXT_PREFIX}:t`;
export const LENGTH = `${TEXT_PREFIX}:n`;
export const LONG = `${TEXT_PREFIX}:long`;

/** The longest word Virtuoso's free-text index was seen to find (40 found; 120 is a noise word to it). */
export const INDEXED_WORD = 40;

/**
 * Words Virtuoso's free-text index is known to split and find as the analyzer does: Latin letters
 * and digits (accents included), no longer than it keeps. Others are left to the query's check on the text.
 */
const INDEXABLE = /^[0-9a-z\u00c0-\u024f]+$/;
export const indexable = (word: string): boolean => word.length <= INDEXED_WORD && INDEXABLE.test(word);

/** Between two values in `text:t`: no word has it. */
const BARRIER = ' | ';

/** The substring of `text:t` a phrase of words, the last one a prefix, is found by. */
export const phraseText = (ws: readonly string[]): string => ` ${ws.join(' ')}`;

/** An item's triples as N-Triples text, from its searchable text (values joined by VALUE_BARRIER); `indexed`: the store indexes `text:t`. */
export const textTriples = (node: string, body: string, indexed = false): string => {
  const s = iri(node);
  const values = body.split(VALUE_BARRIER).map(words);
  const distinct = new Set(values.flat());
  let out = quad(s, iri(TEXT), literal(` ${values.map((v) => v.join(' ')).join(BARRIER)} `), '');
  out += quad(s, iri(LENGTH), integer(values.reduce((n, v) => n + v.length, 0)), '');
  if (indexed) return [...distinct].some((w) => w.length > INDEXED_WORD) ? out + quad(s, iri(LONG), literal('1'), '') : out;
  for (const word of distinct) out += quad(s, iri(WORD), literal(word), '');
  return out;
};
