import type { Expression, VariableTerm } from 'sparqljs';
import type { Binding } from '../store/GraphStore.js';
import { XSD } from '../rdf/terms.js';
import { int, n, op, str } from '../store/sparql.js';

/**
 * Datatypes both stores order by value, in ORDER BY and in a cursor FILTER alike (strings by code
 * point, numbers by value, instants in time). Every other literal — language-tagged, or of another
 * datatype (`xsd:date`, a custom one) — the stores order apart from the rest and differently:
 * Virtuoso 7 puts tagged strings after the plain ones, grouped by an internal language number, and
 * `<` between them is false both ways; Oxigraph orders them by (text, datatype, tag) but `<`
 * between tags or unknown datatypes is an error. A cursor on such a value then skipped or repeated
 * rows. The listing orders those by their text as a plain string, then by their tag or datatype.
 */
const NATIVE = [
  'string',
  'boolean',
  'dateTime',
  'integer',
  'decimal',
  'double',
  'float',
  'int',
  'long',
  'short',
  'byte',
  'nonNegativeInteger',
  'positiveInteger',
  'nonPositiveInteger',
  'negativeInteger',
  'unsignedLong',
  'unsignedInt',
  'unsignedShort',
  'unsignedByte',
].map((t) => `${XSD}${t}`);
const NATIVES = new Set(NATIVE);

/** An N-Triples language tag (the stores write them lower-cased). */
export const LANGUAGE_TAG = /^[a-zA-Z]+(-[a-zA-Z0-9]+)*$/;

/**
 * The tie key of a value: "" for a value ordered as it is, `@tag` for a tagged string, the datatype
 * IRI for another literal. Among equal texts: the plain string, tagged ones by tag, then the others
 * by datatype ('@' is below every letter an IRI starts with).
 */
export const tieKey = (s: VariableTerm): Expression =>
  op(
    'coalesce',
    op(
      'if',
      op('!=', op('lang', s), str('')),
      op('concat', str('@'), op('lang', s)),
      op('if', op('in', op('datatype', s), NATIVE.map(n) as unknown as Expression), str(''), op('str', op('datatype', s))),
    ),
    // An IRI (LANG is an error) or no value.
    str(''),
  );

/** The first key of a value: itself, or its text for a value with a tie key. */
export const orderKey = (s: VariableTerm): Expression => op('if', op('=', op('strlen', tieKey(s)), int(0)), s, op('str', s));

/** A cursor value's tie key, as `tieKey` computes it for the row it came from. */
export const cursorTie = (b: Binding): string => {
  if (b.type !== 'literal') return '';
  const language = b['xml:lang'];
  if (language) return `@${language.toLowerCase()}`;
  return b.datatype === undefined || NATIVES.has(b.datatype) ? '' : b.datatype;
};

/** A cursor value's first key: the plain string of its text when it has a tie key. */
export const cursorKey = (b: Binding): Binding => (cursorTie(b) ? { type: 'literal', value: b.value } : b);
