import type { Binding } from '../store/GraphStore.js';
import { rejections } from '../domain/rejections.js';
import type { CatalogueItem } from './catalogue.js';

/** The text index as listings use it: the items of a kind matching an FTS5 expression, with their relevance. */
export interface TextMatcher {
  match(expression: string, kind: string): readonly { node: string; score: number }[];
}

/** Listings of a registry started without its text index (`TEXT_INDEX=off`): `q` is refused. */
export const noTextIndex: TextMatcher = {
  match: () => {
    throw rejections.malformedQueryParam("Full-text search with 'q' is not available: this registry runs without its text index (TEXT_INDEX=off).");
  },
};

export interface ScoredItem {
  node: string;
  item: CatalogueItem;
  score: number;
  /** The item's `@id` is what was searched for: it comes first. */
  exact: boolean;
}

const XSD = 'http://www.w3.org/2001/XMLSchema#';

/** The `after` cursor of a row: exact flag, score, item node. */
export const scoreCursor = (row: ScoredItem): Binding[] => [
  { type: 'literal', value: row.exact ? '1' : '0', datatype: `${XSD}integer` },
  { type: 'literal', value: String(row.score), datatype: `${XSD}double` },
  { type: 'uri', value: row.node },
];

/** The position a cursor of `scoreCursor` names, or undefined when it is not one. */
export const cursorPosition = (after: Binding[]): Pick<ScoredItem, 'node' | 'score' | 'exact'> | undefined => {
  const [exact, score, node] = after;
  if (after.length !== 3 || exact?.datatype !== `${XSD}integer` || score?.datatype !== `${XSD}double` || node?.type !== 'uri') return undefined;
  const value = Number(score.value);
  if (!Number.isFinite(value) || (exact.value !== '0' && exact.value !== '1')) return undefined;
  return { exact: exact.value === '1', score: value, node: node.value };
};

/** One page of ranked rows, from an offset or strictly after a cursor position. */
export const rankedPage = (rows: ScoredItem[], page: { offset: number; limit: number; after?: Pick<ScoredItem, 'node' | 'score' | 'exact'> }): ScoredItem[] => {
  const collector = new RankedPage(page);
  for (const row of rows) collector.add(row.node, row.item, row.score, row.exact);
  return collector.page();
};

/**
 * Collects a page of ranked rows from rows seen one at a time, with their total and best score:
 * only a row that enters the page is kept, so a word of every item allocates a page, not a row per item.
 */
export class RankedPage {
  total = 0;
  maxScore = 0;
  private readonly kept: ScoredItem[] = [];
  private readonly wanted: number;
  private readonly offset: number;
  private readonly after: Pick<ScoredItem, 'node' | 'score' | 'exact'> | undefined;

  constructor(page: { offset: number; limit: number; after?: Pick<ScoredItem, 'node' | 'score' | 'exact'> }) {
    this.after = page.after;
    this.offset = page.after ? 0 : page.offset;
    this.wanted = this.offset + page.limit;
  }

  add(node: string, item: CatalogueItem, score: number, exact: boolean): void {
    this.total++;
    if (score > this.maxScore) this.maxScore = score;
    if (this.after && compareTo(exact, score, node, this.after) <= 0) return;
    const kept = this.kept;
    if (kept.length === this.wanted && (this.wanted === 0 || compareTo(exact, score, node, kept[this.wanted - 1]!) >= 0)) return;
    let i = kept.length;
    while (i > 0 && compareTo(exact, score, node, kept[i - 1]!) < 0) i--;
    kept.splice(i, 0, { node, item, score, exact });
    if (kept.length > this.wanted) kept.pop();
  }

  /** The page: the kept rows from the offset on. */
  page(): ScoredItem[] {
    return this.kept.slice(this.offset);
  }
}

/** `compare` of a row given by its fields with another. */
const compareTo = (exact: boolean, score: number, node: string, b: Pick<ScoredItem, 'node' | 'score' | 'exact'>): number =>
  exact !== b.exact ? (exact ? -1 : 1) : score !== b.score ? b.score - score : node < b.node ? -1 : node > b.node ? 1 : 0;
