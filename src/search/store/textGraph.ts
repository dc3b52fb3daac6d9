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
 * Standard SPARQL 1.1 only: any server serves it.
 */
export const TEXT_PREFIX = 'urn:registry:text';
export const textGraphOf = (kind: string, project: ProjectRef): string => `${TEXT_PREFIX}/${kind}/${project}`;
export const WORD = `${TEXT_PREFIX}:w`;
export const TEXT = `${TEXT_PREFIX}:t`;
export const LENGTH = `${TEXT_PREFIX}:n`;

/** Between two values in `text:t`: no word has it. */
const BARRIER = ' | ';

/** The substring of `text:t` a phrase of words, the last one a prefix, is found by. */
export const phraseText = (ws: readonly string[]): string => ` ${ws.join(' ')}`;

/** An item's triples as N-Triples text, from its searchable text (values joined by VALUE_BARRIER). */
export const textTriples = (node: string, body: string): string => {
  const s = iri(node);
  const values = body.split(VALUE_BARRIER).map(words);
  const distinct = new Set(values.flat());
  let out = quad(s, iri(TEXT), literal(` ${values.map((v) => v.join(' ')).join(BARRIER)} `), '');
  out += quad(s, iri(LENGTH), integer(values.reduce((n, v) => n + v.length, 0)), '');
  for (const word of distinct) out += quad(s, iri(WORD), literal(word), '');
  return out;
};
