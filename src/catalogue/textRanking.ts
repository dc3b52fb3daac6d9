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

/** The order of a `q` listing: exact `@id` matches, then by descending score, then by item node. */
const compare = (a: Pick<ScoredItem, 'node' | 'score' | 'exact'>, b: Pick<ScoredItem, 'node' | 'score' | 'exact'>): number =>
  a.exact !== b.exact ? (a.exact ? -1 : 1) : a.score !== b.score ? b.score - a.score : a.node < b.node ? -1 : a.node > b.node ? 1 : 0;

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
  const after = page.after;
  const candidates = after ? rows.filter((r) => compare(r, after) > 0) : rows;
  const offset = after ? 0 : page.offset;
  return topK(candidates, offset + page.limit).slice(offset, offset + page.limit);
};

/** The first `k` rows in order, without sorting all of them when `k` is small. */
const topK = (rows: ScoredItem[], k: number): ScoredItem[] => {
  if (rows.length <= k * 4) return [...rows].sort(compare);
  const kept: ScoredItem[] = [];
  for (const row of rows) {
    if (kept.length === k && compare(row, kept[k - 1]!) >= 0) continue;
    let i = kept.length;
    while (i > 0 && compare(row, kept[i - 1]!) < 0) i--;
    kept.splice(i, 0, row);
    if (kept.length > k) kept.pop();
  }
  return kept;
};
