import type { Binding } from '../store/GraphStore.js';
import { rejections } from '../domain/rejections.js';
import type { ProjectRef } from '../kernel/labels.js';
import type { CatalogueItem } from './catalogue.js';
import type { NodeOrder } from './nodeOrder.js';
import { compareNodes, nodeKey } from './nodeOrder.js';

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
  match(words: readonly string[], kind: string, projects: readonly ProjectRef[]): Promise<readonly TextMatch[]>;
}

/** Listings of a registry started without its text index (`TEXT_INDEX=off`): `q` is refused. */
export const noTextIndex: TextMatcher = {
  match: async () => {
    throw rejections.malformedQueryParam("Full-text search with 'q' is not available: this registry runs without its text index (TEXT_INDEX=off).");
  },
};

/** A row of a `q` listing as ranked. */
export interface RankedRow {
  node: string;
  score: number;
  /** The item's `@id` is what was searched for: it comes first. */
  exact: boolean;
}

export interface ScoredItem extends RankedRow {
  item: CatalogueItem;
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
