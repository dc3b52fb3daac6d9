import type { Binding } from '../store/GraphStore.js';
import { requestRejections as rejections } from '../kernel/requestRejections.js';
import type { ProjectRef } from '../kernel/labels.js';
import type { CatalogueItem } from './catalogue.js';
import type { ListingFilter } from './ListingQuery.js';
import type { NodeOrder } from './nodeOrder.js';
import { compareNodes, nodeKey, nodeOrder } from './nodeOrder.js';

/** An item whose text matches, with its relevance (higher is better). */
export interface TextMatch {
  node: string;
  score: number;
}

/**
 * The text index as listings use it: the items of a kind in some projects whose text (their `@id` and
 * every value, see searchDocument.ts) holds the words (analyzer.ts) as a phrase within one value, the
 * last word a prefix, each with its relevance. Embedded: SQLite FTS5; external store: word triples.
 */
export interface TextMatcher {
  /** Every match, unordered: what a `q` listing sorted otherwise, or aggregated, needs. */
  match(words: readonly string[], kind: string, projects: readonly ProjectRef[]): Promise<readonly TextMatch[]>;
  /** One page of a `q` listing ranked by relevance, the listing's conditions applied, with its total and best score. */
  rank(query: RankedQuery): Promise<RankedResult>;
}

/** A `q` listing ranked by relevance, as asked of the text matcher. */
export interface RankedQuery {
  /** The analyzer's words of `q` (none: only the item at `idNode` can be listed). */
  words: readonly string[];
  /** The listing's scope and catalogue conditions. */
  filter: ListingFilter;
  /** The projects of the scope holding items of the kind: the text searched, and BM25's statistics. */
  projects: readonly ProjectRef[];
  /** The nodes whose `@id` is `q` itself: such a match comes before every other. */
  exact: readonly string[];
  /** The node `q` names as an `@id` of the project: listed first (score 0) when selected, even without the words. */
  idNode?: string;
  offset: number;
  limit: number;
  /** Strictly after this position (the offset is then ignored). */
  after?: RankedRow;
}

export interface RankedResult {
  /** Every item the listing selects, and the best score among them (0 without any). */
  total: number;
  maxScore: number;
  rows: RankedRow[];
}

/** Listings of a registry started without its text index (`TEXT_INDEX=off`): `q` is refused. */
const refused = async (): Promise<never> => {
  throw rejections.malformedQueryParam("Full-text search with 'q' is not available: this registry runs without its text index (TEXT_INDEX=off).");
};
export const noTextIndex: TextMatcher = { match: refused, rank: refused };

/** The catalogue as the in-process ranking reads it (CatalogueIndex, CatalogueQueries). */
export interface MatchSelection {
  /** The items of `nodes` the listing selects: their places in `nodes`, and whether each is at one of the `exact` nodes. */
  eachSelected(f: ListingFilter, nodes: readonly { node: string }[], exact: Iterable<string>, visit: (at: number, exact: boolean) => void): void;
  /** Whether the listing selects an item, by node, with the item's catalogue row. */
  selector(f: ListingFilter): (node: string) => CatalogueItem | undefined;
}

/**
 * Visits every item of `matches` a `q` listing selects, unordered, with its place in the matches (-1
 * for the item at `idNode` when selected without the words), without keeping them (a common word
 * matches every item of the index) nor reading them: at 100k items, reading each match's item (its
 * `@id`, its catalogue fields) cost more than all the rest of the listing.
 */
export const eachSelectedMatch = (
  selection: MatchSelection,
  query: Pick<RankedQuery, 'filter' | 'exact' | 'idNode'>,
  matches: readonly TextMatch[],
  visit: (node: string, score: number, exact: boolean, at: number) => void,
): void => {
  const { filter, idNode } = query;
  let idFound = false;
  selection.eachSelected(filter, matches, query.exact, (at, isExact) => {
    const m = matches[at]!;
    // Long nodes of equal length compared per match cost a fifth of the listing: only exact ones are.
    if (isExact && m.node === idNode) idFound = true;
    visit(m.node, m.score, isExact, at);
  });
  if (idNode !== undefined && !idFound && selection.selector(filter)(idNode)) visit(idNode, 0, true, -1);
};

/** A page of a `q` listing ranked in process from every match of its words. */
export const rankMatches = (selection: MatchSelection, query: RankedQuery, matches: readonly TextMatch[]): RankedResult => {
  // A text index keeps its lists while they hold: their nodes' keys (nodeOrder.ts) are computed once.
  const order = nodeOrder(matches);
  const ranked = new RankedPage({ offset: query.offset, limit: query.limit, ...(query.after ? { after: query.after } : {}) }, order);
  eachSelectedMatch(selection, query, matches, (node, score, exact, at) => ranked.add(node, score, exact, at < 0 ? nodeKey(node, order) : order.keys[at]));
  return { total: ranked.total, maxScore: ranked.maxScore, rows: ranked.page() };
};

/** A row of a `q` listing as ranked. */
export interface RankedRow {
  node: string;
  score: number;
  /** The item's `@id` is what was searched for: it comes first. */
  exact: boolean;
}

const XSD = 'http://www.w3.org/2001/XMLSchema#';

/** The `after` cursor of a row: exact flag, score, item node. */
export const scoreCursor = (row: RankedRow): Binding[] => [
  { type: 'literal', value: row.exact ? '1' : '0', datatype: `${XSD}integer` },
  { type: 'literal', value: String(row.score), datatype: `${XSD}double` },
  { type: 'uri', value: row.node },
];

/** The position a cursor of `scoreCursor` names, or undefined when it is not one. */
export const cursorPosition = (after: Binding[]): RankedRow | undefined => {
  const [exact, score, node] = after;
  if (after.length !== 3 || exact?.datatype !== `${XSD}integer` || score?.datatype !== `${XSD}double` || node?.type !== 'uri') return undefined;
  const value = Number(score.value);
  if (!Number.isFinite(value) || (exact.value !== '0' && exact.value !== '1')) return undefined;
  return { exact: exact.value === '1', score: value, node: node.value };
};

/** One page of ranked rows, from an offset or strictly after a cursor position. */
export const rankedPage = (rows: RankedRow[], page: { offset: number; limit: number; after?: RankedRow }): RankedRow[] => {
  const collector = new RankedPage(page);
  for (const row of rows) collector.add(row.node, row.score, row.exact);
  return collector.page();
};

/**
 * Collects a page of ranked rows from rows seen one at a time, with their total and best score:
 * only a row that enters the page is kept, so a word of every item allocates a page, not a row per item.
 */
export class RankedPage {
  total = 0;
  maxScore = 0;
  private readonly kept: KeyedRow[] = [];
  private readonly wanted: number;
  private readonly offset: number;
  private readonly after: KeyedRow | undefined;

  /** `order`: the keys (nodeOrder.ts) the rows will be added with; without, nodes are compared as strings. */
  constructor(page: { offset: number; limit: number; after?: RankedRow }, order?: NodeOrder) {
    this.after = page.after && { ...page.after, key: order ? nodeKey(page.after.node, order) : NaN };
    this.offset = page.after ? 0 : page.offset;
    this.wanted = this.offset + page.limit;
  }

  /** `key`: the node's key in the order given to the constructor (NaN when unknown). */
  add(node: string, score: number, exact: boolean, key = NaN): void {
    this.total++;
    if (score > this.maxScore) this.maxScore = score;
    if (this.after && compareTo(exact, score, node, key, this.after) <= 0) return;
    const kept = this.kept;
    if (kept.length === this.wanted && (this.wanted === 0 || compareTo(exact, score, node, key, kept[this.wanted - 1]!) >= 0)) return;
    let i = kept.length;
    while (i > 0 && compareTo(exact, score, node, key, kept[i - 1]!) < 0) i--;
    kept.splice(i, 0, { node, score, exact, key });
    if (kept.length > this.wanted) kept.pop();
  }

  /** The page: the kept rows from the offset on. */
  page(): RankedRow[] {
    return this.kept.slice(this.offset).map(({ node, score, exact }) => ({ node, score, exact }));
  }
}

interface KeyedRow extends RankedRow {
  key: number;
}

/** `compare` of a row given by its fields with another. */
const compareTo = (exact: boolean, score: number, node: string, key: number, b: KeyedRow): number =>
  exact !== b.exact ? (exact ? -1 : 1) : score !== b.score ? b.score - score : compareNodes(node, key, b.node, b.key);
