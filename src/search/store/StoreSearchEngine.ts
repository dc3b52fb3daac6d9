import sparqljs from 'sparqljs';
import type { JsonObject } from '../../kernel/json.js';
import type { ProjectRef } from '../../kernel/labels.js';
import { searchSelect } from './searchSelect.js';
import type { SparqlHttpClient } from '../../store/SparqlHttpClient.js';
import { DEFAULT_TRACK, deeperThan, integer, KNOWN, MAX_BODY_DEPTH, MAX_WINDOW, sortKeys } from '../dsl/executeSearch.js';
import type { SearchHit, SearchResponse, SortKey } from '../dsl/executeSearch.js';
import { epochMillis, isDate } from '../dsl/fields.js';
import type { SearchDoc } from '../dsl/fields.js';
import { isObject } from '../dsl/queryParams.js';
import { sourceFilter } from '../dsl/sourceFilter.js';
import type { SearchEngine } from '../SearchEngine.js';
import { searchRejections } from '../searchRejections.js';
import { dateOf, fieldTag, searchGraphOf, SEARCH_PREFIX, SOURCE, valueOf, wordsOf } from './searchGraph.js';
import { holding, holdingRow, isWord, textOfField, wordNeedle } from './searchText.js';
import { XSD } from '../../rdf/terms.js';
import type { Expression, Pattern, ScoredWord, Term } from './translateSearch.js';
import { DOC, DOC_ID, idPattern, QueryTranslator } from './translateSearch.js';
import { double, filter, int as integerTerm, n as named, op, str as text, triplePattern, union, v as variable } from '../../store/sparqlTerms.js';

const unsupported = (construct: string) => searchRejections.unsupportedConstruct(construct, 'not translated into SPARQL for the external triple store');
const malformed = searchRejections.malformedSearchQuery;
const generator = new sparqljs.Generator();
const G = variable('g');

type Binding = Record<string, { type: string; value: string; datatype?: string } | undefined>;
type Select = sparqljs.SelectQuery;

const aggregate = (aggregation: string, expression: Term | Expression, distinct = false) =>
  ({ type: 'aggregate', aggregation, distinct, expression }) as unknown as Expression;
const as = (expression: Expression, name: string) => ({ expression, variable: variable(name) }) as unknown as sparqljs.VariableExpression;

/** A literal of an answer as JSON: numbers and booleans as such. */
const valueOfTerm = (term: { value: string; datatype?: string } | undefined): string | number | boolean | null => {
  if (!term) return null;
  const type = term.datatype ?? '';
  if (/#(double|float|decimal|integer|int|long)$/.test(type)) return Number(term.value);
  if (type.endsWith('#boolean')) return term.value === 'true' || term.value === '1';
  return term.value;
};

/** As in process (and in Elasticsearch): text has no per-document values to sort or aggregate by. */
const textField = (field: string) =>
  malformed(`Text fields are not optimised for operations that require per-document field data like aggregations and sorting: use '${field}.keyword'.`);

const METRICS = new Set(['min', 'max', 'avg', 'sum', 'value_count', 'cardinality']);

/**
 * The search API on the external store: the body translated into SPARQL over the projects' search
 * graphs (searchGraph.ts, written by StoreSearchProjection), so that no replica holds the documents.
 * One query counts the matches, one ranks the page (scores: the sum over the query's words a
 * document holds of each word's inverse document frequency in the searched projects, counted by one
 * more query; ties by `@id`, as in process), one reads the page's documents, one per aggregation.
 * Filters, sorts, totals and aggregations are standard SPARQL 1.1.
 */
export class StoreSearchEngine implements SearchEngine {
  readonly inProcess = false;

  constructor(
    private readonly client: SparqlHttpClient,
    /** The store indexes the documents' texts (searchGraph.ts): words are found in them, not in word triples. */
    private readonly indexed = false,
  ) {}

  async search(body: unknown, projects: readonly ProjectRef[]): Promise<{ response: SearchResponse; hitDocuments: SearchDoc[] }> {
    const started = performance.now();
    if (!isObject(body)) throw malformed('The search body must be a JSON object.');
    if (deeperThan(body, MAX_BODY_DEPTH)) throw searchRejections.tooDeeplyNested(MAX_BODY_DEPTH, 'search body');
    for (const key of Object.keys(body)) if (!KNOWN.has(key)) throw searchRejections.unsupportedConstruct(key, 'search request parameter');
    const from = integer(body['from'], 'from', 0);
    const size = integer(body['size'], 'size', 10);
    if (from + size > MAX_WINDOW)
      throw malformed(`Result window is too large, from + size must be less than or equal to ${MAX_WINDOW} but was ${from + size}.`);
    const track = body['track_total_hits'];
    if (track !== undefined && typeof track !== 'boolean' && !(typeof track === 'number' && Number.isInteger(track) && track >= 0))
      throw malformed("'track_total_hits' must be a boolean or a non-negative integer.");
    const translator = new QueryTranslator(this.indexed);
    const patterns = body['query'] === undefined ? [] : translator.translate(body['query']);
    const sort = sortKeys(body['sort']);
    if (sort && sort.some((k) => k.field === '_score') && sort.some((k) => k.field !== '_score')) throw unsupported('sort: _score with other keys');
    if (sort?.some((k) => k.field === '_doc')) throw unsupported('sort: _doc');
    const source = sourceFilter(body['_source']);
    const aggSpec = body['aggs'] ?? body['aggregations'];
    const aggregations = aggSpec === undefined ? [] : this.aggregationsOf(aggSpec);
    const scoredBy = !sort || sort[0]!.field === '_score';
    const graphs = projects.map((p) => named(searchGraphOf(p)));
    // The matching documents, each once (a document matching several values or words of a clause
    // gives several solutions), then what a page, a count or an aggregation reads of each.
    const matching = {
      type: 'query',
      queryType: 'SELECT',
      prefixes: {},
      distinct: true,
      variables: [DOC, G, DOC_ID],
      where: [
        { type: 'values', values: graphs.map((g) => ({ '?g': g })) } as Pattern,
        { type: 'graph', name: G, patterns: [idPattern(), ...patterns] } as unknown as Pattern,
      ],
    } as unknown as Pattern;
    // An OPTIONAL goes around its GRAPH, not inside it: Virtuoso drops the solutions where `GRAPH ?g { OPTIONAL {...} }` finds nothing.
    const inGraph = (p: Pattern): Pattern =>
      p.type === 'optional'
        ? ({ type: 'optional', patterns: [{ type: 'graph', name: G, patterns: p.patterns }] } as unknown as Pattern)
        : ({ type: 'graph', name: G, patterns: [p] } as unknown as Pattern);
    const where = (inner: Pattern[]): Pattern[] => (inner.length ? [{ type: 'group', patterns: [matching] } as Pattern, ...inner.map(inGraph)] : [matching]);

    const limit = track === true ? Infinity : track === false ? undefined : typeof track === 'number' ? track : DEFAULT_TRACK;
    const [total, weights, buckets] = await Promise.all([
      graphs.length ? this.count(where([])) : 0,
      graphs.length && scoredBy && translator.scored.length ? this.weights(graphs, translator.scored) : [],
      Promise.all(aggregations.map((a) => (graphs.length ? a.run(where) : a.run(undefined)))),
    ]);
    const page =
      graphs.length && size > 0 && total > from ? await this.page(where, weights, sort, scoredBy, translator.constantScore(body['query']), from, size) : [];
    const sources = page.length ? await this.sources(page.map((r) => r.doc)) : new Map<string, JsonObject>();
    const hitDocuments: SearchDoc[] = page.map((r) => ({ id: r.id, project: r.project, source: sources.get(r.doc) ?? { '@id': r.id } }));
    const hits: SearchHit[] = page.map((r, at) => ({
      _index: `search_${r.project.replace('/', '_')}`,
      _id: r.id,
      _score: scoredBy ? r.score : null,
      ...(source ? { _source: source(hitDocuments[at]!.source) } : {}),
      ...(sort ? { sort: r.sort } : {}),
    }));
    const response: SearchResponse = {
      took: Math.round(performance.now() - started),
      timed_out: false,
      _shards: { total: projects.length, successful: projects.length, skipped: 0, failed: 0 },
      hits: {
        ...(limit === undefined ? {} : { total: total > limit ? { value: limit, relation: 'gte' as const } : { value: total, relation: 'eq' as const } }),
        max_score: sort ? null : total ? (page[0]?.score ?? null) : null,
        hits,
      },
      ...(aggregations.length ? { aggregations: Object.fromEntries(aggregations.map((a, i) => [a.name, buckets[i]])) } : {}),
    };
    return { response, hitDocuments };
  }

  private async select(query: Omit<Select, 'type' | 'queryType' | 'prefixes'>): Promise<Binding[]> {
    return searchSelect<Binding>(this.client, generator.stringify({ type: 'query', queryType: 'SELECT', prefixes: {}, ...query } as Select));
  }

  private async count(where: Pattern[]): Promise<number> {
    const [row] = await this.select({ variables: [as(aggregate('count', DOC, true), 'n')], where });
    return Number(row?.['n']?.value ?? 0);
  }

  /** Each scored word's weight: its inverse document frequency (Lucene's BM25 idf) among the searched documents. */
  private async weights(graphs: Term[], scored: ScoredWord[]): Promise<{ word: ScoredWord; weight: number }[]> {
    const distinct = [...new Map(scored.map((s) => [`${s.field} ${s.word}`, s])).values()];
    const graphValues = { type: 'values', values: graphs.map((g) => ({ '?g': g })) } as Pattern;
    const [all, rows] = await Promise.all([
      this.select({
        variables: [as(aggregate('count', DOC), 'n')],
        where: [graphValues, { type: 'graph', name: G, patterns: [idPattern()] } as unknown as Pattern],
      }),
      this.indexed ? this.indexedFrequencies(graphValues, distinct) : this.frequencies(graphValues, distinct),
    ]);
    const n = Number(all[0]?.['n']?.value ?? 0);
    return distinct.map((word) => {
      const f = rows.get(`${word.field} ${word.word}`) ?? 0;
      return { word, weight: Math.log(1 + (n - f + 0.5) / (f + 0.5)) };
    });
  }

  /** How many of the searched documents hold each word (keyed by field and word), by their word triples. */
  private async frequencies(graphValues: Pattern, words: ScoredWord[]): Promise<Map<string, number>> {
    const rows = await this.select({
      variables: [variable('p'), variable('w'), as(aggregate('count', DOC), 'n')],
      where: [
        graphValues,
        { type: 'values', values: words.map((s) => ({ '?p': named(wordsOf(s.field)), '?w': text(s.word) })) } as Pattern,
        { type: 'graph', name: G, patterns: [triplePattern(DOC, variable('p'), variable('w'))] } as unknown as Pattern,
      ],
      group: [{ expression: variable('p') }, { expression: variable('w') }],
    } as Omit<Select, 'type' | 'queryType' | 'prefixes'>);
    const fields = new Map(words.map((s) => [wordsOf(s.field), s.field]));
    return new Map(rows.map((r) => [`${fields.get(r['p']!.value)} ${r['w']!.value}`, Number(r['n']!.value)]));
  }

  /**
   * The same counts through the store's text index: one branch a word (the index is asked a constant),
   * numbered `?k`. A value that is not one word is held by no document: not asked.
   */
  private async indexedFrequencies(graphValues: Pattern, words: ScoredWord[]): Promise<Map<string, number>> {
    const asked = words.filter((s) => isWord(s.word));
    if (!asked.length) return new Map();
    const k = variable('k');
    const branches = asked.map((s, i) => [
      { type: 'graph', name: G, patterns: holding(DOC, variable('t'), s.field, [s.word], false) } as unknown as Pattern,
      { type: 'bind', variable: k, expression: integerTerm(i) } as unknown as Pattern,
    ]);
    const rows = await this.select({
      variables: [k, as(aggregate('count', DOC), 'n')],
      where: [graphValues, branches.length === 1 ? { type: 'group', patterns: branches[0]! } : union(branches)],
      group: [{ expression: k }],
    } as Omit<Select, 'type' | 'queryType' | 'prefixes'>);
    return new Map(rows.map((r) => [`${asked[Number(r['k']!.value)]!.field} ${asked[Number(r['k']!.value)]!.word}`, Number(r['n']!.value)]));
  }

  private async page(
    where: (inner: Pattern[]) => Pattern[],
    weights: { word: ScoredWord; weight: number }[],
    sort: SortKey[] | undefined,
    scoredBy: boolean,
    constant: number,
    from: number,
    size: number,
  ): Promise<{ doc: string; id: string; project: ProjectRef; score: number; sort: (string | number | boolean | null)[] }[]> {
    const inner: Pattern[] = [];
    const variables: sparqljs.Variable[] = [DOC, G, DOC_ID];
    const order: sparqljs.Ordering[] = [];
    if (scoredBy) {
      // Each word's row: its predicate and the word (word triples), or its field's tag and the word between spaces (texts).
      const rows = this.indexed
        ? weights
            .filter((w) => isWord(w.word.word))
            .map((w) => ({ '?sp': text(fieldTag(w.word.field)), '?sw': text(wordNeedle(w.word.word)), '?wt': double(w.weight) }))
        : weights.map((w) => ({ '?sp': named(wordsOf(w.word.field)), '?sw': text(w.word.word), '?wt': double(w.weight) }));
      if (rows.length)
        inner.push({
          type: 'optional',
          patterns: [{ type: 'values', values: rows } as Pattern, ...(this.indexed ? holdingRow(DOC) : [triplePattern(DOC, variable('sp'), variable('sw'))])],
        } as Pattern);
      // Words none holds (values that are no word) score 0, as their absent triples did.
      const scoreExpression = rows.length
        ? aggregate('sum', op('coalesce', variable('wt'), double(0)))
        : aggregate('max', double(weights.length ? 0 : constant));
      variables.push(as(scoreExpression, 'score'));
      order.push({ expression: scoreExpression, descending: true });
    }
    const fields = (sort ?? []).filter((k) => k.field !== '_score');
    fields.forEach((key, i) => {
      const s = variable(`s${i}`);
      const keyword = key.field.endsWith('.keyword') || key.field === '_id';
      const path = key.field.endsWith('.keyword') ? key.field.slice(0, -'.keyword'.length) : key.field;
      if (key.field !== '_id')
        inner.push({
          type: 'optional',
          patterns: keyword
            ? [triplePattern(DOC, named(valueOf(path)), s)]
            : // Numbers and booleans as written, dates as their instants, text by its words (refused below: text has no sort value).
              [
                {
                  type: 'union',
                  patterns: [
                    {
                      type: 'group',
                      patterns: [
                        triplePattern(DOC, named(valueOf(path)), s),
                        filter(op('||', op('isnumeric', s), op('=', op('datatype', s), named(`${XSD}boolean`)))),
                      ],
                    },
                    { type: 'group', patterns: [triplePattern(DOC, named(dateOf(path)), s)] },
                    this.indexed ? textOfField(DOC, s, path) : { type: 'group', patterns: [triplePattern(DOC, named(wordsOf(path)), s)] },
                  ],
                } as Pattern,
              ],
        } as Pattern);
      const k = variable(`k${i}`);
      // Strings compared as strings: Virtuoso's MIN and ORDER BY over plain literals do not follow their text.
      const of = key.field === '_id' ? op('str', DOC_ID) : keyword ? op('str', s) : s;
      const best = aggregate(key.descending ? 'max' : 'min', of);
      variables.push(as(best, k.value));
      // Documents without the field go last (first with `missing: _first`), whatever the order. The
      // aggregates are repeated rather than their names used: Virtuoso does not see the names in ORDER BY.
      if (key.field !== '_id')
        order.push({ expression: op('=', aggregate('count', s), integerTerm(0)), descending: key.missing === 'first' } as sparqljs.Ordering);
      order.push({ expression: best, descending: key.descending });
    });
    order.push({ expression: op('str', DOC_ID) });
    const rows = await this.select({
      variables,
      where: where(inner),
      group: [{ expression: DOC }, { expression: G }, { expression: DOC_ID }],
      order,
      limit: size,
      offset: from,
    } as Omit<Select, 'type' | 'queryType' | 'prefixes'>);
    return rows.map((r) => ({
      doc: r['doc']!.value,
      id: r['id']!.value,
      project: r['g']!.value.slice(SEARCH_PREFIX.length + 1),
      score: scoredBy ? Number(r['score']?.value ?? 0) : 0,
      sort: fields.map((key, i) => {
        const value = valueOfTerm(r[`k${i}`]);
        if (typeof value !== 'string' || key.field.endsWith('.keyword') || key.field === '_id') return value;
        throw textField(key.field);
      }),
    }));
  }

  /** Every document of a project (an aggregate view's member that is the project's default search view searches them in process). */
  async documents(project: ProjectRef): Promise<SearchDoc[]> {
    const rows = await this.select({
      variables: [DOC_ID, variable('src')],
      where: [
        {
          type: 'graph',
          name: named(searchGraphOf(project)),
          patterns: [idPattern(), triplePattern(DOC, named(SOURCE), variable('src'))],
        } as unknown as Pattern,
      ],
    });
    return rows.map((r) => ({ id: r['id']!.value, project, source: JSON.parse(r['src']!.value) as JsonObject }));
  }

  private async sources(docs: string[]): Promise<Map<string, JsonObject>> {
    const rows = await this.select({
      variables: [DOC, variable('src')],
      where: [
        { type: 'values', values: docs.map((d) => ({ '?doc': named(d) })) } as Pattern,
        { type: 'graph', name: G, patterns: [triplePattern(DOC, named(SOURCE), variable('src'))] } as unknown as Pattern,
      ],
    });
    return new Map(rows.map((r) => [r['doc']!.value, JSON.parse(r['src']!.value) as JsonObject]));
  }

  /** The aggregations this translation answers: terms and the single-value metrics, without sub-aggregations. */
  private aggregationsOf(spec: unknown): { name: string; run: (where: ((inner: Pattern[]) => Pattern[]) | undefined) => Promise<unknown> }[] {
    if (!isObject(spec)) throw malformed("'aggs' must be an object.");
    return Object.entries(spec).map(([name, def]) => {
      if (!isObject(def)) throw malformed(`The aggregation '${name}' must be an object.`);
      const kinds = Object.keys(def).filter((k) => k !== 'meta');
      if (kinds.some((k) => k === 'aggs' || k === 'aggregations')) throw unsupported('sub-aggregations');
      if (kinds.length !== 1) throw malformed(`The aggregation '${name}' must have exactly one type.`);
      const type = kinds[0]!;
      const params = def[type];
      if (type !== 'terms' && !METRICS.has(type)) throw unsupported(type);
      if (!isObject(params) || typeof params['field'] !== 'string') throw malformed(`The aggregation '${name}' needs a "field".`);
      for (const key of Object.keys(params)) if (key !== 'field' && !(type === 'terms' && key === 'size')) throw unsupported(`${type}.${key}`);
      const field = params['field'];
      const path = field.endsWith('.keyword') ? field.slice(0, -'.keyword'.length) : field;
      const v = variable('agg');
      const held = triplePattern(DOC, named(valueOf(path)), v);
      if (type === 'terms') {
        const size = integer(params['size'], 'size', 10);
        return {
          name,
          run: async (where) => {
            const rows = where
              ? await this.select({
                  variables: [v, as(aggregate('count', DOC, true), 'c')],
                  where: where([held]),
                  group: [{ expression: v }],
                } as Omit<Select, 'type' | 'queryType' | 'prefixes'>)
              : [];
            const all = rows
              .map((r) => ({ raw: valueOfTerm(r['agg']), count: Number(r['c']!.value) }))
              .map((b) => {
                if (typeof b.raw !== 'string' || path !== field) return b;
                if (!isDate(b.raw)) throw textField(field);
                return { raw: epochMillis(b.raw), count: b.count, date: true };
              })
              .sort((a, b) => b.count - a.count || (String(a.raw) < String(b.raw) ? -1 : String(a.raw) > String(b.raw) ? 1 : 0));
            return {
              doc_count_error_upper_bound: 0,
              sum_other_doc_count: all.slice(size).reduce((n, b) => n + b.count, 0),
              buckets: all
                .slice(0, size)
                .map((b) =>
                  typeof b.raw === 'boolean' ? { key: b.raw ? 1 : 0, key_as_string: String(b.raw), doc_count: b.count } : { key: b.raw, doc_count: b.count },
                ),
            };
          },
        };
      }
      return {
        name,
        run: async (where) => {
          const numeric = type !== 'value_count' && type !== 'cardinality';
          const expression =
            type === 'value_count' ? aggregate('count', v) : type === 'cardinality' ? aggregate('count', v, true) : aggregate(type === 'avg' ? 'avg' : type, v);
          const rows = where
            ? await this.select({
                variables: [as(expression, 'r')],
                where: where([{ type: 'group', patterns: [held, ...(numeric ? [filter(op('isnumeric', v))] : [])] } as Pattern]),
              })
            : [];
          const value = valueOfTerm(rows[0]?.['r']);
          if ((type === 'min' || type === 'max') && value === null && where) {
            // A date field: its instants, answered with their ISO form as in process.
            const dated = await this.select({ variables: [as(aggregate(type, v), 'r')], where: where([triplePattern(DOC, named(dateOf(path)), v)]) });
            const instant = valueOfTerm(dated[0]?.['r']);
            if (typeof instant === 'number') return { value: instant, value_as_string: new Date(instant).toISOString() };
          }
          if (type === 'sum') return { value: typeof value === 'number' ? value : 0 };
          if (!numeric) return { value: typeof value === 'number' ? value : 0 };
          return { value: typeof value === 'number' ? value : null };
        },
      };
    });
  }
}
