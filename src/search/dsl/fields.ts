import { globMatcher } from './glob.js';
import type { JsonObject } from '../../kernel/json.js';
import { words } from '../../kernel/analyzer.js';

/** A search document: the resource as a fetch returns it, its `@id` and its project. */
export interface SearchDoc {
  id: string;
  project: string;
  source: JsonObject;
}

export type Leaf = string | number | boolean;

export interface TermFrequencies {
  tf: ReadonlyMap<string, number>;
  length: number;
}

/** Elasticsearch's dynamic mapping of one value: strings are text (with a keyword sub-field) unless they read as dates. */
export type FieldType = 'text' | 'keyword' | 'long' | 'double' | 'boolean' | 'date';

/** `strict_date_optional_time`, as date detection recognises it. */
const DATE = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;

export const isDate = (value: string): boolean => DATE.test(value) && !Number.isNaN(Date.parse(value));

export const typeOf = (value: Leaf): FieldType =>
  typeof value === 'number' ? (Number.isInteger(value) ? 'long' : 'double') : typeof value === 'boolean' ? 'boolean' : isDate(value) ? 'date' : 'text';

/** A date's instant in epoch milliseconds (what Elasticsearch keeps and sorts by). */
export const epochMillis = (value: string): number => Date.parse(/[zZ]|[+-]\d{2}:?\d{2}$/.test(value) || !value.includes('T') ? value : `${value}Z`);

/**
 * Reads a field of a document: dotted paths go through objects and arrays alike (arrays are
 * multi-valued fields), `x.keyword` is the keyword sub-field of the text values of `x`, `_id` is the
 * document's `@id`. Nothing is kept: what a search reads of every document is kept as columns (DocSet).
 */
export class FieldReader {
  /** How often each word occurs in the path's text values, and how many words they hold (BM25's tf and field length). */
  termFrequencies(doc: SearchDoc, path: string): TermFrequencies {
    const tf = new Map<string, number>();
    let length = 0;
    for (const value of this.words(doc, path)) for (const w of value) (length++, tf.set(w, (tf.get(w) ?? 0) + 1));
    return { tf, length };
  }

  /** Every leaf value of the path; for `.keyword`, the text values as whole strings. */
  values(doc: SearchDoc, path: string): Leaf[] {
    if (path === '_id') return [doc.id];
    if (path.endsWith('.keyword')) return leavesAt(doc.source, path.slice(0, -'.keyword'.length)).filter((v) => typeOf(v) === 'text');
    return leavesAt(doc.source, path);
  }

  /** How the path's values are mapped: `.keyword` and `_id` are keywords, others by each value. */
  static typeOfPath(path: string, value: Leaf): FieldType {
    return path === '_id' || path.endsWith('.keyword') ? 'keyword' : typeOf(value);
  }

  /** The words of each text value of the path (one list per value: phrases never cross values). */
  words(doc: SearchDoc, path: string): string[][] {
    return this.values(doc, path)
      .filter((v) => FieldReader.typeOfPath(path, v) === 'text')
      .map((v) => words(String(v)));
  }
}

/** Pushes the leaf values of a value: itself, or those of an array's items (objects hold none at this path). */
const pushLeaves = (value: unknown, out: Leaf[]): void => {
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') out.push(value);
  else if (Array.isArray(value)) for (const v of value) pushLeaves(v, out);
};

const leavesAt = (source: JsonObject, path: string): Leaf[] => {
  const out: Leaf[] = [];
  // A top-level field, the common case, read without splitting the path.
  if (!path.includes('.')) {
    if (Object.hasOwn(source, path)) pushLeaves(source[path], out);
    return out;
  }
  const walk = (value: unknown, rest: string) => {
    if (value === null || value === undefined) return;
    if (Array.isArray(value)) {
      for (const v of value) walk(v, rest);
      return;
    }
    if (rest === '') {
      if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') out.push(value);
      return;
    }
    if (typeof value !== 'object') return;
    const obj = value as JsonObject;
    // A key may itself hold dots (`a.b` as one key): try the longest key first.
    const parts = rest.split('.');
    for (let i = parts.length; i >= 1; i--) {
      const key = parts.slice(0, i).join('.');
      if (key in obj) walk(obj[key], parts.slice(i).join('.'));
    }
  };
  walk(source, path);
  return out;
};

/** A field pattern (`name`, `name*`, `*`, `a.*.c`) as a test of paths. */
export const fieldPattern = (pattern: string): ((path: string) => boolean) => {
  if (!pattern.includes('*')) return (path) => path === pattern;
  return globMatcher(pattern);
};
