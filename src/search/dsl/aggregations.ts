import { appendTo } from '../../util/appendTo.js';
import { searchRejections } from '../searchRejections.js';
import type { Leaf } from './fields.js';
import { epochMillis, FieldReader } from './fields.js';
import { compileQuery } from './queries.js';
import type { Context } from './SearchContext.js';
import { isObject } from './queryParams.js';
import { only } from './Scores.js';
import type { KeyColumn } from './DocSet.js';

const unsupported = searchRejections.unsupportedConstruct;
/** Elasticsearch's default `search.max_buckets`. */
const MAX_BUCKETS = 65_536;
const malformed = searchRejections.malformedSearchQuery;

/** A compiled aggregation: its result over some documents of the set, by position. */
type Aggregation = (docs: readonly number[]) => Promise<Record<string, unknown>>;

const fieldOf = (type: string, params: Record<string, unknown>, allowed: string[]): string => {
  for (const key of Object.keys(params))
    if (!allowed.includes(key) && key !== 'field') throw unsupported(`${type}.${key}`, `parameter of the [${type}] aggregation`);
  if (typeof params['field'] !== 'string') throw malformed(`The [${type}] aggregation needs a 'field'.`);
  return params['field'];
};

/** Aggregations read no text field (Elasticsearch keeps no fielddata for text). */
const textRefused = (type: string, field: string): never => {
  throw malformed(
    `Text fields are not optimised for operations that require per-document field data like aggregations and sorting: use '${field}.keyword' in the [${type}] aggregation.`,
  );
};

/** A value as aggregations see it: numbers as numbers, dates in epoch millis, keywords as strings; text is refused. */
const aggregatable = (type: string, field: string) => (value: Leaf) => {
  const t = FieldReader.typeOfPath(field, value);
  if (t === 'text') textRefused(type, field);
  return t === 'date' ? epochMillis(String(value)) : t === 'boolean' ? (value ? 1 : 0) : value;
};

const isoMillis = (ms: number) => new Date(ms).toISOString();

/** Compiles the `aggs` (or `aggregations`) object of a search. */
export const compileAggregations = (
  json: unknown,
  /** The searched set; its time budget is checked before each aggregation, sub-aggregations of every bucket included. */
  ctx: Context,
): Aggregation => {
  if (!isObject(json)) throw malformed("'aggs' must be an object of named aggregations.");
  const compiled = Object.entries(json).map(([name, spec]) => [name, compileOne(name, spec, ctx)] as const);
  return async (docs) => {
    const out: Record<string, unknown> = {};
    for (const [name, agg] of compiled) {
      await ctx.checkpoint?.();
      out[name] = await agg(docs);
    }
    return out;
  };
};

const compileOne = (name: string, spec: unknown, ctx: Context): Aggregation => {
  if (!isObject(spec)) throw malformed(`Aggregation '${name}' must be an object.`);
  const { aggs, aggregations, meta: _meta, ...rest } = spec;
  const keys = Object.keys(rest);
  if (keys.length !== 1) throw malformed(`Aggregation '${name}' must name exactly one type, got ${keys.join(', ') || 'none'}.`);
  const type = keys[0]!;
  const params = rest[type];
  const subSpec = aggs ?? aggregations;
  const sub = subSpec === undefined ? undefined : compileAggregations(subSpec, ctx);
  const withSub = async (docs: readonly number[], out: Record<string, unknown>) => (sub ? { ...out, ...(await sub(docs)) } : out);
  const set = ctx.set;
  if (!isObject(params)) throw malformed(`Aggregation '${name}': [${type}] must be an object.`);
  if (sub && !['terms', 'filter', 'date_histogram'].includes(type)) throw unsupported(`sub-aggregations of [${type}]`, `aggregation '${name}'`);
  switch (type) {
    case 'terms': {
      const field = fieldOf(type, params, ['size', 'order', 'min_doc_count']);
      const size = params['size'] === undefined ? 10 : Number(params['size']);
      if (!Number.isInteger(size) || size < 1) throw malformed(`The [terms] aggregation '${name}' needs a positive integer 'size'.`);
      const minDocCount = params['min_doc_count'] === undefined ? 1 : Number(params['min_doc_count']);
      const order = termsOrder(params['order']);
      return async (docs) => {
        const column = set.keys(field);
        // Counted by ordinal: a document holds each of its keys once.
        const counts = new Int32Array(column.keys.length);
        for (const doc of docs) {
          if (column.text[doc]) textRefused(type, field);
          for (let k = column.offsets[doc]!; k < column.offsets[doc + 1]!; k++) counts[column.ords[k]!]++;
        }
        const all: Bucket[] = [];
        for (let ord = 0; ord < counts.length; ord++)
          if (counts[ord] && counts[ord]! >= minDocCount) all.push({ key: column.keys[ord]!, ord, count: counts[ord]! });
        all.sort(order);
        const kept = all.slice(0, size);
        // Sub-aggregations need each kept bucket's documents.
        const members = sub ? bucketMembers(column, docs, kept) : undefined;
        const buckets: Record<string, unknown>[] = [];
        for (const [j, b] of kept.entries()) {
          const raw = column.raw[b.ord]!;
          const t = FieldReader.typeOfPath(field, raw);
          const asString = t === 'date' ? { key_as_string: isoMillis(b.key as number) } : t === 'boolean' ? { key_as_string: String(raw) } : {};
          buckets.push(await withSub(members?.[j] ?? [], { key: b.key, ...asString, doc_count: b.count }));
        }
        return {
          doc_count_error_upper_bound: 0,
          sum_other_doc_count: all.slice(size).reduce((n, b) => n + b.count, 0),
          buckets,
        };
      };
    }
    case 'cardinality':
    case 'value_count':
    case 'min':
    case 'max':
    case 'avg':
    case 'sum': {
      const field = fieldOf(type, params, []);
      return async (docs) => {
        const column = set.values(field);
        const values: Leaf[] = [];
        for (const doc of docs) for (const v of column[doc]!) values.push(v);
        if (type === 'value_count') return { value: values.length };
        if (type === 'cardinality') {
          const distinct = new Set(values.map((v) => (FieldReader.typeOfPath(field, v) === 'text' ? `s:${String(v)}` : `${typeof v}:${String(v)}`)));
          return { value: distinct.size };
        }
        const key = aggregatable(type, field);
        const numbers = values.map((v) => key(v)).filter((v): v is number => typeof v === 'number');
        const isDate = values.some((v) => FieldReader.typeOfPath(field, v) === 'date');
        if (type === 'sum') return { value: numbers.reduce((a, b) => a + b, 0) };
        if (!numbers.length) return { value: null };
        // A loop, not Math.min(...numbers): a hundred thousand arguments overflow the stack.
        const value =
          type === 'min'
            ? numbers.reduce((a, b) => (b < a ? b : a))
            : type === 'max'
              ? numbers.reduce((a, b) => (b > a ? b : a))
              : numbers.reduce((a, b) => a + b, 0) / numbers.length;
        return isDate && type !== 'avg' ? { value, value_as_string: isoMillis(value) } : { value };
      };
    }
    case 'filter': {
      const query = compileQuery(params, ctx, `aggregation '${name}' filter`);
      return async (docs) => {
        const within = only(set, docs);
        const scores = await query(within);
        const kept = docs.filter((d) => scores[d] === scores[d]);
        set.release(within);
        set.release(scores);
        return withSub(kept, { doc_count: kept.length });
      };
    }
    case 'date_histogram': {
      const field = fieldOf(type, params, ['calendar_interval', 'format', 'min_doc_count', 'time_zone']);
      if (params['time_zone'] !== undefined && !['UTC', 'Z', '+00:00'].includes(String(params['time_zone'])))
        throw unsupported(`date_histogram.time_zone: ${String(params['time_zone'])}`, 'only UTC is supported');
      if (params['format'] !== undefined) throw unsupported('date_histogram.format', 'buckets carry ISO keys');
      const unit = calendarUnit(params['calendar_interval']);
      const minDocCount = params['min_doc_count'] === undefined ? 0 : Number(params['min_doc_count']);
      return async (docs) => {
        const column = set.values(field);
        const buckets = new Map<number, number[]>();
        for (const doc of docs) {
          const seen = new Set<number>();
          for (const value of column[doc]!) {
            if (FieldReader.typeOfPath(field, value) !== 'date') continue;
            const start = floorTo(epochMillis(String(value)), unit);
            if (seen.has(start)) continue;
            seen.add(start);
            appendTo(buckets, start, doc);
          }
        }
        const keys = [...buckets.keys()].sort((a, b) => a - b);
        const out: Record<string, unknown>[] = [];
        // Elasticsearch fills the empty intervals between the first and last bucket (min_doc_count 0),
        // up to its bucket limit: dates centuries apart by the minute would be billions of buckets.
        let counted = 0;
        if (keys.length)
          for (let k = keys[0]!; k <= keys[keys.length - 1]!; k = next(k, unit)) {
            if (++counted > MAX_BUCKETS) throw searchRejections.tooManyBuckets(MAX_BUCKETS, name);
            const list = buckets.get(k) ?? [];
            if (list.length >= minDocCount) out.push(await withSub(list, { key_as_string: isoMillis(k), key: k, doc_count: list.length }));
          }
        return { buckets: out };
      };
    }
    default:
      throw unsupported(type, `aggregation type of '${name}'`);
  }
};

type Bucket = { key: string | number; ord: number; count: number };

/** The documents of each kept bucket, in the order of the buckets. */
const bucketMembers = (column: KeyColumn, docs: readonly number[], kept: Bucket[]): number[][] => {
  const slot = new Map(kept.map((b, j) => [b.ord, j]));
  const out = kept.map((): number[] => []);
  for (const doc of docs)
    for (let k = column.offsets[doc]!; k < column.offsets[doc + 1]!; k++) {
      const j = slot.get(column.ords[k]!);
      if (j !== undefined) out[j]!.push(doc);
    }
  return out;
};

const termsOrder = (spec: unknown): ((a: Bucket, b: Bucket) => number) => {
  const byKey = (a: Bucket, b: Bucket) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);
  if (spec === undefined) return (a, b) => b.count - a.count || byKey(a, b);
  if (!isObject(spec) || Object.keys(spec).length !== 1) throw unsupported('terms.order', 'only one of {"_count": ...} or {"_key": ...}');
  const [by, dir] = Object.entries(spec)[0]!;
  if ((by !== '_count' && by !== '_key') || (dir !== 'asc' && dir !== 'desc'))
    throw unsupported(`terms.order: ${JSON.stringify(spec)}`, 'only _count or _key, asc or desc');
  const sign = dir === 'asc' ? 1 : -1;
  return by === '_key' ? (a, b) => sign * byKey(a, b) : (a, b) => sign * (a.count - b.count) || byKey(a, b);
};

type Unit = 'year' | 'quarter' | 'month' | 'week' | 'day' | 'hour' | 'minute';
const UNITS: Record<string, Unit> = {
  year: 'year',
  '1y': 'year',
  quarter: 'quarter',
  '1q': 'quarter',
  month: 'month',
  '1M': 'month',
  week: 'week',
  '1w': 'week',
  day: 'day',
  '1d': 'day',
  hour: 'hour',
  '1h': 'hour',
  minute: 'minute',
  '1m': 'minute',
};

const calendarUnit = (value: unknown): Unit => {
  const unit = typeof value === 'string' ? UNITS[value] : undefined;
  if (!unit)
    throw unsupported(`date_histogram.calendar_interval: ${JSON.stringify(value)}`, 'only calendar_interval year, quarter, month, week, day, hour, minute');
  return unit;
};

const floorTo = (ms: number, unit: Unit): number => {
  const d = new Date(ms);
  const y = d.getUTCFullYear();
  const m = d.getUTCMonth();
  switch (unit) {
    case 'year':
      return Date.UTC(y, 0, 1);
    case 'quarter':
      return Date.UTC(y, m - (m % 3), 1);
    case 'month':
      return Date.UTC(y, m, 1);
    case 'week': {
      // Weeks start on Monday.
      const day = Date.UTC(y, m, d.getUTCDate());
      return day - ((d.getUTCDay() + 6) % 7) * 86_400_000;
    }
    case 'day':
      return Date.UTC(y, m, d.getUTCDate());
    case 'hour':
      return ms - (ms % 3_600_000);
    case 'minute':
      return ms - (ms % 60_000);
  }
};

const next = (ms: number, unit: Unit): number => {
  const d = new Date(ms);
  switch (unit) {
    case 'year':
      return Date.UTC(d.getUTCFullYear() + 1, 0, 1);
    case 'quarter':
      return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 3, 1);
    case 'month':
      return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
    case 'week':
      return ms + 7 * 86_400_000;
    case 'day':
      return ms + 86_400_000;
    case 'hour':
      return ms + 3_600_000;
    case 'minute':
      return ms + 60_000;
  }
};
