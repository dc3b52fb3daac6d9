import type { JsonObject } from '../../kernel/json.js';
import { searchRejections } from '../searchRejections.js';
import { compileAggregations } from './aggregations.js';
import type { Leaf, SearchDoc } from './fields.js';
import { epochMillis, FieldReader } from './fields.js';
import { compileQuery } from './queries.js';
import type { Context } from './SearchContext.js';
import { DocSet } from './DocSet.js';
import { isObject } from './queryParams.js';
import { sourceFilter } from './sourceFilter.js';
import { matchedPositions } from './Scores.js';
import type { Turn } from '../../workers/CpuTurns.js';

const unsupported = searchRejections.unsupportedConstruct;
const malformed = searchRejections.malformedSearchQuery;

/** Top-level keys of a search body this registry evaluates; any other is refused by name. */
export const KNOWN = new Set(['query', 'from', 'size', 'sort', '_source', 'track_total_hits', 'aggs', 'aggregations']);
/**
 * Deepest JSON nesting of a search body: compiling recurses into every level (bools in bools,
 * sub-aggregations). A nested `bool` takes three levels: this admits the 30 levels of bools
 * Elasticsearch admits (`indices.query.bool.max_nested_depth`). (Over HTTP the body reader refuses
 * JSON past 100 levels already; this holds for any caller.)
 */
export const MAX_BODY_DEPTH = 96;

/** Whether a JSON value nests deeper than `limit` (walked without recursion: the value may be deeper than the stack). */
export const deeperThan = (value: unknown, limit: number): boolean => {
  const pending: [unknown, number][] = [[value, 1]];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const [v, depth] = next;
    if (v === null || typeof v !== 'object') continue;
    if (depth > limit) return true;
    for (const child of Array.isArray(v) ? v : Object.values(v)) if (child !== null && typeof child === 'object') pending.push([child, depth + 1]);
  }
  return false;
};

/** How many of a search's time budgets it may spend reading columns kept for later searches before that counts as its running time. */
export const COLUMN_READ_BUDGETS = 10;

/** Elasticsearch's `index.max_result_window`. */
export const MAX_WINDOW = 10_000;
export const DEFAULT_TRACK = 10_000;

export interface SearchHit {
  _index: string;
  _id: string;
  _score: number | null;
  _source?: JsonObject;
  sort?: (string | number | boolean | null)[];
}

export interface SearchResponse {
  took: number;
  timed_out: false;
  _shards: { total: number; successful: number; skipped: number; failed: number };
  hits: { total?: { value: number; relation: 'eq' | 'gte' }; max_score: number | null; hits: SearchHit[] };
  aggregations?: Record<string, unknown>;
}

export const integer = (value: unknown, name: string, fallback: number): number => {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) throw malformed(`'${name}' must be a non-negative integer.`);
  return value;
};

export interface SortKey {
  field: string;
  descending: boolean;
  missing: 'first' | 'last';
}

export const sortKeys = (spec: unknown): SortKey[] | undefined => {
  if (spec === undefined) return undefined;
  const list = Array.isArray(spec) ? spec : [spec];
  return list.map((entry) => {
    if (typeof entry === 'string') return { field: entry, descending: entry === '_score', missing: 'last' as const };
    if (!isObject(entry) || Object.keys(entry).length !== 1)
      throw malformed(`A sort entry must be a field name or {"<field>": "asc" | "desc" | {...}}, got ${JSON.stringify(entry)}.`);
    const [field, how] = Object.entries(entry)[0]!;
    const params = typeof how === 'string' ? { order: how } : isObject(how) ? how : undefined;
    if (!params) throw malformed(`The sort of '${field}' must be "asc", "desc" or an object.`);
    for (const key of Object.keys(params)) if (key !== 'order' && key !== 'missing') throw unsupported(`sort.${key}`, `sort option of '${field}'`);
    const order = params['order'] ?? (field === '_score' ? 'desc' : 'asc');
    if (order !== 'asc' && order !== 'desc') throw malformed(`The sort order of '${field}' must be "asc" or "desc".`);
    const missing = params['missing'] ?? '_last';
    if (missing !== '_last' && missing !== '_first') throw unsupported(`sort.missing: ${JSON.stringify(missing)}`, 'only _first or _last');
    return { field, descending: order === 'desc', missing: missing === '_first' ? ('first' as const) : ('last' as const) };
  });
};

/** The value a document sorts by on a field: min for ascending, max for descending (multi-valued fields). */
const sortValue = (values: readonly Leaf[], key: SortKey): { cmp: number | string; out: string | number | boolean } | undefined => {
  let best: { cmp: number | string; out: string | number | boolean } | undefined;
  for (const v of values) {
    const type = FieldReader.typeOfPath(key.field, v);
    if (type === 'text')
      throw malformed(
        `Text fields are not optimised for operations that require per-document field data like aggregations and sorting: sort by '${key.field}.keyword'.`,
      );
    const cmp = type === 'date' ? epochMillis(String(v)) : type === 'boolean' ? (v ? 1 : 0) : v;
    const out = type === 'date' || type === 'boolean' ? (cmp as number) : v;
    if (!best || (key.descending ? cmp > best.cmp : cmp < best.cmp)) best = { cmp: cmp as number | string, out };
  }
  return best;
};

/** The first `k` matches by descending score, then ascending `@id`, without sorting them all (a page of a hundred thousand matches). */
const topByScore = (set: DocSet, scores: Float64Array, matched: readonly number[], k: number): number[] => {
  const byScore = (a: number, b: number): number => {
    const x = set.docs[a]!.id;
    const y = set.docs[b]!.id;
    return scores[b]! - scores[a]! || (x < y ? -1 : x > y ? 1 : 0);
  };
  if (k === 0) return [];
  if (matched.length <= k * 4) return [...matched].sort(byScore);
  const kept: number[] = [];
  for (const row of matched) {
    if (kept.length === k && byScore(row, kept[k - 1]!) >= 0) continue;
    let i = kept.length;
    while (i > 0 && byScore(row, kept[i - 1]!) < 0) i--;
    kept.splice(i, 0, row);
    if (kept.length > k) kept.pop();
  }
  return kept;
};

/**
 * Runs an Elasticsearch search body over documents and answers in Elasticsearch's response shape,
 * with the document of each hit, in the same order. Pure: the documents, the index name of each and
 * the clock's reading are given.
 */
export const searchWithDocuments = async (
  body: unknown,
  /** The documents; a DocSet keeps the columns a search reads for the next search of the same documents. */
  documents: DocSet | readonly SearchDoc[],
  indexOf: (doc: SearchDoc) => string,
  shards: number,
  /** Past this much running time the search is stopped (SearchTimedOut): it runs on the event loop. */
  budgetMillis = Number.POSITIVE_INFINITY,
  /** Its turns on the event loop, shared with other searches: its budget counts only the time it ran. */
  turn?: Turn,
): Promise<{ response: SearchResponse; hitDocuments: SearchDoc[] }> => {
  const started = performance.now();
  const set = documents instanceof DocSet ? documents : new DocSet(documents);
  // Reading columns serves the searches after this one too (the first search after a restart reads
  // every column it needs: seconds at 100,000 documents): up to COLUMN_READ_BUDGETS budgets of it
  // are not this search's running time.
  const readBefore = set.readMillis;
  const reading = () => Math.min(set.readMillis - readBefore, budgetMillis * COLUMN_READ_BUDGETS);
  const spent = () => (turn ? turn.spent() : performance.now() - started) - reading();
  if (!isObject(body)) throw malformed('The search body must be a JSON object.');
  if (deeperThan(body, MAX_BODY_DEPTH)) throw searchRejections.tooDeeplyNested(MAX_BODY_DEPTH, 'search body');
  for (const key of Object.keys(body)) if (!KNOWN.has(key)) throw unsupported(key, 'search request parameter');
  const from = integer(body['from'], 'from', 0);
  const size = integer(body['size'], 'size', 10);
  if (from + size > MAX_WINDOW) throw malformed(`Result window is too large, from + size must be less than or equal to ${MAX_WINDOW} but was ${from + size}.`);
  const track = body['track_total_hits'];
  if (track !== undefined && typeof track !== 'boolean' && !(typeof track === 'number' && Number.isInteger(track) && track >= 0))
    throw malformed("'track_total_hits' must be a boolean or a non-negative integer.");
  const checkpoint = (): Promise<void> | undefined => {
    if (spent() > budgetMillis) throw searchRejections.searchTimedOut(budgetMillis);
    return turn?.due() ? turn.pause() : undefined;
  };
  const ctx: Context = { set, clauses: { count: 0 }, checkpoint };
  const query = body['query'] === undefined ? undefined : compileQuery(body['query'], ctx);
  const sort = sortKeys(body['sort']);
  const source = sourceFilter(body['_source']);
  const aggSpec = body['aggs'] ?? body['aggregations'];
  const aggregate = aggSpec === undefined ? undefined : compileAggregations(aggSpec, ctx);

  const scores = query ? await query() : set.scores(1);
  await checkpoint();
  const matched = matchedPositions(scores, set.dead);
  const scored = !sort || sort.some((k) => k.field === '_score');
  let rows: { doc: SearchDoc; score: number; sort?: { cmp: number | string; out: string | number | boolean }[] | undefined }[];
  if (!sort) rows = topByScore(set, scores, matched, from + size).map((i) => ({ doc: set.docs[i]!, score: scores[i]! }));
  else {
    const columns = sort.map((k) => (k.field === '_score' || k.field === '_doc' ? undefined : set.values(k.field)));
    const keyed = matched.map((i) => ({
      doc: set.docs[i]!,
      score: scores[i]!,
      sort: sort.map((k, j) =>
        k.field === '_score' ? { cmp: scores[i]!, out: scores[i]! } : k.field === '_doc' ? { cmp: 0, out: 0 } : sortValue(columns[j]![i]!, k),
      ) as ({ cmp: number | string; out: string | number | boolean } | undefined)[],
    }));
    keyed.sort((a, b) => {
      for (let i = 0; i < sort.length; i++) {
        const k = sort[i]!;
        const x = a.sort[i];
        const y = b.sort[i];
        if (x === undefined || y === undefined) {
          if (x === y) continue;
          return (x === undefined) === (k.missing === 'last') ? 1 : -1;
        }
        if (x.cmp !== y.cmp) return (x.cmp < y.cmp ? -1 : 1) * (k.descending ? -1 : 1);
      }
      return a.doc.id < b.doc.id ? -1 : a.doc.id > b.doc.id ? 1 : 0;
    });
    rows = keyed as typeof rows;
  }
  const page = rows.slice(from, from + size);
  const total = matched.length;
  const limit = track === true ? Infinity : track === false ? undefined : typeof track === 'number' ? track : DEFAULT_TRACK;
  const hits: SearchHit[] = page.map((r) => ({
    _index: indexOf(r.doc),
    _id: r.doc.id,
    _score: scored && !sort ? r.score : sort?.some((k) => k.field === '_score') ? r.score : null,
    ...(source ? { _source: source(r.doc.source) } : {}),
    ...(sort ? { sort: (r.sort as ({ out: string | number | boolean } | undefined)[]).map((s) => (s === undefined ? null : s.out)) } : {}),
  }));
  const maxScore = sort ? null : matched.length ? matched.reduce((max, i) => Math.max(max, scores[i]!), -Infinity) : null;
  set.release(scores);
  await checkpoint();
  const aggregations = await aggregate?.(matched);
  const response: SearchResponse = {
    took: Math.round(performance.now() - started),
    timed_out: false,
    _shards: { total: shards, successful: shards, skipped: 0, failed: 0 },
    hits: {
      ...(limit === undefined ? {} : { total: total > limit ? { value: limit, relation: 'gte' as const } : { value: total, relation: 'eq' as const } }),
      max_score: maxScore,
      hits,
    },
    ...(aggregations ? { aggregations } : {}),
  };
  return { response, hitDocuments: page.map((r) => r.doc) };
};

/** A search's response alone. */
export const executeSearch = async (...args: Parameters<typeof searchWithDocuments>): Promise<SearchResponse> => (await searchWithDocuments(...args)).response;
