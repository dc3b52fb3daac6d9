import type { Binding } from '../store/GraphStore.js';
import { XSD } from '../rdf/terms.js';

/**
 * A payload sort value as the SPARQL listing orders it (`COALESCE(?raw, "")`, ORDER BY): the empty
 * string (also what a missing value becomes), a plain string, an xsd:integer, an xsd:double, or
 * anything else. Oxigraph orders "" before every number and strings by code point; values of
 * different kinds (string against number, integer against double, dates, IRIs, language-tagged
 * strings: the listing orders those by text then tag, see payloadOrder) it orders in ways an index
 * does not reproduce, so an index holding them declines.
 */
export const SortKind = { Empty: 0, Integer: 1, Double: 2, String: 3, Other: 4, Missing: 5 } as const;
export type SortKind = (typeof SortKind)[keyof typeof SortKind];

export interface SortValue {
  kind: SortKind;
  /** The string, the number, or for `Other` the term's text (only to keep the list totally ordered). */
  key: string | number;
}

const INTEGER = `${XSD}integer`;
const DOUBLE = `${XSD}double`;
const STRING = `${XSD}string`;
const DOUBLE_LEXICAL = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

export const EMPTY: SortValue = { kind: SortKind.Empty, key: '' };

/**
 * An item without the property: last in both directions (as Elasticsearch sorts missing values),
 * and in cursors a literal of this datatype, so a real empty string stays apart from it.
 */
export const MISSING_DATATYPE = 'urn:registry:missing';
export const MISSING: SortValue = { kind: SortKind.Missing, key: '' };

const other = (text: string): SortValue => ({ kind: SortKind.Other, key: text });

/** The sort value of a literal (value, datatype, language), normalised as Oxigraph stores it. */
export const sortValueOf = (value: string, datatype: string | undefined, language: string | undefined): SortValue => {
  if (language) return other(`${value}@${language}`);
  if (datatype === MISSING_DATATYPE) return MISSING;
  if (datatype === undefined || datatype === STRING) return value === '' ? EMPTY : { kind: SortKind.String, key: value };
  if (datatype === INTEGER) {
    // Oxigraph keeps integers as i64 and writes them canonically ("007" → "7"); past 2^53 JS numbers lose digits.
    if (!/^[+-]?\d+$/.test(value)) return other(`${value}^^${datatype}`);
    const n = Number(BigInt(value));
    return Number.isSafeInteger(n) ? { kind: SortKind.Integer, key: n } : other(`${value}^^${datatype}`);
  }
  if (datatype === DOUBLE) {
    const n = value === 'INF' || value === '+INF' ? Infinity : value === '-INF' ? -Infinity : DOUBLE_LEXICAL.test(value) ? Number(value) : NaN;
    return Number.isNaN(n) ? other(`${value}^^${datatype}`) : { kind: SortKind.Double, key: n };
  }
  return other(`${value}^^${datatype}`);
};

/** The sort value of a SPARQL-JSON binding (a cursor, or a row of the fill query). */
export const sortValueOfBinding = (b: Binding | undefined): SortValue =>
  !b ? MISSING : b.type === 'literal' ? sortValueOf(b.value, b.datatype, b['xml:lang']) : other(`${b.type}:${b.value}`);

/** The binding Oxigraph gives for this value in SPARQL-JSON (the cursor's first element). */
export const bindingOf = (s: SortValue): Binding => {
  if (s.kind === SortKind.Missing) return { type: 'literal', value: '', datatype: MISSING_DATATYPE };
  if (s.kind === SortKind.Integer) return { type: 'literal', value: String(s.key), datatype: INTEGER };
  if (s.kind === SortKind.Double) return { type: 'literal', value: doubleText(s.key as number), datatype: DOUBLE };
  return { type: 'literal', value: s.key as string };
};

/** Oxigraph writes doubles as Rust's `Display` does: the shortest round-trip digits, never an exponent. */
export const doubleText = (x: number): string => {
  if (x === Infinity) return 'INF';
  if (x === -Infinity) return '-INF';
  if (x === 0) return Object.is(x, -0) ? '-0' : '0';
  const [mantissa, exponent] = x.toExponential().split('e') as [string, string];
  const negative = mantissa.startsWith('-');
  const digits = mantissa.replace('-', '').replace('.', '');
  const e = Number(exponent);
  const text =
    e >= digits.length - 1
      ? digits + '0'.repeat(e - digits.length + 1)
      : e >= 0
        ? `${digits.slice(0, e + 1)}.${digits.slice(e + 1)}`
        : `0.${'0'.repeat(-e - 1)}${digits}`;
  return negative ? `-${text}` : text;
};

/** Code point order (Oxigraph compares UTF-8 bytes; JS `<` compares UTF-16 units, which differ past U+FFFF). */
export const compareText = (a: string, b: string): number => {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    let x = a.charCodeAt(i);
    let y = b.charCodeAt(i);
    if (x === y) continue;
    // Surrogates (U+D800-DFFF) stand for code points above every BMP unit: lift them over U+E000-FFFF.
    if (x >= 0xd800) x = x >= 0xe000 ? x - 0x800 : x + 0x2000;
    if (y >= 0xd800) y = y >= 0xe000 ? y - 0x800 : y + 0x2000;
    return x - y;
  }
  return a.length - b.length;
};

/** A total order on sort values: by kind first, then within a kind as SPARQL orders it. */
export const compareSortValues = (a: SortValue, b: SortValue): number => {
  if (a.kind !== b.kind) return a.kind - b.kind;
  if (typeof a.key === 'number') {
    const d = a.key - (b.key as number);
    return d < 0 ? -1 : d > 0 ? 1 : 0;
  }
  return compareText(a.key, b.key as string);
};
