import { words } from '../analyzer.js';
import { searchRejections } from '../searchRejections.js';
import type { Leaf, SearchDoc } from './fields.js';
import { globMatcher } from './glob.js';
import { epochMillis, FieldReader, fieldPattern, isDate } from './fields.js';
import { parseQueryString } from './queryString.js';
import { boostOf, checkParams, fieldList, isObject, minimumShouldMatch, onField, operatorOf, pathsOf, scalar, single } from './queryParams.js';
import type { FieldList } from './queryParams.js';
import type { Corpus } from './Corpus.js';
import type { QsNode } from './queryString.js';

/** A compiled query: the score of a document it matches, undefined for one it does not. */
export type Query = (doc: SearchDoc) => number | undefined;

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

/** Tests of the words of a text value against a pattern (`prefix`, `wildcard`), or of whole keyword values. */
const patternQuery = (path: string, test: (s: string) => boolean, reader: FieldReader, boost: number): Query => {
  return (doc) => {
    for (const value of reader.values(doc, path)) {
      const type = FieldReader.typeOfPath(path, value);
      if (type === 'text' ? words(String(value)).some(test) : type === 'keyword' && test(String(value))) return boost;
    }
    return undefined;
  };
};

interface Context {
  corpus: Corpus;
  /** Clauses compiled so far in this search (Elasticsearch's `indices.query.bool.max_clause_count`). */
  clauses?: { count: number };
}

/** Elasticsearch 7's default `indices.query.bool.max_clause_count`: beyond, a query is refused before it runs. */
export const MAX_CLAUSES = 1_024;

/** The score of a `match` of analysed words on one field, or undefined. */
const matchField = (ctx: Context, doc: SearchDoc, path: string, text: Leaf, required: (matched: number, of: number) => boolean): number | undefined => {
  const reader = ctx.corpus.reader;
  const terms = ctx.corpus.distinctWords(String(text));
  const frequencies = reader.termFrequencies(doc, path);
  if (frequencies.length && terms.length) {
    let matched = 0;
    for (const t of terms) if (frequencies.tf.has(t)) matched++;
    if (matched && required(matched, terms.length)) return ctx.corpus.bm25Of(frequencies, path, terms);
  }
  const values = reader.values(doc, path);
  if (!values.length) return undefined;
  // Values that are not text (keywords, numbers, booleans, dates) match the query as one term.
  return values.some((v) => FieldReader.typeOfPath(path, v) !== 'text' && equalsTerm(path, v, text)) ? 1 : undefined;
};

/** The score of the words as a phrase inside one text value of the field, or undefined. */
const phraseField = (ctx: Context, doc: SearchDoc, path: string, text: string, prefixLast = false): number | undefined => {
  const terms = words(text);
  if (!terms.length) return undefined;
  for (const value of ctx.corpus.reader.words(doc, path)) {
    for (let i = 0; i + terms.length <= value.length; i++) {
      const hit = terms.every((t, j) => (prefixLast && j === terms.length - 1 ? value[i + j]!.startsWith(t) : value[i + j] === t));
      if (hit) return ctx.corpus.bm25(doc, path, prefixLast ? terms.slice(0, -1).concat(value[i + terms.length - 1]!) : terms);
    }
  }
  return undefined;
};

/** Compiles a query of the Elasticsearch query DSL; anything it does not evaluate is refused by name. */
export const compileQuery = (json: unknown, ctx: Context, where = 'query'): Query => {
  if (ctx.clauses && ++ctx.clauses.count > MAX_CLAUSES) throw searchRejections.tooManyClauses(MAX_CLAUSES);
  const [type, body] = single(json, where);
  const reader = ctx.corpus.reader;
  switch (type) {
    case 'match_all': {
      const params = isObject(body) ? body : {};
      checkParams(type, params, []);
      const boost = boostOf(params);
      return () => boost;
    }
    case 'match': {
      const [field, params] = onField(type, body, 'query', ['query', 'operator', 'minimum_should_match']);
      const text = scalar(params['query'], `[match] on '${field}'`);
      const operator = operatorOf(params['operator'], '[match]');
      const msm = params['minimum_should_match'];
      const boost = boostOf(params);
      const required = (matched: number, of: number) =>
        operator === 'and' ? matched === of : matched >= Math.max(1, msm === undefined ? 1 : minimumShouldMatch(msm, of));
      return (doc) => {
        const s = matchField(ctx, doc, field, text, required);
        return s === undefined ? undefined : s * boost;
      };
    }
    case 'match_phrase': {
      const [field, params] = onField(type, body, 'query', ['query', 'slop']);
      if (params['slop'] !== undefined && params['slop'] !== 0) throw unsupported('match_phrase.slop', 'only slop 0 is supported');
      const text = String(scalar(params['query'], `[match_phrase] on '${field}'`));
      const boost = boostOf(params);
      return (doc) => {
        const s = phraseField(ctx, doc, field, text);
        return s === undefined ? undefined : s * boost;
      };
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
      return (doc) => {
        const scores: number[] = [];
        for (const { path, boost: b } of pathsOf(reader, doc, fields)) {
          const s =
            mode === 'phrase' || mode === 'phrase_prefix'
              ? phraseField(ctx, doc, path, String(text), mode === 'phrase_prefix')
              : matchField(ctx, doc, path, text, required);
          if (s !== undefined) scores.push(s * b);
        }
        if (!scores.length) return undefined;
        const best = Math.max(...scores);
        const total = mode === 'most_fields' ? scores.reduce((a, b) => a + b, 0) : best + tie * (scores.reduce((a, b) => a + b, 0) - best);
        return total * boost;
      };
    }
    case 'query_string': {
      if (!isObject(body)) throw malformed('[query_string] must be an object.');
      checkParams(type, body, ['query', 'default_field', 'fields', 'default_operator']);
      if (typeof body['query'] !== 'string') throw malformed("[query_string] needs a 'query' string.");
      const fields = fieldList(body['fields'] ?? body['default_field'], '[query_string]');
      const operator = operatorOf(body['default_operator'], '[query_string]');
      const boost = boostOf(body);
      const tree = parseQueryString(body['query'], operator);
      const run = compileQs(tree, ctx, fields);
      return (doc) => {
        const s = run(doc);
        return s === undefined ? undefined : s * boost;
      };
    }
    case 'term': {
      const [field, params] = onField(type, body, 'value', ['value', 'case_insensitive']);
      const value = scalar(params['value'], `[term] on '${field}'`);
      const ci = params['case_insensitive'] === true;
      const boost = boostOf(params);
      return (doc) => (reader.values(doc, field).some((v) => equalsTerm(field, v, value, ci)) ? boost : undefined);
    }
    case 'terms': {
      if (!isObject(body)) throw malformed('[terms] must be an object naming a field.');
      const entries = Object.entries(body).filter(([k]) => k !== 'boost' && k !== '_name');
      if (entries.length !== 1 || !Array.isArray(entries[0]![1])) throw malformed('[terms] must name one field with an array of values.');
      const [field, list] = entries[0]! as [string, unknown[]];
      const values = list.map((v) => scalar(v, `[terms] on '${field}'`));
      const boost = boostOf(body);
      return (doc) => (reader.values(doc, field).some((v) => values.some((t) => equalsTerm(field, v, t))) ? boost : undefined);
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
      const boost = boostOf(params);
      const within = (c: number | string, bound: number | string | undefined, op: string) => {
        if (bound === undefined || typeof c !== typeof bound) return false;
        return op === 'gte' ? c >= bound : op === 'gt' ? c > bound : op === 'lte' ? c <= bound : c < bound;
      };
      // Numbers compared with numeric bounds, worked out once: the common case, without allocating per document.
      const numericBounds = bounds.map(([op, b]) => [op, b === '' || typeof b === 'boolean' ? undefined : Number(b)] as const);
      const keywordField = field === '_id' || field.endsWith('.keyword');
      return (doc) => {
        for (const value of reader.values(doc, field)) {
          if (typeof value === 'number' && !keywordField) {
            let ok = true;
            for (const [op, bound] of numericBounds) if (!within(value, bound, op)) ok = false;
            if (ok) return boost;
            continue;
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
          for (const c of candidates) {
            const ok = bounds.every(([op, b]) => {
              const bound =
                type === 'date'
                  ? dateBound(b)
                  : type === 'long' || type === 'double'
                    ? b === '' || typeof b === 'boolean'
                      ? undefined
                      : Number(b)
                    : String(b);
              return within(c, bound, op);
            });
            if (ok) return boost;
          }
        }
        return undefined;
      };
    }
    case 'exists': {
      if (!isObject(body) || typeof body['field'] !== 'string') throw malformed("[exists] needs a 'field'.");
      checkParams(type, body, ['field']);
      const field = body['field'];
      const test = fieldPattern(field);
      const boost = boostOf(body);
      return (doc) =>
        reader.values(doc, field).length > 0 ||
        (field.includes('*') && reader.fieldPaths(doc).some(test)) ||
        reader.fieldPaths(doc).some((p) => p.startsWith(`${field}.`))
          ? boost
          : undefined;
    }
    case 'prefix': {
      const [field, params] = onField(type, body, 'value', ['value', 'case_insensitive']);
      const value = String(scalar(params['value'], `[prefix] on '${field}'`));
      const ci = params['case_insensitive'] === true;
      return patternQuery(field, (s) => (ci ? s.toLowerCase().startsWith(value.toLowerCase()) : s.startsWith(value)), reader, boostOf(params));
    }
    case 'wildcard': {
      const [field, params] = onField(type, body, 'value', ['value', 'wildcard', 'case_insensitive']);
      const value = String(scalar(params['value'] ?? params['wildcard'], `[wildcard] on '${field}'`));
      const matches = globMatcher(value, { single: true, caseInsensitive: params['case_insensitive'] === true });
      return patternQuery(field, matches, reader, boostOf(params));
    }
    case 'ids': {
      if (!isObject(body) || !Array.isArray(body['values'])) throw malformed("[ids] needs a 'values' array.");
      checkParams(type, body, ['values']);
      const ids = new Set(body['values'].map(String));
      const boost = boostOf(body);
      return (doc) => (ids.has(doc.id) ? boost : undefined);
    }
    case 'bool': {
      if (!isObject(body)) throw malformed('[bool] must be an object.');
      checkParams(type, body, ['must', 'should', 'must_not', 'filter', 'minimum_should_match']);
      const list = (key: string) => {
        const v = body[key];
        const items = v === undefined ? [] : Array.isArray(v) ? v : [v];
        return items.map((q, i) => compileQuery(q, ctx, `bool.${key}[${i}]`));
      };
      const must = list('must');
      const filter = list('filter');
      const should = list('should');
      const mustNot = list('must_not');
      // Elasticsearch: with no must or filter clause, at least one should clause must match.
      const msm =
        body['minimum_should_match'] !== undefined
          ? minimumShouldMatch(body['minimum_should_match'], should.length)
          : must.length || filter.length
            ? 0
            : should.length
              ? 1
              : 0;
      const boost = boostOf(body);
      return (doc) => {
        let score = 0;
        for (const q of must) {
          const s = q(doc);
          if (s === undefined) return undefined;
          score += s;
        }
        for (const q of filter) if (q(doc) === undefined) return undefined;
        for (const q of mustNot) if (q(doc) !== undefined) return undefined;
        let matched = 0;
        for (const q of should) {
          const s = q(doc);
          if (s !== undefined) {
            matched++;
            score += s;
          }
        }
        if (matched < msm) return undefined;
        return score * boost;
      };
    }
    default:
      throw unsupported(type, 'query type');
  }
};

/** A parsed `query_string` as a query over the given fields (the best field's score, as `dis_max`). */
const compileQs = (node: QsNode, ctx: Context, fields: FieldList): Query => {
  const reader = ctx.corpus.reader;
  if (node.kind === 'bool') {
    const must = node.must.map((n) => compileQs(n, ctx, fields));
    const should = node.should.map((n) => compileQs(n, ctx, fields));
    const mustNot = node.mustNot.map((n) => compileQs(n, ctx, fields));
    return (doc) => {
      let score = 0;
      for (const q of must) {
        const s = q(doc);
        if (s === undefined) return undefined;
        score += s;
      }
      for (const q of mustNot) if (q(doc) !== undefined) return undefined;
      let matched = 0;
      for (const q of should) {
        const s = q(doc);
        if (s !== undefined) (matched++, (score += s));
      }
      if (!must.length && should.length && !matched) return undefined;
      return score;
    };
  }
  const targets = node.field === undefined ? fields : fieldList(node.field, '[query_string]');
  return (doc) => {
    let best: number | undefined;
    for (const { path, boost } of pathsOf(reader, doc, targets)) {
      const s =
        node.kind === 'phrase'
          ? phraseField(ctx, doc, path, node.text)
          : node.kind === 'prefix'
            ? reader.words(doc, path).some((ws) => ws.some((w) => w.startsWith(node.text.toLowerCase())))
              ? 1
              : undefined
            : matchField(ctx, doc, path, node.text, (m) => m >= 1);
      if (s !== undefined) best = Math.max(best ?? 0, s * boost);
    }
    return best;
  };
};
