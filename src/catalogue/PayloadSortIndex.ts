import type { SortValue } from './SortValue.js';
import { bindingOf, compareSortValues, compareText, MISSING, SortKind } from './SortValue.js';

export interface SortPair {
  node: string;
  value: SortValue;
}

const missing = (p: SortPair) => p.value.kind === SortKind.Missing;

/** The SPARQL listing's order: items without the value last, then the value (descending when asked), then the item node ascending. */
export const listingOrder =
  (descending: boolean) =>
  (a: SortPair, b: SortPair): number =>
    Number(missing(a)) - Number(missing(b)) ||
    (descending ? -compareSortValues(a.value, b.value) : compareSortValues(a.value, b.value)) ||
    compareText(a.node, b.node);

const ascending = listingOrder(false);

/**
 * The sort values of one payload property for the items of one kind and project: one pair per
 * (item, value), as the SPARQL listing yields one row per pair (a multi-valued property gives
 * several rows and the page keeps the first), kept sorted by value then item node.
 */
export class PayloadSortIndex {
  private readonly list: SortPair[] = [];
  private readonly nodes = new Map<string, { head: string; pairs: SortPair[] }>();
  private readonly counts = [0, 0, 0, 0, 0, 0];
  /** Nodes written while the fill query ran: what was written is newer than what it read. */
  private touched: Set<string> | undefined = new Set();
  /** Set when a write could not be followed: the index must not answer any more. */
  broken = false;
  ready: Promise<void> = Promise.resolve();

  constructor(
    readonly kind: string,
    readonly project: string,
    readonly predicate: string,
  ) {}

  /** Items held. */
  get size(): number {
    return this.nodes.size;
  }

  /** The head revision graph the item's values were read from. */
  head(node: string): string | undefined {
    return this.nodes.get(node)?.head;
  }

  /** Kinds of values held besides the empty string: one at most, and not `Other`, for the index to answer. */
  kinds(): SortKind[] {
    return ([SortKind.Integer, SortKind.Double, SortKind.String, SortKind.Other] as SortKind[]).filter((k) => this.counts[k]! > 0);
  }

  set(node: string, head: string, values: SortValue[]): void {
    this.remove(node);
    const pairs = unique(values).map((value) => ({ node, value }));
    for (const pair of pairs) {
      this.list.splice(this.pairBound(pair, false), 0, pair);
      this.counts[pair.value.kind]!++;
    }
    this.nodes.set(node, { head, pairs });
  }

  remove(node: string): void {
    this.touched?.add(node);
    const known = this.nodes.get(node);
    if (!known) return;
    for (const pair of known.pairs) {
      this.list.splice(this.pairBound(pair, false), 1);
      this.counts[pair.value.kind]!--;
    }
    this.nodes.delete(node);
  }

  /** The fill query's rows, one per (item, value); items written meanwhile keep their newer values. */
  fill(rows: { node: string; head: string; value: SortValue }[]): void {
    const touched = this.touched ?? new Set();
    this.touched = undefined;
    const values = new Map<string, { head: string; values: SortValue[] }>();
    for (const row of rows) {
      if (touched.has(row.node)) continue;
      const known = values.get(row.node);
      if (known) known.values.push(row.value);
      else values.set(row.node, { head: row.head, values: [row.value] });
    }
    for (const [node, { head, values: vs }] of values) {
      const pairs = unique(vs).map((value) => ({ node, value }));
      for (const pair of pairs) {
        this.list.push(pair);
        this.counts[pair.value.kind]!++;
      }
      this.nodes.set(node, { head, pairs });
    }
    this.list.sort(ascending);
  }

  /** The pairs in listing order, strictly after the cursor pair when there is one. */
  *walk(descending: boolean, after?: SortPair): Generator<SortPair> {
    const list = this.list;
    // Missing values sort last in the list (their kind is the highest): ascending needs nothing more.
    if (!descending || (after && missing(after))) {
      for (let i = after ? this.pairBound(after, true) : 0; i < list.length; i++) yield list[i]!;
      return;
    }
    // Descending values, but item nodes still ascending within equal values: walk the groups of
    // equal values from the end of the present ones, each from its start; then the missing ones.
    const present = this.valueBound(MISSING, list.length, false);
    let end = present;
    if (after) {
      const groupEnd = this.valueBound(after.value, list.length, true);
      for (let i = this.pairBound(after, true); i < groupEnd; i++) yield list[i]!;
      end = this.valueBound(after.value, list.length, false);
    }
    while (end > 0) {
      const start = this.valueBound(list[end - 1]!.value, end, false);
      for (let i = start; i < end; i++) yield list[i]!;
      end = start;
    }
    for (let i = present; i < list.length; i++) yield list[i]!;
  }

  /** First index (below `hi`) whose value is not below `value` (or, `past`, is above it). */
  private valueBound(value: SortValue, hi: number, past: boolean): number {
    let lo = 0;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      const c = compareSortValues(this.list[mid]!.value, value);
      if (c < 0 || (past && c === 0)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** First index whose pair is not before `pair` (or, `past`, is after it). */
  private pairBound(pair: SortPair, past: boolean): number {
    let lo = 0;
    let hi = this.list.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      const c = ascending(this.list[mid]!, pair);
      if (c < 0 || (past && c === 0)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}

/** One value per distinct term (SELECT DISTINCT); none means the item has no value. */
const unique = (values: SortValue[]): SortValue[] => {
  if (values.length === 0) return [MISSING];
  const seen = new Map<string, SortValue>();
  for (const v of values) seen.set(`${v.kind}:${bindingOf(v).value}`, v);
  return [...seen.values()];
};
