import { words } from '../../kernel/analyzer.js';
import { searchRejections } from '../searchRejections.js';
import { DocSet, postingsOf } from './DocSet.js';
import type { TextColumn } from './DocSet.js';
import type { Leaf } from './fields.js';
import { epochMillis, FieldReader, isDate } from './fields.js';
import type { FieldList } from './queryParams.js';
import type { Query, Scores } from './Scores.js';
import type { Context } from './SearchContext.js';

/** The scores of the leaf queries, a field at a time: through the field's postings where it has words, its values otherwise. */

const unsupported = searchRejections.unsupportedConstruct;

/** Whether a stored value equals a term (not analyzed), under the value's mapping. */
const equalsTerm = (path: string, value: Leaf, term: Leaf, caseInsensitive = false): boolean => {
  const type = FieldReader.typeOfPath(path, value);
  switch (type) {
    case 'keyword':
      return caseInsensitive ? String(value).toLowerCase() === String(term).toLowerCase() : value === String(term);
    case 'text':
      return words(String(value)).some((w) => (caseInsensitive ? w === String(term).toLowerCase() : w === String(term)));
    case 'long':
    case 'double':
      return typeof term !== 'boolean' && term !== '' && Number(term) === value;
    case 'boolean':
      return (term === true || term === 'true' || term === false || term === 'false') && value === (term === true || term === 'true');
    case 'date':
      return dateBound(term) === epochMillis(String(value));
  }
};

const dateBound = (term: Leaf): number | undefined => {
  if (typeof term === 'number') return term;
  if (typeof term !== 'string') return undefined;
  if (/\bnow\b|\|\|/.test(term)) throw unsupported('date math', `in '${term}'`);
  return isDate(term) ? epochMillis(term) : /^\d{4}$/.test(term) ? Date.UTC(Number(term), 0, 1) : undefined;
};

export const isIn = (within: Scores | undefined, i: number) => within === undefined || within[i] === within[i];

/** The scores of a test run document by document (the documents still in only). */
export const perDoc = async (ctx: Context, within: Scores | undefined, score: (i: number) => number | undefined): Promise<Scores> => {
  const out = ctx.set.scores(NaN);
  for (let i = 0; i < out.length; i++) {
    if ((i & 1023) === 1023) await ctx.checkpoint?.();
    if (!isIn(within, i)) continue;
    const s = score(i);
    if (s !== undefined) out[i] = s;
  }
  return out;
};

const isKeywordPath = (path: string) => path === '_id' || path.endsWith('.keyword');

/** A `match` of analysed words on one field: BM25 over the field's postings; values that are not text match the query as one term. */
export const matchScores = async (
  ctx: Context,
  path: string,
  text: Leaf,
  required: (matched: number, of: number) => boolean,
  within?: Scores,
): Promise<Scores> => {
  const set = ctx.set;
  const column = set.text(path);
  const terms = set.distinctWords(String(text));
  // The sums of the words' scores, then NaN where too few words matched.
  const out = set.scores(0);
  if (terms.length) {
    const count = set.scores(0);
    for (const t of terms) {
      await ctx.checkpoint?.();
      const p = postingsOf(column, t);
      if (!p) continue;
      const idf = set.idf(column, t);
      for (let k = p.start; k < p.end; k++) {
        const i = column.docs[k]!;
        out[i] += DocSet.bm25(idf, column.tf[k]!, column.lengths[i]!, column.average);
        count[i]++;
      }
    }
    for (let i = 0; i < set.size; i++) if (!count[i] || !required(count[i]!, terms.length)) out[i] = NaN;
    set.release(count);
  } else out.fill(NaN);
  return otherValues(ctx, column, path, out, within, (v) => equalsTerm(path, v, text));
};

/** Adds the documents whose values that are not text (keywords, numbers, booleans, dates) pass the test, scored 1. */
const otherValues = async (
  ctx: Context,
  column: TextColumn,
  path: string,
  out: Scores,
  within: Scores | undefined,
  test: (v: Leaf) => boolean,
  score = 1,
): Promise<Scores> => {
  if (!column.hasOther) return out;
  const values = ctx.set.values(path);
  for (let i = 0; i < out.length; i++) {
    if ((i & 1023) === 1023) await ctx.checkpoint?.();
    if (out[i] !== out[i] && isIn(within, i) && values[i]!.some((v) => FieldReader.typeOfPath(path, v) !== 'text' && test(v))) out[i] = score;
  }
  return out;
};

/** The words as a phrase inside one text value of the field: the documents holding every word, then the order checked. */
export const phraseScores = async (ctx: Context, path: string, text: string, prefixLast: boolean, within?: Scores): Promise<Scores> => {
  const set = ctx.set;
  const out = set.scores(NaN);
  const terms = words(text);
  if (!terms.length) return out;
  const column = set.text(path);
  const exact = prefixLast ? terms.slice(0, -1) : terms;
  // The documents holding the rarest of the exact words, or, with none, every document holding the field.
  let candidates: ArrayLike<number>;
  if (exact.length) {
    const lists = exact.map((t) => postingsOf(column, t));
    if (lists.some((l) => l === undefined)) return out;
    const rarest = lists.reduce((a, b) => (b!.end - b!.start < a!.end - a!.start ? b : a))!;
    candidates = column.docs.subarray(rarest.start, rarest.end);
  } else candidates = [...column.lengths.keys()].filter((i) => column.lengths[i]);
  for (let k = 0; k < candidates.length; k++) {
    if ((k & 1023) === 1023) await ctx.checkpoint?.();
    const i = candidates[k]!;
    if (!isIn(within, i)) continue;
    for (const value of set.reader.words(set.docs[i]!, path)) {
      let found: readonly string[] | undefined;
      for (let at = 0; !found && at + terms.length <= value.length; at++)
        if (terms.every((t, j) => (prefixLast && j === terms.length - 1 ? value[at + j]!.startsWith(t) : value[at + j] === t)))
          found = prefixLast ? exact.concat(value[at + terms.length - 1]!) : terms;
      if (found) {
        out[i] = set.bm25(i, path, column, found);
        break;
      }
    }
  }
  return out;
};

/** The documents holding a word of the field's text that passes the test (`prefix`, `wildcard` and query_string prefixes on text). */
export const wordScores = async (ctx: Context, path: string, test: (word: string) => boolean, boost: number): Promise<Scores> => {
  const out = ctx.set.scores(NaN);
  const column = ctx.set.text(path);
  let k = 0;
  for (const [word, row] of column.terms) {
    if ((++k & 1023) === 0) await ctx.checkpoint?.();
    if (test(word)) for (let at = column.offsets[row]!; at < column.offsets[row + 1]!; at++) out[column.docs[at]!] = boost;
  }
  return out;
};

/** Tests of the words of a text field against a pattern (`prefix`, `wildcard`), or of whole keyword values. */
export const patternQuery = (ctx: Context, path: string, test: (s: string) => boolean, boost: number): Query => {
  if (!isKeywordPath(path)) return () => wordScores(ctx, path, test, boost);
  return (within) => {
    const values = ctx.set.values(path);
    return perDoc(ctx, within, (i) => (values[i]!.some((v) => test(String(v))) ? boost : undefined));
  };
};

/** The paths of the set a field list names, each with its boost (a pattern names every path of the set it matches). */
const pathsOf = (ctx: Context, fields: FieldList): { path: string; boost: number }[] =>
  fields.flatMap((f) =>
    f.exact !== undefined ? [{ path: f.exact, boost: f.boost }] : ctx.set.fieldPaths().flatMap((path) => (f.test(path) ? [{ path, boost: f.boost }] : [])),
  );

/** A query over several fields: per document, the best field's score plus `tie` times the others' (`most_fields`: their sum). */
export const acrossFields = async (
  ctx: Context,
  fields: FieldList,
  within: Scores | undefined,
  one: (path: string) => Promise<Scores>,
  combine: { sum: true } | { tie: number },
): Promise<Scores> => {
  const set = ctx.set;
  const n = set.size;
  const best = set.scores(NaN);
  const sum = set.scores(0);
  for (const { path, boost } of pathsOf(ctx, fields)) {
    await ctx.checkpoint?.();
    const s = await one(path);
    for (let i = 0; i < n; i++) {
      const v = s[i]! * boost;
      if (v !== v || !isIn(within, i)) continue;
      sum[i] += v;
      if (!(best[i]! >= v)) best[i] = v;
    }
    set.release(s);
  }
  for (let i = 0; i < n; i++) if (best[i] === best[i]) best[i] = 'sum' in combine ? sum[i]! : best[i]! + combine.tie * (sum[i]! - best[i]!);
  set.release(sum);
  return best;
};

/**
 * The documents holding one of the terms, unanalysed: a text field through its postings (a term is
 * one of its words), keywords compared whole, other values under their mapping.
 */
export const termsScores = async (
  ctx: Context,
  path: string,
  terms: readonly Leaf[],
  caseInsensitive: boolean,
  boost: number,
  within?: Scores,
): Promise<Scores> => {
  const set = ctx.set;
  if (isKeywordPath(path)) {
    const wanted = new Set(terms.map((t) => (caseInsensitive ? String(t).toLowerCase() : String(t))));
    const values = set.values(path);
    return perDoc(ctx, within, (i) => (values[i]!.some((v) => wanted.has(caseInsensitive ? String(v).toLowerCase() : String(v))) ? boost : undefined));
  }
  const column = set.text(path);
  const out = set.scores(NaN);
  for (const t of terms) {
    // Words are lower case: a term holding capitals matches none unless case-insensitive.
    const p = postingsOf(column, caseInsensitive ? String(t).toLowerCase() : String(t));
    if (p) for (let k = p.start; k < p.end; k++) out[column.docs[k]!] = boost;
  }
  return otherValues(ctx, column, path, out, within, (v) => terms.some((t) => equalsTerm(path, v, t, caseInsensitive)), boost);
};

/** A range's test of one stored value, under the value's mapping (numbers, dates, keywords, or each word of a text). */
export const rangeTest = (field: string, bounds: readonly (readonly ['gte' | 'gt' | 'lte' | 'lt', Leaf])[]): ((value: Leaf) => boolean) => {
  const within = (c: number | string, bound: number | string | undefined, op: string) => {
    if (bound === undefined || typeof c !== typeof bound) return false;
    return op === 'gte' ? c >= bound : op === 'gt' ? c > bound : op === 'lte' ? c <= bound : c < bound;
  };
  // Numbers compared with numeric bounds, worked out once: the common case, without allocating per document.
  const numericBounds = bounds.map(([op, b]) => [op, b === '' || typeof b === 'boolean' ? undefined : Number(b)] as const);
  const keywordField = isKeywordPath(field);
  return (value) => {
    if (typeof value === 'number' && !keywordField) {
      for (const [op, bound] of numericBounds) if (!within(value, bound, op)) return false;
      return true;
    }
    const type = FieldReader.typeOfPath(field, value);
    const candidates: (number | string)[] =
      type === 'long' || type === 'double'
        ? [value as number]
        : type === 'date'
          ? [epochMillis(String(value))]
          : type === 'keyword'
            ? [String(value)]
            : type === 'text'
              ? words(String(value))
              : [];
    return candidates.some((c) =>
      bounds.every(([op, b]) => {
        const bound =
          type === 'date' ? dateBound(b) : type === 'long' || type === 'double' ? (b === '' || typeof b === 'boolean' ? undefined : Number(b)) : String(b);
        return within(c, bound, op);
      }),
    );
  };
};
