import { words } from '../analyzer.js';
import { searchRejections } from '../searchRejections.js';
import type { Leaf } from './fields.js';
import { globMatcher } from './glob.js';
import { epochMillis, FieldReader, fieldPattern, isDate } from './fields.js';
import { parseQueryString } from './queryString.js';
import { boostOf, checkParams, fieldList, isObject, minimumShouldMatch, onField, operatorOf, scalar, single } from './queryParams.js';
import type { FieldList } from './queryParams.js';
import { DocSet, postingsOf } from './DocSet.js';
import type { TextColumn } from './DocSet.js';
import type { QsNode } from './queryString.js';
import type { Scores } from './Scores.js';
import { noMatches } from './Scores.js';

/**
 * A compiled query: the scores of every document of the set (NaN: no match), computed a whole
 * field at a time. Documents already out in `within` (NaN there) need not be evaluated: a caller
 * never reads their entry.
 */
export type Query = (within?: Scores) => Scores;

const unsupported = searchRejections.unsupportedConstruct;
const malformed = searchRejections.malformedSearchQuery;

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

export interface Context {
  set: DocSet;
  /** Clauses compiled so far in this search (Elasticsearch's `indices.query.bool.max_clause_count`). */
  clauses?: { count: number };
  /** Throws once the search is over its time budget: checked by every clause and every few thousand documents of a scan. */
  inBudget?: () => void;
}

/** Elasticsearch 7's default `indices.query.bool.max_clause_count`: beyond, a query is refused before it runs. */
export const MAX_CLAUSES = 1_024;

const isIn = (within: Scores | undefined, i: number) => within === undefined || within[i] === within[i];

/** The scores of a test run document by document (the documents still in only). */
const perDoc = (ctx: Context, within: Scores | undefined, score: (i: number) => number | undefined): Scores => {
  const out = noMatches(ctx.set.size);
  for (let i = 0; i < out.length; i++) {
    if ((i & 4095) === 4095) ctx.inBudget?.();
    if (!isIn(within, i)) continue;
    const s = score(i);
    if (s !== undefined) out[i] = s;
  }
  return out;
};

const isKeywordPath = (path: string) => path === '_id' || path.endsWith('.keyword');

/** A `match` of analysed words on one field: BM25 over the field's postings; values that are not text match the query as one term. */
const matchScores = (ctx: Context, path: string, text: Leaf, required: (matched: number, of: number) => boolean, within?: Scores): Scores => {
  const set = ctx.set;
  const column = set.text(path, ctx.inBudget);
  const terms = set.distinctWords(String(text));
  // The sums of the words' scores, then NaN where too few words matched.
  const out = new Float64Array(set.size);
  if (terms.length) {
    const count = new Uint32Array(set.size);
    for (const t of terms) {
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
  } else out.fill(NaN);
  return otherValues(ctx, column, path, out, within, (v) => equalsTerm(path, v, text));
};

/** Adds the documents whose values that are not text (keywords, numbers, booleans, dates) pass the test, scored 1. */
const otherValues = (
  ctx: Context,
  column: TextColumn,
  path: string,
  out: Scores,
  within: Scores | undefined,
  test: (v: Leaf) => boolean,
  score = 1,
): Scores => {
  if (!column.hasOther) return out;
  const values = ctx.set.values(path, ctx.inBudget);
  for (let i = 0; i < out.length; i++)
    if (out[i] !== out[i] && isIn(within, i) && values[i]!.some((v) => FieldReader.typeOfPath(path, v) !== 'text' && test(v))) out[i] = score;
  return out;
};

/** The words as a phrase inside one text value of the field: the documents holding every word, then the order checked. */
const phraseScores = (ctx: Context, path: string, text: string, prefixLast: boolean, within?: Scores): Scores => {
  const set = ctx.set;
  const out = noMatches(set.size);
  const terms = words(text);
  if (!terms.length) return out;
  const column = set.text(path, ctx.inBudget);
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
    if ((k & 4095) === 4095) ctx.inBudget?.();
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
const wordScores = (ctx: Context, path: string, test: (word: string) => boolean, boost: number): Scores => {
  const out = noMatches(ctx.set.size);
  const column = ctx.set.text(path, ctx.inBudget);
  let k = 0;
  for (const [word, row] of column.terms) {
    if ((++k & 4095) === 0) ctx.inBudget?.();
    if (test(word)) for (let at = column.offsets[row]!; at < column.offsets[row + 1]!; at++) out[column.docs[at]!] = boost;
  }
  return out;
};

/** Tests of the words of a text field against a pattern (`prefix`, `wildcard`), or of whole keyword values. */
const patternQuery = (ctx: Context, path: string, test: (s: string) => boolean, boost: number): Query => {
  if (!isKeywordPath(path)) return () => wordScores(ctx, path, test, boost);
  return (within) => {
    const values = ctx.set.values(path, ctx.inBudget);
    return perDoc(ctx, within, (i) => (values[i]!.some((v) => test(String(v))) ? boost : undefined));
  };
};

/** The paths of the set a field list names, each with its boost (a pattern names every path of the set it matches). */
const pathsOf = (ctx: Context, fields: FieldList): { path: string; boost: number }[] =>
  fields.flatMap((f) =>
    f.exact !== undefined
      ? [{ path: f.exact, boost: f.boost }]
      : ctx.set.fieldPaths(ctx.inBudget).flatMap((path) => (f.test(path) ? [{ path, boost: f.boost }] : [])),
  );

/** A query over several fields: per document, the best field's score plus `tie` times the others' (`most_fields`: their sum). */
const acrossFields = (
  ctx: Context,
  fields: FieldList,
  within: Scores | undefined,
  one: (path: string) => Scores,
  combine: { sum: true } | { tie: number },
): Scores => {
  const n = ctx.set.size;
  const best = noMatches(n);
  const sum = new Float64Array(n);
  for (const { path, boost } of pathsOf(ctx, fields)) {
    ctx.inBudget?.();
    const s = one(path);
    for (let i = 0; i < n; i++) {
      const v = s[i]! * boost;
      if (v !== v || !isIn(within, i)) continue;
      sum[i] += v;
      if (!(best[i]! >= v)) best[i] = v;
    }
  }
  for (let i = 0; i < n; i++) if (best[i] === best[i]) best[i] = 'sum' in combine ? sum[i]! : best[i]! + combine.tie * (sum[i]! - best[i]!);
  return best;
};

const scaled = (scores: Scores, boost: number): Scores => {
  if (boost !== 1) for (let i = 0; i < scores.length; i++) scores[i]! *= boost;
  return scores;
};

/** Which documents are still in before the clauses of a `bool`: all (score 0), or those of the enclosing query. */
const startFrom = (size: number, within: Scores | undefined): Scores => {
  const acc = new Float64Array(size);
  if (within) for (let i = 0; i < size; i++) if (within[i] !== within[i]) acc[i] = NaN;
  return acc;
};

/** Adds each required clause's score (a miss is NaN, which stays), evaluating each only where the document is still in. */
const must = (acc: Scores, clauses: Query[]) => {
  for (const q of clauses) {
    const s = q(acc);
    for (let i = 0; i < acc.length; i++) acc[i]! += s[i]!;
  }
};

/** Removes the documents a clause does not match, without adding its score. */
const filter = (acc: Scores, clauses: Query[]) => {
  for (const q of clauses) {
    const s = q(acc);
    for (let i = 0; i < acc.length; i++) if (s[i] !== s[i]) acc[i] = NaN;
  }
};

const mustNot = (acc: Scores, clauses: Query[]) => {
  for (const q of clauses) {
    const s = q(acc);
    for (let i = 0; i < acc.length; i++) if (s[i] === s[i]) acc[i] = NaN;
  }
};

/** Adds the score of each optional clause that matches; returns how many matched each document. */
const should = (acc: Scores, clauses: Query[]): Uint16Array => {
  const matched = new Uint16Array(acc.length);
  for (const q of clauses) {
    const s = q(acc);
    for (let i = 0; i < acc.length; i++) if (s[i] === s[i]) (matched[i]++, (acc[i]! += s[i]!));
  }
  return matched;
};

/**
 * The documents holding one of the terms, unanalysed: a text field through its postings (a term is
 * one of its words), keywords compared whole, other values under their mapping.
 */
const termsScores = (ctx: Context, path: string, terms: readonly Leaf[], caseInsensitive: boolean, boost: number, within?: Scores): Scores => {
  const set = ctx.set;
  if (isKeywordPath(path)) {
    const wanted = new Set(terms.map((t) => (caseInsensitive ? String(t).toLowerCase() : String(t))));
    const values = set.values(path, ctx.inBudget);
    return perDoc(ctx, within, (i) => (values[i]!.some((v) => wanted.has(caseInsensitive ? String(v).toLowerCase() : String(v))) ? boost : undefined));
  }
  const column = set.text(path, ctx.inBudget);
  const out = noMatches(set.size);
  for (const t of terms) {
    // Words are lower case: a term holding capitals matches none unless case-insensitive.
    const p = postingsOf(column, caseInsensitive ? String(t).toLowerCase() : String(t));
    if (p) for (let k = p.start; k < p.end; k++) out[column.docs[k]!] = boost;
  }
  return otherValues(ctx, column, path, out, within, (v) => terms.some((t) => equalsTerm(path, v, t, caseInsensitive)), boost);
};

/** Compiles a query of the Elasticsearch query DSL; anything it does not evaluate is refused by name. */
export const compileQuery = (json: unknown, ctx: Context, where = 'query'): Query => {
  if (ctx.clauses && ++ctx.clauses.count > MAX_CLAUSES) throw searchRejections.tooManyClauses(MAX_CLAUSES);
  const [type, body] = single(json, where);
  const set = ctx.set;
  const query = compileType(type, body, ctx, set);
  return (within) => {
    ctx.inBudget?.();
    return query(within);
  };
};

const compileType = (type: string, body: unknown, ctx: Context, set: DocSet): Query => {
  switch (type) {
    case 'match_all': {
      const params = isObject(body) ? body : {};
      checkParams(type, params, []);
      const boost = boostOf(params);
      return () => new Float64Array(set.size).fill(boost);
    }
    case 'match': {
      const [field, params] = onField(type, body, 'query', ['query', 'operator', 'minimum_should_match']);
      const text = scalar(params['query'], `[match] on '${field}'`);
      const operator = operatorOf(params['operator'], '[match]');
      const msm = params['minimum_should_match'];
      const boost = boostOf(params);
      const required = (matched: number, of: number) =>
        operator === 'and' ? matched === of : matched >= Math.max(1, msm === undefined ? 1 : minimumShouldMatch(msm, of));
      return (within) => scaled(matchScores(ctx, field, text, required, within), boost);
    }
    case 'match_phrase': {
      const [field, params] = onField(type, body, 'query', ['query', 'slop']);
      if (params['slop'] !== undefined && params['slop'] !== 0) throw unsupported('match_phrase.slop', 'only slop 0 is supported');
      const text = String(scalar(params['query'], `[match_phrase] on '${field}'`));
      const boost = boostOf(params);
      return (within) => scaled(phraseScores(ctx, field, text, false, within), boost);
    }
    case 'multi_match': {
      if (!isObject(body)) throw malformed('[multi_match] must be an object.');
      checkParams(type, body, ['query', 'fields', 'type', 'operator', 'tie_breaker', 'minimum_should_match']);
      const text = scalar(body['query'], '[multi_match] query');
      const fields = fieldList(body['fields'], '[multi_match]');
      const mode = String(body['type'] ?? 'best_fields');
      if (!['best_fields', 'most_fields', 'phrase', 'phrase_prefix'].includes(mode))
        throw unsupported(`multi_match.type: ${mode}`, 'parameter of [multi_match]');
      const operator = operatorOf(body['operator'], '[multi_match]');
      const msm = body['minimum_should_match'];
      const tie = typeof body['tie_breaker'] === 'number' ? body['tie_breaker'] : 0;
      const boost = boostOf(body);
      const required = (matched: number, of: number) =>
        operator === 'and' ? matched === of : matched >= Math.max(1, msm === undefined ? 1 : minimumShouldMatch(msm, of));
      const one = (within: Scores | undefined) => (path: string) =>
        mode === 'phrase' || mode === 'phrase_prefix'
          ? phraseScores(ctx, path, String(text), mode === 'phrase_prefix', within)
          : matchScores(ctx, path, text, required, within);
      return (within) => scaled(acrossFields(ctx, fields, within, one(within), mode === 'most_fields' ? { sum: true } : { tie }), boost);
    }
    case 'query_string': {
      if (!isObject(body)) throw malformed('[query_string] must be an object.');
      checkParams(type, body, ['query', 'default_field', 'fields', 'default_operator']);
      if (typeof body['query'] !== 'string') throw malformed("[query_string] needs a 'query' string.");
      const fields = fieldList(body['fields'] ?? body['default_field'], '[query_string]');
      const operator = operatorOf(body['default_operator'], '[query_string]');
      const boost = boostOf(body);
      const run = compileQs(parseQueryString(body['query'], operator), ctx, fields);
      return (within) => scaled(run(within), boost);
    }
    case 'term': {
      const [field, params] = onField(type, body, 'value', ['value', 'case_insensitive']);
      const value = scalar(params['value'], `[term] on '${field}'`);
      const ci = params['case_insensitive'] === true;
      const boost = boostOf(params);
      return (within) => termsScores(ctx, field, [value], ci, boost, within);
    }
    case 'terms': {
      if (!isObject(body)) throw malformed('[terms] must be an object naming a field.');
      const entries = Object.entries(body).filter(([k]) => k !== 'boost' && k !== '_name');
      if (entries.length !== 1 || !Array.isArray(entries[0]![1])) throw malformed('[terms] must name one field with an array of values.');
      const [field, list] = entries[0]! as [string, unknown[]];
      const terms = list.map((v) => scalar(v, `[terms] on '${field}'`));
      const boost = boostOf(body);
      return (within) => termsScores(ctx, field, terms, false, boost, within);
    }
    case 'range': {
      if (!isObject(body)) throw malformed('[range] must be an object naming a field.');
      const entries = Object.entries(body);
      if (entries.length !== 1 || !isObject(entries[0]![1])) throw malformed('[range] must name one field with its bounds.');
      const [field, params] = entries[0]! as [string, Record<string, unknown>];
      checkParams(type, params, ['gte', 'gt', 'lte', 'lt', 'format']);
      if (params['format'] !== undefined && !['strict_date_optional_time', 'date_optional_time', 'epoch_millis'].includes(String(params['format'])))
        throw unsupported(`range.format: ${String(params['format'])}`, 'parameter of [range]');
      const bounds = (['gte', 'gt', 'lte', 'lt'] as const).flatMap((op) =>
        params[op] === undefined || params[op] === null ? [] : [[op, scalar(params[op], `[range] ${op}`)] as const],
      );
      const inRange = rangeTest(field, bounds);
      const boost = boostOf(params);
      return (within) => {
        const values = set.values(field, ctx.inBudget);
        return perDoc(ctx, within, (i) => (values[i]!.some(inRange) ? boost : undefined));
      };
    }
    case 'exists': {
      if (!isObject(body) || typeof body['field'] !== 'string') throw malformed("[exists] needs a 'field'.");
      checkParams(type, body, ['field']);
      const field = body['field'];
      const test = fieldPattern(field);
      const boost = boostOf(body);
      // The field itself, the paths a pattern names, and the leaves below an object field.
      const named = (path: string) => path === field || (field.includes('*') && test(path)) || path.startsWith(`${field}.`);
      return (within) => {
        const out = noMatches(set.size);
        const paths = set.fieldPaths(ctx.inBudget).filter(named);
        for (const path of paths.includes(field) ? paths : [field, ...paths]) {
          const values = set.values(path, ctx.inBudget);
          for (let i = 0; i < out.length; i++) if (values[i]!.length && isIn(within, i)) out[i] = boost;
        }
        return out;
      };
    }
    case 'prefix': {
      const [field, params] = onField(type, body, 'value', ['value', 'case_insensitive']);
      const value = String(scalar(params['value'], `[prefix] on '${field}'`));
      const ci = params['case_insensitive'] === true;
      return patternQuery(ctx, field, (s) => (ci ? s.toLowerCase().startsWith(value.toLowerCase()) : s.startsWith(value)), boostOf(params));
    }
    case 'wildcard': {
      const [field, params] = onField(type, body, 'value', ['value', 'wildcard', 'case_insensitive']);
      const value = String(scalar(params['value'] ?? params['wildcard'], `[wildcard] on '${field}'`));
      const matches = globMatcher(value, { single: true, caseInsensitive: params['case_insensitive'] === true });
      return patternQuery(ctx, field, matches, boostOf(params));
    }
    case 'ids': {
      if (!isObject(body) || !Array.isArray(body['values'])) throw malformed("[ids] needs a 'values' array.");
      checkParams(type, body, ['values']);
      const ids = new Set(body['values'].map(String));
      const boost = boostOf(body);
      return (within) => perDoc(ctx, within, (i) => (ids.has(set.docs[i]!.id) ? boost : undefined));
    }
    case 'bool': {
      if (!isObject(body)) throw malformed('[bool] must be an object.');
      checkParams(type, body, ['must', 'should', 'must_not', 'filter', 'minimum_should_match']);
      const list = (key: string) => {
        const v = body[key];
        const items = v === undefined ? [] : Array.isArray(v) ? v : [v];
        return items.map((q, i) => compileQuery(q, ctx, `bool.${key}[${i}]`));
      };
      const required = list('must');
      const filtering = list('filter');
      const optional = list('should');
      const excluded = list('must_not');
      // Elasticsearch: with no must or filter clause, at least one should clause must match.
      const msm =
        body['minimum_should_match'] !== undefined
          ? minimumShouldMatch(body['minimum_should_match'], optional.length)
          : required.length || filtering.length
            ? 0
            : optional.length
              ? 1
              : 0;
      const boost = boostOf(body);
      return (within) => {
        const acc = startFrom(set.size, within);
        must(acc, required);
        filter(acc, filtering);
        mustNot(acc, excluded);
        if (optional.length) {
          const matched = should(acc, optional);
          if (msm > 0) for (let i = 0; i < acc.length; i++) if (matched[i]! < msm) acc[i] = NaN;
        }
        return scaled(acc, boost);
      };
    }
    default:
      throw unsupported(type, 'query type');
  }
};

/** A range's test of one stored value, under the value's mapping (numbers, dates, keywords, or each word of a text). */
const rangeTest = (field: string, bounds: readonly (readonly ['gte' | 'gt' | 'lte' | 'lt', Leaf])[]): ((value: Leaf) => boolean) => {
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

/** A parsed `query_string` as a query over the given fields (the best field's score, as `dis_max`). */
const compileQs = (node: QsNode, ctx: Context, fields: FieldList): Query => {
  const set = ctx.set;
  if (node.kind === 'bool') {
    const required = node.must.map((n) => compileQs(n, ctx, fields));
    const optional = node.should.map((n) => compileQs(n, ctx, fields));
    const excluded = node.mustNot.map((n) => compileQs(n, ctx, fields));
    return (within) => {
      const acc = startFrom(set.size, within);
      must(acc, required);
      mustNot(acc, excluded);
      if (optional.length) {
        const matched = should(acc, optional);
        if (!required.length) for (let i = 0; i < acc.length; i++) if (!matched[i]) acc[i] = NaN;
      }
      return acc;
    };
  }
  const targets = node.field === undefined ? fields : fieldList(node.field, '[query_string]');
  const one = (within: Scores | undefined) => (path: string) =>
    node.kind === 'phrase'
      ? phraseScores(ctx, path, node.text, false, within)
      : node.kind === 'prefix'
        ? wordScores(ctx, path, (w) => w.startsWith(node.text.toLowerCase()), 1)
        : matchScores(ctx, path, node.text, (m) => m >= 1, within);
  return (within) => acrossFields(ctx, targets, within, one(within), { tie: 0 });
};
