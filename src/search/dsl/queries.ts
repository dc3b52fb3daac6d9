import { searchRejections } from '../searchRejections.js';
import { globMatcher } from './glob.js';
import { fieldPattern } from './fields.js';
import { parseQueryString } from './queryString.js';
import { boostOf, checkParams, fieldList, isObject, minimumShouldMatch, onField, operatorOf, scalar, single } from './queryParams.js';
import type { FieldList } from './queryParams.js';
import type { DocSet } from './DocSet.js';
import type { QsNode } from './queryString.js';
import type { Query, Scores } from './Scores.js';
import { filter, must, mustNot, scaled, should, startFrom } from './Scores.js';
import type { Context } from './SearchContext.js';
import { acrossFields, isIn, matchScores, patternQuery, perDoc, phraseScores, rangeTest, termsScores, wordScores } from './fieldScores.js';

const unsupported = searchRejections.unsupportedConstruct;
const malformed = searchRejections.malformedSearchQuery;

/** Elasticsearch 7's default `indices.query.bool.max_clause_count`: beyond, a query is refused before it runs. */
export const MAX_CLAUSES = 1_024;

/** Compiles a query of the Elasticsearch query DSL; anything it does not evaluate is refused by name. */
export const compileQuery = (json: unknown, ctx: Context, where = 'query'): Query => {
  if (ctx.clauses && ++ctx.clauses.count > MAX_CLAUSES) throw searchRejections.tooManyClauses(MAX_CLAUSES);
  const [type, body] = single(json, where);
  const set = ctx.set;
  const query = compileType(type, body, ctx, set);
  return async (within) => {
    await ctx.checkpoint?.();
    return query(within);
  };
};

const compileType = (type: string, body: unknown, ctx: Context, set: DocSet): Query => {
  switch (type) {
    case 'match_all': {
      const params = isObject(body) ? body : {};
      checkParams(type, params, []);
      const boost = boostOf(params);
      return async () => set.scores(boost);
    }
    case 'match': {
      const [field, params] = onField(type, body, 'query', ['query', 'operator', 'minimum_should_match']);
      const text = scalar(params['query'], `[match] on '${field}'`);
      const operator = operatorOf(params['operator'], '[match]');
      const msm = params['minimum_should_match'];
      const boost = boostOf(params);
      const required = (matched: number, of: number) =>
        operator === 'and' ? matched === of : matched >= Math.max(1, msm === undefined ? 1 : minimumShouldMatch(msm, of));
      return async (within) => scaled(await matchScores(ctx, field, text, required, within), boost);
    }
    case 'match_phrase': {
      const [field, params] = onField(type, body, 'query', ['query', 'slop']);
      if (params['slop'] !== undefined && params['slop'] !== 0) throw unsupported('match_phrase.slop', 'only slop 0 is supported');
      const text = String(scalar(params['query'], `[match_phrase] on '${field}'`));
      const boost = boostOf(params);
      return async (within) => scaled(await phraseScores(ctx, field, text, false, within), boost);
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
      return async (within) => scaled(await acrossFields(ctx, fields, within, one(within), mode === 'most_fields' ? { sum: true } : { tie }), boost);
    }
    case 'query_string': {
      if (!isObject(body)) throw malformed('[query_string] must be an object.');
      checkParams(type, body, ['query', 'default_field', 'fields', 'default_operator']);
      if (typeof body['query'] !== 'string') throw malformed("[query_string] needs a 'query' string.");
      const fields = fieldList(body['fields'] ?? body['default_field'], '[query_string]');
      const operator = operatorOf(body['default_operator'], '[query_string]');
      const boost = boostOf(body);
      const run = compileQs(parseQueryString(body['query'], operator), ctx, fields);
      return async (within) => scaled(await run(within), boost);
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
        const values = set.values(field);
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
      return async (within) => {
        const out = set.scores(NaN);
        const paths = set.fieldPaths().filter(named);
        for (const path of paths.includes(field) ? paths : [field, ...paths]) {
          await ctx.checkpoint?.();
          const values = set.values(path);
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
      return async (within) => {
        const acc = startFrom(set, within);
        await must(set, acc, required);
        await filter(set, acc, filtering);
        await mustNot(set, acc, excluded);
        if (optional.length) {
          const matched = await should(set, acc, optional);
          if (msm > 0) for (let i = 0; i < acc.length; i++) if (matched[i]! < msm) acc[i] = NaN;
          set.release(matched);
        }
        return scaled(acc, boost);
      };
    }
    default:
      throw unsupported(type, 'query type');
  }
};

/** A parsed `query_string` as a query over the given fields (the best field's score, as `dis_max`). */
const compileQs = (node: QsNode, ctx: Context, fields: FieldList): Query => {
  const set = ctx.set;
  if (node.kind === 'bool') {
    const required = node.must.map((n) => compileQs(n, ctx, fields));
    const optional = node.should.map((n) => compileQs(n, ctx, fields));
    const excluded = node.mustNot.map((n) => compileQs(n, ctx, fields));
    return async (within) => {
      await ctx.checkpoint?.();
      const acc = startFrom(set, within);
      await must(set, acc, required);
      await mustNot(set, acc, excluded);
      if (optional.length) {
        const matched = await should(set, acc, optional);
        if (!required.length) for (let i = 0; i < acc.length; i++) if (!matched[i]) acc[i] = NaN;
        set.release(matched);
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
  return async (within) => {
    await ctx.checkpoint?.();
    return acrossFields(ctx, targets, within, one(within), { tie: 0 });
  };
};
