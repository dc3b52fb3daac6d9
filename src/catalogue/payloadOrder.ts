import type { Expression, VariableTerm } from 'sparqljs';
import type { Binding } from '../store/GraphStore.js';
import { int, op, str } from '../store/sparqlTerms.js';
import { XSD } from '../rdf/terms.js';

/**
 * Language-tagged strings the stores order apart from the rest and differently: Virtuoso 7 puts
 * them after the plain strings, grouped by an internal language number, and `<` between two of them
 * is false both ways; Oxigraph orders them by (text, tag) but `<` between different tags is an
 * error. A cursor on one then skipped or repeated rows. The listing orders a tagged string by its
 * text as a plain string, then by its tag (none first): both stores order and compare those alike.
 * Only LANG and STR: DATATYPE() per row made Virtuoso's page 3-5 times slower (see the commit).
 */

/** An N-Triples language tag (the stores write them lower-cased). */
export const LANGUAGE_TAG = /^[a-zA-Z]+(-[a-zA-Z0-9]+)*$/;

/**
 * The tie key of a value: its language tag, "" without one, unbound for an IRI. Not made "" for an
 * IRI with COALESCE: Virtuoso 7 then ordered the rows a cursor FILTER kept by no key at all.
 */
export const tieKey = (s: VariableTerm): Expression => op('lang', s);

/** The first key of a value: itself, or the text of a tagged string. */
export const orderKey = (s: VariableTerm): Expression => op('if', op('=', op('strlen', op('coalesce', op('lang', s), str(''))), int(0)), s, op('str', s));

/** A cursor value's tie key, as `tieKey` computes it for the row it came from. */
export const cursorTie = (b: Binding): string => (b.type === 'literal' && b['xml:lang'] ? b['xml:lang'].toLowerCase() : '');

/** A cursor value's first key: the plain string of a tagged string's text. */
export const cursorKey = (b: Binding): Binding => (cursorTie(b) ? { type: 'literal', value: b.value } : b);

/**
 * The datatype a cursor value is compared under by its text: `xsd:string` for a plain string (see
 * `stringComparison`), or a datatype outside XML Schema, which the stores order by text within it
 * but cannot compare with `<` (Oxigraph: an error, so a walk stopped at the first such cursor).
 * Values of different kinds in one field (strings, numbers, such literals) are not ordered alike.
 */
export const textDatatype = (b: Binding): string | undefined => {
  if (b.type !== 'literal' || b['xml:lang'] !== undefined) return undefined;
  if (b.datatype === undefined || b.datatype === `${XSD}string`) return `${XSD}string`;
  return b.datatype.startsWith(XSD) ? undefined : b.datatype;
};
