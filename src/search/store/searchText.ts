import type sparqljs from 'sparqljs';
import { and, filter, group, n as named, op, or, str as text, triplePattern, union, v as variable } from '../../store/sparqlTerms.js';
import { words } from '../../kernel/analyzer.js';
import { indexable } from './textGraph.js';
import { fieldTag, LONG, TEXT } from './searchGraph.js';

/**
 * The search API's words on a store indexing `search:t` (searchGraph.ts): the patterns finding the
 * documents whose field holds words, as the word triples `search:w/{p}` found them. Virtuoso's
 * free-text index (`bif:contains`, a constant expression only) finds the candidates; `CONTAINS` of
 * ` {word} ` after the field's tag is the check, so the index only narrows: a word it cannot be asked
 * for (not `indexable`) is found by the check alone, reading every text of the searched graphs.
 */

type Pattern = sparqljs.Pattern;
type Expression = sparqljs.Expression;
type Variable = sparqljs.VariableTerm;

/** Virtuoso's free-text predicate (its SPARQL reads the IRI as the built-in function). */
const FREE_TEXT = 'bif:contains';

/** What a word is found by in a field's text: itself between spaces (every word is followed by one, the tag ends with one). */
export const wordNeedle = (word: string): string => ` ${word} `;

/** `value` is one of the analyzer's words: one word, as the analyzer cuts and lower-cases it. */
export const isWord = (value: string): boolean => {
  const found = words(value);
  return found.length === 1 && found[0] === value;
};

/** The characters a word is made of (kernel/analyzer.ts): a prefix holding another begins no word. */
const WORD_CHARACTERS = /^[\p{L}\p{N}\p{M}]*$/u;
export const mayBeginWord = (start: string): boolean => WORD_CHARACTERS.test(start);

/** `t` is the text of `field`, and `condition` holds of it. */
const inField = (t: Variable, field: string, condition: Expression): Expression => op('&&', op('strstarts', t, text(fieldTag(field))), condition);

/**
 * The documents `doc` whose `field` holds any of the words `held` (`every`: all of them), `t` the
 * field's text. The words are the analyzer's (a value that is not one word is no word of any text).
 */
export const holding = (doc: Variable, t: Variable, field: string, held: readonly string[], every: boolean): Pattern[] => {
  const checks = held.map((w) => op('contains', t, text(wordNeedle(w))));
  const asked = held.every(indexable) ? [triplePattern(t, named(FREE_TEXT), text(held.map((w) => `"${w}"`).join(every ? ' AND ' : ' OR ')))] : [];
  return [triplePattern(doc, named(TEXT), t), ...asked, filter(inField(t, field, every ? and(...checks) : or(...checks)))];
};

/**
 * The documents `doc` whose `field` holds a word beginning with `start` (lower-cased), `t` the field's
 * text: the index's candidates by the prefix (Virtuoso wants 4 letters before its wildcard, FT370) and
 * the documents holding a word longer than it keeps, which the prefix may begin.
 */
export const prefixed = (doc: Variable, t: Variable, field: string, start: string, fresh: () => Variable): Pattern[] => {
  const check = filter(inField(t, field, op('contains', t, text(` ${start}`))));
  const textOf = triplePattern(doc, named(TEXT), t);
  if (start.length < 4 || !indexable(start)) return [textOf, check];
  const candidates = union([
    [textOf, triplePattern(t, named(FREE_TEXT), text(`"${start}*"`))],
    [triplePattern(doc, named(LONG), fresh()), textOf],
  ]);
  return [candidates, check];
};

/** `doc`'s text of `field` as `s` (a text field's value, which has none to sort by). */
export const textOfField = (doc: Variable, s: Variable, field: string): Pattern =>
  group([triplePattern(doc, named(TEXT), s), filter(op('strstarts', s, text(fieldTag(field))))]);

/**
 * The scoring of a page: `doc`'s text holding the word of each row of `?sp` (the field's tag) and
 * `?sw` (the word's needle), the rows themselves given by the caller's `VALUES`.
 */
export const holdingRow = (doc: Variable): Pattern[] => {
  const t = variable('st');
  return [triplePattern(doc, named(TEXT), t), filter(op('&&', op('strstarts', t, variable('sp')), op('contains', t, variable('sw'))))];
};
