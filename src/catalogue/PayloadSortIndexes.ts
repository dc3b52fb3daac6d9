import type { CatalogueItem } from './catalogue.js';
import type { CatalogueIndex } from './CatalogueIndex.js';
import type { ListedItem } from './catalogueModel.js';
import type { Binding, GraphStore } from '../store/GraphStore.js';
import { itemNode } from '../store/graphNames.js';
import type { ListingFilter, SortKey } from './ListingQuery.js';
import type { SortPair } from './PayloadSortIndex.js';
import { listingOrder, PayloadSortIndex } from './PayloadSortIndex.js';
import { parseRevision, revisionSortValues } from './revisionSortValues.js';
import { bindingOf, SortKind, sortValueOfBinding } from './SortValue.js';
import { sortValuesQuery } from './sortValuesQuery.js';

/**
 * Listings sorted by one payload property, answered from in-memory indexes per (kind, project,
 * property): the SPARQL form joins each item's head revision and sorts every candidate (~0.5 s at
 * 10k resources). An index is filled by one SPARQL query on first use, then follows the
 * projection's writes; at most `capacity` are kept, the least recently used dropped. It answers
 * with the SPARQL path's rows, totals and cursors, and declines (the caller falls back to SPARQL)
 * when values are of mixed kinds (strings and numbers, integers and doubles) or of kinds whose
 * SPARQL order it does not model (dates, IRIs, language-tagged strings...), or when the scope
 * spans more projects than it may keep indexes.
 */
export class PayloadSortIndexes {
  private readonly cache = new Map<string, PayloadSortIndex>();
  /** The revision last written: it becomes the item's head when its catalogue entry follows. */
  private pending: { graph: string; triples: string } | undefined;

  constructor(
    private readonly store: GraphStore,
    private readonly catalogue: CatalogueIndex,
    private readonly capacity = 16,
  ) {}

  /** Items held, over every index kept. */
  get size(): number {
    let n = 0;
    for (const index of this.cache.values()) n += index.size;
    return n;
  }

  static serves(sort: SortKey[]): boolean {
    return sort.length === 1 && 'predicate' in sort[0]!.field;
  }

  /** A page and the total, or undefined when the indexes cannot answer this listing exactly. */
  async listing(
    f: ListingFilter,
    key: SortKey,
    page: { offset: number; limit: number; after?: Binding[] },
  ): Promise<{ total: number; rows: ListedItem[] } | undefined> {
    if (!('predicate' in key.field)) return undefined;
    const projects = this.catalogue.projects(f);
    if (projects.length > this.capacity) return undefined;
    const indexes: PayloadSortIndex[] = [];
    for (const project of projects) {
      const index = await this.index(f.kind, project, key.field.predicate);
      if (!index) return undefined;
      indexes.push(index);
    }
    // While one index filled, another listing may have evicted one of these: it stopped following writes.
    if (indexes.some((index) => index.broken || this.cache.get(cacheKey(index.kind, index.project, index.predicate)) !== index)) return undefined;
    const kinds = new Set(indexes.flatMap((index) => index.kinds()));
    let after: SortPair | undefined;
    if (page.after) {
      after = { value: sortValueOfBinding(page.after[0]), node: page.after[page.after.length - 1]!.value };
      if (after.value.kind !== SortKind.Empty && after.value.kind !== SortKind.Missing) kinds.add(after.value.kind);
    }
    if (kinds.size > 1 || kinds.has(SortKind.Other)) return undefined;
    const wanted = page.offset + page.limit;
    // Each index contributes at most `wanted` selected pairs; merging those gives the page.
    const candidates: SortPair[] = [];
    for (const index of indexes) {
      let taken = 0;
      for (const pair of index.walk(key.descending, after)) {
        if (taken >= wanted) break;
        if (!this.catalogue.selected(f, pair.node)) continue;
        candidates.push(pair);
        taken++;
      }
    }
    if (indexes.length > 1) candidates.sort(listingOrder(key.descending));
    // As on the SPARQL path, the page counts (item, value) rows and an item keeps its first row.
    const seen = new Set<string>();
    const rows: ListedItem[] = [];
    for (const pair of candidates.slice(page.offset, wanted)) {
      if (seen.has(pair.node)) continue;
      seen.add(pair.node);
      const item = this.catalogue.selected(f, pair.node)!;
      rows.push({ project: item.project, id: item.id, cursor: [bindingOf(pair.value), { type: 'uri', value: pair.node }] });
    }
    return { total: this.catalogue.total(f), rows };
  }

  /** `putRevision`: the content of a revision graph that the item's catalogue entry will name as head. */
  revision(graph: string, triples: string): void {
    this.pending = { graph, triples };
  }

  /** `setCatalogue`: the item's values are those of its (new) head revision. */
  current(item: CatalogueItem): void {
    const node = itemNode(item.kind, item.project, item.id);
    let quads: ReturnType<typeof parseRevision> | undefined;
    for (const index of this.indexesOf(item.kind, item.project)) {
      if (index.head(node) === item.head) continue;
      try {
        // A head without its content at hand (never the case in the projector's order) cannot be followed.
        if (this.pending?.graph !== item.head) throw new Error(`no content for ${item.head}`);
        quads ??= parseRevision(this.pending.triples);
        index.set(node, item.head, revisionSortValues(quads, item.id, index.predicate));
      } catch {
        this.forget(index);
      }
    }
  }

  /** `dropItem`: the item is gone. */
  dropped(kind: string, project: string, id: string): void {
    const node = itemNode(kind, project, id);
    for (const index of this.indexesOf(kind, project)) index.remove(node);
  }

  /** `loadCatalogue` (restart): every item is new; indexes refill on their next use. */
  clear(): void {
    for (const index of this.cache.values()) index.broken = true;
    this.cache.clear();
    this.pending = undefined;
  }

  private async index(kind: string, project: string, predicate: string): Promise<PayloadSortIndex | undefined> {
    const k = cacheKey(kind, project, predicate);
    let index = this.cache.get(k);
    if (index) this.cache.delete(k);
    else {
      index = new PayloadSortIndex(kind, project, predicate);
      index.ready = this.fill(index);
    }
    this.cache.set(k, index);
    for (const [oldest, dropped] of this.cache) {
      if (this.cache.size <= this.capacity) break;
      this.forget(dropped);
      this.cache.delete(oldest);
    }
    await index.ready;
    return index.broken ? undefined : index;
  }

  /** One query over the head graphs; writes that land meanwhile are applied to the index directly. */
  private async fill(index: PayloadSortIndex): Promise<void> {
    try {
      const rows = await this.store.select(sortValuesQuery(index.kind, index.project, index.predicate));
      index.fill(rows.map((row) => ({ node: row['item']!.value, head: row['head']!.value, value: sortValueOfBinding(row['raw']) })));
      if (this.behind(index)) this.forget(index);
    } catch {
      this.forget(index);
    }
  }

  /**
   * Whether the index was filled from a store behind this replica's catalogue: a store written by
   * another process (the external store's lease holder) may not hold yet a change the catalogue
   * applied before the index existed, which the index would then never follow. The listing falls
   * back to SPARQL this time; a store ahead of the catalogue is followed as the catalogue catches up.
   */
  private behind(index: PayloadSortIndex): boolean {
    for (const item of this.catalogue.itemsOf(index.kind, index.project)) {
      const head = index.head(itemNode(item.kind, item.project, item.id));
      if (head === undefined || revisionOf(head) < item.rev) return true;
    }
    return false;
  }

  private forget(index: PayloadSortIndex): void {
    index.broken = true;
    const k = cacheKey(index.kind, index.project, index.predicate);
    if (this.cache.get(k) === index) this.cache.delete(k);
  }

  private indexesOf(kind: string, project: string): PayloadSortIndex[] {
    return [...this.cache.values()].filter((index) => index.kind === kind && index.project === project);
  }
}

/** The revision a head graph holds (`{item node}/rev/{rev}`). */
const revisionOf = (graph: string): number => Number(graph.slice(graph.lastIndexOf('/') + 1));

const cacheKey = (kind: string, project: string, predicate: string) => `${kind} ${project} ${predicate}`;
