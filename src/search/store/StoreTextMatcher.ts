import sparqljs from 'sparqljs';
import type { RankedQuery, RankedResult, RankedRow, TextMatch, TextMatcher } from '../../catalogue/textRanking.js';
import { selection } from '../../catalogue/ListingQuery.js';
import type { ProjectRef } from '../../kernel/labels.js';
import { XSD } from '../../rdf/terms.js';
import { parseItemNode } from '../../store/graphNames.js';
import { searchSelect } from './searchSelect.js';
import type { SparqlHttpClient } from '../../store/SparqlHttpClient.js';
import { indexable, LENGTH, LONG, phraseText, TEXT, textGraphOf, WORD } from './textGraph.js';
import type { Expression, Pattern } from './translateSearch.js';
import { double, filter, int as integer, n as named, op, str as text, triplePattern, values, v as variable } from '../../store/sparqlTerms.js';

const generator = new sparqljs.Generator();
const ITEM = variable('item');
const G = variable('g');
const T = variable('t');
const N = variable('n');
const F = variable('f');
const SCORE = variable('score');
const EXACT = variable('exact');
const AVG = variable('avg');
const N0 = variable('n0');
const SEL = variable('sel');

/** Whole words of a phrase its candidates are found by. */
const CANDIDATE_WORDS = 2;

/** How many averages (kind and projects) are kept before starting afresh. */
const AVERAGES_KEPT = 1000;

/** BM25's parameters, as SQLite FTS5 and Lucene use them. */
const K1 = 1.2;
const B = 0.75;

type Rows = { [name: string]: { value: string } | undefined }[];
type Select = Omit<sparqljs.SelectQuery, 'type' | 'queryType' | 'prefixes'>;

const aggregate = (aggregation: string, expression: Expression, distinct = false) =>
  ({ type: 'aggregate', aggregation, distinct, expression }) as unknown as Expression;
const as = (expression: Expression, name: string) => ({ expression, variable: variable(name) }) as unknown as sparqljs.VariableExpression;
const group = (patterns: Pattern[]) => ({ type: 'group', patterns }) as Pattern;
const bind = (name: sparqljs.VariableTerm, expression: Expression | sparqljs.Term) => ({ type: 'bind', variable: name, expression }) as Pattern;
const asDouble = (x: Expression | sparqljs.Term) =>
  ({ type: 'functionCall', function: named(`${XSD}double`), args: [x], distinct: false }) as unknown as Expression;

/** BM25 of a phrase in the searched projects: its weight (idf) and the items' average length. */
interface Weights {
  idf: number;
  average: number;
}

/** The weights from the numbers of items and of matches, and the average length. */
const weightsOf = (row: Rows[number], found: number): Weights => {
  const items = Number(row['items']?.value ?? 0);
  return { idf: Math.log(1 + (items - found + 0.5) / (found + 0.5)), average: Number(row['length']?.value ?? 0) || 1 };
};

/** An item's score: the phrase occurs `f` times in its text of `length` words (at least once: it matched). */
const score = (w: Weights, f: number, length: number): number => {
  const tf = Math.max(1, f);
  return (w.idf * (tf * (K1 + 1))) / (tf + K1 * (1 - B + (B * length) / w.average));
};

/**
 * `score` in SPARQL over `?f` and `?n`, the same operations in the same order (the page is ordered
 * by it); the average length a number, or `?avg` (see `listed`).
 */
const scoreExpression = (idf: number, average: number | undefined): Expression => {
  const tf = op('if', op('<', F, integer(1)), double(1), asDouble(F));
  return op(
    '/',
    op('*', double(idf), op('*', tf, double(K1 + 1))),
    op('+', tf, op('*', double(K1), op('+', double(1 - B), op('/', op('*', double(B), asDouble(N)), average === undefined ? AVG : double(average))))),
  );
};

/**
 * Listings' text matcher on the external store, over the text graphs of textGraph.ts: the items
 * holding every word but the last and a word the last one begins, whose text holds the phrase; ranked
 * by BM25 (the phrase's frequency in the item's text, its number of matches and the items' lengths
 * in the searched projects), as the embedded FTS5 index ranks a phrase. A ranked listing asks the
 * store for its page only: the catalogue's conditions, the order and the page in SPARQL, the total
 * and best score from the matches grouped by (frequency, length), a few rows whatever their number.
 */
export class StoreTextMatcher implements TextMatcher {
  /** The average length last measured per kind and projects: a first page is ordered by it, checked against the fresh one. */
  private readonly averages = new Map<string, number>();

  constructor(
    private readonly client: SparqlHttpClient,
    /** The store indexes the texts (Virtuoso's free-text index, textGraph.ts): candidates are found by it, not by word triples. */
    private readonly indexed = false,
  ) {}

  async match(words: readonly string[], kind: string, projects: readonly ProjectRef[]): Promise<readonly TextMatch[]> {
    if (!words.length || !projects.length) return [];
    const [matched, stats] = await Promise.all([
      this.select({ distinct: true, variables: [ITEM, N, F], where: this.matched(words, kind, projects) }),
      this.select(this.stats(kind, projects)),
    ]);
    const weights = weightsOf(stats[0] ?? {}, matched.length);
    return matched.map((row) => ({ node: row['item']!.value, score: score(weights, Number(row['f']!.value), Number(row['n']!.value)) }));
  }

  async rank(query: RankedQuery): Promise<RankedResult> {
    const { words, filter: f, projects } = query;
    const searched = words.length > 0 && projects.length > 0;
    if (!searched && query.idNode === undefined) return { total: 0, maxScore: 0, rows: [] };
    // One query counts: the matches grouped by (frequency, length, selected by the listing), a few
    // groups however many items, and BM25's weights. A first page (no cursor) is asked at once beside it, ordered
    // by the score without its idf (a positive factor, the same order); a page after a cursor is
    // asked once the weights are known, the cursor's score being compared with the items'. The first
    // page orders by the average length last measured (else measures it in a subquery, another scan of
    // the projects' lengths), and is asked again in the rare turn the fresh average differs.
    const key = `${f.kind} ${projects.join(' ')}`;
    const guess = this.averages.get(key);
    const paging = query.after ? undefined : this.page(query, 1, guess);
    const [counts, early] = await Promise.all([this.select(this.counts(query, searched)), paging]);
    let found = 0;
    for (const row of counts) if (row['f']) found += Number(row['c']!.value);
    const weights = weightsOf(counts[0] ?? {}, found);
    if (searched) {
      if (this.averages.size >= AVERAGES_KEPT) this.averages.clear();
      this.averages.set(key, weights.average);
    }
    let total = 0;
    let maxScore = 0;
    for (const row of counts) {
      if (!row['sel']) continue;
      total += Number(row['c']!.value);
      // The item at `idNode` without the words is a group of its own, unbound, scored 0.
      if (row['f']) maxScore = Math.max(maxScore, score(weights, Number(row['f'].value), Number(row['n']!.value)));
    }
    if (!total) return { total, maxScore, rows: [] };
    const page = early && (guess === undefined || guess === weights.average) ? early : await this.page(query, weights.idf, weights.average);
    const rows = page.map((row): RankedRow => ({
      node: row['item']!.value,
      score: row['f'] ? score(weights, Number(row['f'].value), Number(row['n']!.value)) : 0,
      exact: row['exact']!.value === '1',
    }));
    return { total, maxScore, rows };
  }

  /** The page's rows: `?item`, `?f`, `?n` (unbound for the item at `idNode` without the words), `?exact`. */
  private page(query: RankedQuery, idf: number, average: number | undefined): Promise<Rows> {
    const where = this.listed(query, { idf, average });
    if (query.after) where.push(filter(after(query.after)));
    return this.select({
      distinct: true,
      variables: [ITEM, F, N, EXACT, SCORE],
      where,
      order: [{ expression: EXACT, descending: true }, { expression: SCORE, descending: true }, { expression: op('str', ITEM) }],
      limit: query.limit,
      ...(query.offset > 0 && !query.after ? { offset: query.offset } : {}),
    });
  }

  /**
   * One row per (frequency, length, selected) group of the matches, `?c` of them, `?sel` bound when the
   * listing selects them, each with the projects' `?items` and their average `?length`.
   */
  private counts(query: RankedQuery, searched: boolean): Select {
    const { filter: f, projects } = query;
    const sub = (select: Select): Pattern => group([{ type: 'query', queryType: 'SELECT', prefixes: {}, ...select } as unknown as Pattern]);
    // The matches, selected or not (`?sel` bound), in one pass: BM25 counts every match of the projects.
    const groups = sub({
      variables: [F, N, SEL, as(aggregate('count', ITEM, true), 'c')],
      where: this.listed(query, undefined, true),
      group: [{ expression: F }, { expression: N }, { expression: SEL }],
    });
    if (!searched) return { variables: [F, N, SEL, variable('c')], where: [groups] };
    return {
      variables: [F, N, SEL, variable('c'), variable('items'), variable('length')],
      where: [sub(this.stats(f.kind, projects)), groups],
    };
  }

  /** BM25's statistics of the projects' text: its number of `?items` and their average `?length`. */
  private stats(kind: string, projects: readonly ProjectRef[]): Select {
    return { variables: [as(aggregate('count', N0), 'items'), as(aggregate('avg', N0), 'length')], where: this.lengths(kind, projects) };
  }

  /** The length `?n0` of every item of the projects' text (names of their own: they are measured in subqueries). */
  private lengths(kind: string, projects: readonly ProjectRef[]): Pattern[] {
    const graphs = values(
      'g0',
      projects.map((p) => named(textGraphOf(kind, p))),
    );
    return [graphs, { type: 'graph', name: variable('g0'), patterns: [triplePattern(variable('i0'), named(LENGTH), N0)] } as unknown as Pattern];
  }

  /**
   * The items of the listing, `?item`, with `scoring` each with `?score` and `?exact` (1 for an exact
   * `@id` match): those of the projects' text holding the phrase, and the item at `idNode` without
   * it, each selected by the catalogue's conditions (ListingQuery.ts); `flagged`, every one of them,
   * `?sel` bound when selected.
   */
  private listed(query: RankedQuery, scoring?: { idf: number; average: number | undefined }, flagged = false): Pattern[] {
    const { words, filter: f, projects, idNode } = query;
    const branches: Pattern[][] = [];
    if (words.length && projects.length) {
      // Without the average, measured in the branch: the score's BIND sees only its own group.
      const measured =
        scoring && scoring.average === undefined
          ? [
              group([
                {
                  type: 'query',
                  queryType: 'SELECT',
                  prefixes: {},
                  variables: [as(aggregate('avg', N0), 'avg')],
                  where: this.lengths(f.kind, projects),
                } as unknown as Pattern,
              ]),
            ]
          : [];
      const scored = scoring ? [bind(SCORE, scoreExpression(scoring.idf, scoring.average))] : [];
      branches.push([...measured, ...this.matched(words, f.kind, projects), ...scored]);
    }
    const idProject = idNode === undefined ? undefined : parseItemNode(idNode)?.project;
    if (idNode !== undefined && idProject !== undefined && projects.includes(idProject)) {
      // Only when its text does not hold the phrase: it is then among the matches, scored.
      const own = variable('own');
      const ownText = { type: 'graph', name: named(textGraphOf(f.kind, idProject)), patterns: [triplePattern(ITEM, named(TEXT), own)] } as unknown as Pattern;
      const unmatched = words.length ? [filter(op('notexists', group([ownText, filter(contains(own, words))]) as unknown as Expression))] : [];
      branches.push([values('item', [named(idNode)]), ...unmatched, ...(scoring ? [bind(SCORE, double(0))] : [])]);
    }
    const items = branches.length === 1 ? branches[0]! : [{ type: 'union', patterns: branches.map(group) } as unknown as Pattern];
    const exact = query.exact.length ? op('if', op('in', ITEM, query.exact.map(named) as unknown as Expression), integer(1), integer(0)) : integer(0);
    // The text graphs searched are those of the kind in the listing's projects: the catalogue's scope
    // patterns would only repeat them (and made Virtuoso's count over 10 projects twice as long).
    const conditions = selection({ ...f, projects: undefined, org: undefined }) as Pattern[];
    const selected = flagged ? [{ type: 'optional', patterns: [...conditions, bind(SEL, integer(1))] } as Pattern] : conditions;
    return [...items, ...selected, ...(scoring ? [bind(EXACT, exact)] : [])];
  }

  /** The items of the projects' text graphs whose text holds the phrase: `?item`, its length `?n`, the phrase's frequency `?f`. */
  private matched(words: readonly string[], kind: string, projects: readonly ProjectRef[]): Pattern[] {
    const graphs = values(
      'g',
      projects.map((p) => named(textGraphOf(kind, p))),
    );
    const phrase = text(phraseText(words));
    // The candidates: items holding the longest whole words (the rarest, likely); the phrase itself is
    // checked on the text. Each more word to join cost Virtuoso more than it narrowed (a 12-word `@id`
    // took 1.6 s joining them all). A lone word, a prefix, is looked for in every item's text: the
    // words a prefix begins were found by STRSTARTS over every word triple of the projects, 469 ms
    // for 10 projects of 1,000 items where CONTAINS over their texts took 19 ms (bench/qListing.ts's
    // items, loaded machine).
    const whole = [...new Set(words.slice(0, -1))].sort((a, b) => b.length - a.length).slice(0, CANDIDATE_WORDS);
    const candidates = this.indexed ? [] : whole.map((w) => triplePattern(ITEM, named(WORD), text(w)));
    const indexed = this.indexed ? freeText(words) : undefined;
    // With the store's index: the items it finds by the phrase's words, and those holding a word it does not keep (a prefix may begin it).
    const texts: Pattern[] =
      indexed === undefined
        ? [triplePattern(ITEM, named(TEXT), T)]
        : [
            {
              type: 'union',
              patterns: [
                group([triplePattern(ITEM, named(TEXT), T), triplePattern(T, named(FREE_TEXT), text(indexed))]),
                group([triplePattern(ITEM, named(LONG), variable('long')), triplePattern(ITEM, named(TEXT), T)]),
              ],
            } as Pattern,
          ];
    const inGraph: Pattern[] = [...candidates, ...texts, triplePattern(ITEM, named(LENGTH), N)];
    // How often the phrase occurs: what removing it takes off the text's length, in phrase lengths.
    const frequency = op('/', op('-', op('strlen', T), op('strlen', op('replace', T, phrase, text('')))), op('strlen', phrase));
    return [graphs, { type: 'graph', name: G, patterns: inGraph } as unknown as Pattern, filter(contains(T, words)), bind(F, frequency)];
  }

  private async select(query: Select): Promise<Rows> {
    return searchSelect<Rows[number]>(this.client, generator.stringify({ type: 'query', queryType: 'SELECT', prefixes: {}, ...query } as sparqljs.SelectQuery));
  }
}

const contains = (t: sparqljs.VariableTerm, words: readonly string[]) => op('contains', t, text(phraseText(words)));

/** Virtuoso's free-text predicate (its SPARQL reads the IRI as the built-in function). */
const FREE_TEXT = 'bif:contains';

/**
 * The free-text expression finding a superset of the items whose text holds the phrase (its check
 * on the text stays): every whole word, and the last word as a prefix (Virtuoso wants 4 letters
 * before a wildcard, FT370); undefined when no word can be asked (a lone short prefix: every text
 * is read, as without the index).
 */
export const freeText = (words: readonly string[]): string | undefined => {
  const last = words[words.length - 1];
  const terms = [...new Set(words.slice(0, -1))].filter(indexable).map((w) => `"${w}"`);
  if (last !== undefined && last.length >= 4 && indexable(last)) terms.push(`"${last}*"`);
  return terms.length ? terms.join(' AND ') : undefined;
};

/**
 * Rows strictly after a cursor position: (exact, score, item) in the listing's order. Scores are
 * computed twice, here in SPARQL and in JS for the page (`score`): the cursor's score is taken as
 * equal to any within a billionth of it, which only distinct (frequency, length) pairs scoring
 * that close could confuse.
 */
const after = (position: RankedRow): Expression => {
  const tolerance = Math.abs(position.score) * 1e-9 + 1e-12;
  const past = op(
    '||',
    op('<', SCORE, double(position.score - tolerance)),
    op('&&', op('<=', SCORE, double(position.score + tolerance)), op('>', op('str', ITEM), text(position.node))),
  );
  const plain = op('=', EXACT, integer(0));
  return position.exact ? op('||', plain, past) : op('&&', plain, past);
};
