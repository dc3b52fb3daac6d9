import type { ProjectRef } from '../kernel/labels.js';
import type { Binding, GraphStore, Row } from '../store/GraphStore.js';
import type { Bucket, ItemRef, LinkRow, ListedItem, OutgoingRow } from './catalogueModel.js';

export type { Bucket, ItemRef, LinkRow, ListedItem, OutgoingRow };
import { itemNode, parseItemNode } from '../store/graphNames.js';
import type { ListingFilter, SortKey } from './ListingQuery.js';
import { aggregationQuery, countQuery, pageQuery } from './ListingQuery.js';
import { Statement } from '../store/sparql.js';
import { n, str } from '../store/sparqlTerms.js';
import { spelledIri } from '../rdf/terms.js';
import { CatalogueIndex } from './CatalogueIndex.js';
import { PayloadSortIndexes } from './PayloadSortIndexes.js';
import { compareSortValues, compareText, MISSING_DATATYPE, SortKind, sortValueOfBinding } from './SortValue.js';
import type { Link } from '../domain/resources/links.js';
import type { RankedQuery, TextMatch } from './textRanking.js';
import { eachSelectedMatch } from './textRanking.js';
import { selectedMatchesQuery } from './selectedMatchesQuery.js';
import { VALUES_ROWS } from '../store/remoteSparql.js';
import type { ListingCache } from './ListingCache.js';

const incoming = new Statement('incoming');
const incomingCount = new Statement('incoming-count');
const outgoing = new Statement('outgoing');

const ref = (row: Row, name = 'item'): ItemRef | undefined => {
  const node = row[name]?.value;
  const parsed = node === undefined ? undefined : parseItemNode(node);
  return parsed && { project: parsed.project, id: parsed.id };
};

/**
 * What a replica keeps of the catalogue in its own memory: the embedded layout's indexes (a row
 * per item: the embedded Oxigraph joins and sorts at 1-3 µs a row, so these make its listings
 * fast). The external layout keeps none, so that nothing in a replica grows with the items.
 */
export interface CatalogueMemory {
  index: CatalogueIndex;
  sorts: PayloadSortIndexes;
}

/**
 * The most matched items one page or count query names (a `VALUES` block): Virtuoso refused a block
 * of 9,000 nodes (SP030); past this the listing asks per chunk and merges.
 */
export const LISTED_ITEMS_AT_ONCE = 1000;

/** Queries a `q` listing's matches are selected by at once on the store. */
const SELECTIONS_AT_ONCE = 4;

/** How many entries a replica holds in memory per catalogue read model: the indexes grow with the items (none without memory), the cache is bounded. */
export const heldEntries = (memory: CatalogueMemory | undefined, cache: ListingCache | undefined): { name: string; entries: number }[] => [
  { name: 'catalogue', entries: memory?.index.size ?? 0 },
  { name: 'payloadSorts', entries: memory?.sorts.size ?? 0 },
  { name: 'listingCache', entries: cache?.size ?? 0 },
];

/** Listings read from a shared store kept while their scope has not changed, and the store's position they are asked at. */
export interface StoreListingCache {
  listings: ListingCache;
  storePosition: () => number;
}

/** A match of a `q` listing's words that the listing selects, with what its aggregations count. */
export interface SelectedMatch {
  node: string;
  score: number;
  /** The item's `@id` is what was searched for. */
  exact: boolean;
  project: ProjectRef;
  types: readonly string[];
}

/**
 * Orders listed rows by their cursors as the page query's ORDER BY does: each key's value (an item
 * without a payload value last in both directions), then the item node.
 */
export const cursorOrder =
  (sort: SortKey[]) =>
  (a: ListedItem, b: ListedItem): number => {
    for (let i = 0; i < sort.length; i++) {
      const x = sortValueOfBinding(a.cursor[i]);
      const y = sortValueOfBinding(b.cursor[i]);
      const missing = Number(x.kind === SortKind.Missing) - Number(y.kind === SortKind.Missing);
      if (missing) return missing;
      const d = compareSortValues(x, y);
      if (d) return sort[i]!.descending ? -d : d;
    }
    return compareText(a.cursor[sort.length]!.value, b.cursor[sort.length]!.value);
  };

/**
 * Listings, aggregations and link queries, one port for both layouts: from the in-memory indexes
 * where this replica keeps them (`memory`, the embedded layout), else by SPARQL over the catalogue
 * and the revision graphs of the store, which every replica shares.
 */
export class CatalogueQueries {
  constructor(
    private readonly store: GraphStore,
    /** The in-memory indexes; undefined on the external store, where every answer is SPARQL. */
    private readonly memory: CatalogueMemory | undefined,
    /** Every project (a handful per organization): a `q` listing's scope where no index tells which hold items. */
    private readonly knownProjects: () => Iterable<ProjectRef>,
    /** Without memory: the pages and totals kept while their scope has not changed. */
    private readonly cache?: StoreListingCache,
  ) {}

  /** A page and the total: from the in-memory indexes for the default order and single payload sorts, else SPARQL. */
  async listing(f: ListingFilter, sort: SortKey[], page: { offset: number; limit: number; after?: Binding[] }): Promise<{ total: number; rows: ListedItem[] }> {
    const memory = this.memory;
    // A set of matched items is filtered by SPARQL only: the in-memory indexes know nothing of it.
    if (memory && f.items === undefined && CatalogueIndex.serves(sort)) {
      const { total, rows } = memory.index.page(f, page);
      return { total, rows: rows.map((r) => ({ project: r.item.project, id: r.item.id, cursor: r.cursor })) };
    }
    if (memory && f.items === undefined && PayloadSortIndexes.serves(sort)) {
      const served = await memory.sorts.listing(f, sort[0]!, page);
      if (served) return served;
    }
    const cache = f.items === undefined ? this.cache : undefined;
    const key = cache && JSON.stringify([f, sort, page]);
    const kept = key === undefined ? undefined : cache!.listings.get(key, f);
    if (kept) return kept;
    // The store's position before asking: what it answers is at least that recent.
    const at = cache?.storePosition();
    const [total, rows] =
      f.items !== undefined && f.items.length > LISTED_ITEMS_AT_ONCE
        ? await this.chunkedListing(f, sort, page)
        : await Promise.all([this.count(f), this.page(f, sort, page)]);
    if (key !== undefined) cache!.listings.set(key, at!, { total, rows });
    return { total, rows };
  }

  /**
   * The projects in the listing's scope that hold items of its kind; without the indexes, every
   * project of the scope (one holding none has no text to search, and weighs nothing in BM25).
   */
  projects(f: ListingFilter): string[] {
    if (this.memory) return this.memory.index.projects(f);
    if (f.projects) return f.projects;
    const prefix = f.org === undefined ? undefined : `${f.org}/`;
    return [...this.knownProjects()].filter((p) => prefix === undefined || p.startsWith(prefix));
  }

  /**
   * The matches of a `q` listing's words it selects (with the item at `idNode`, when selected
   * without the words), unordered: a sort other than by score and the aggregations take them all.
   * In memory from the index; on the store, their nodes are filtered by the catalogue's conditions
   * in SPARQL, a `VALUES` block's worth a query, and nothing of them is kept after the request.
   */
  async selectedMatches(query: Pick<RankedQuery, 'filter' | 'exact' | 'idNode'>, matches: readonly TextMatch[]): Promise<SelectedMatch[]> {
    const rows: SelectedMatch[] = [];
    const memory = this.memory;
    if (memory) {
      const selected = memory.index.selector(query.filter);
      eachSelectedMatch(memory.index, query, matches, (node, score, exact) => {
        const item = selected(node)!;
        rows.push({ node, score, exact, project: item.project, types: item.types });
      });
      return rows;
    }
    const exact = new Set(query.exact);
    const scores = new Map(matches.map((m) => [m.node, m.score]));
    if (query.idNode !== undefined && !scores.has(query.idNode)) scores.set(query.idNode, 0);
    const nodes = [...scores.keys()];
    const types = new Map<string, string[]>();
    const chunks: string[][] = [];
    for (let at = 0; at < nodes.length; at += VALUES_ROWS) chunks.push(nodes.slice(at, at + VALUES_ROWS));
    // A few queries at once: the store answers them on its own threads.
    const select = async () => {
      for (let chunk = chunks.shift(); chunk; chunk = chunks.shift())
        for (const row of await this.store.select(selectedMatchesQuery(query.filter, chunk))) {
          const node = row['item']!.value;
          let list = types.get(node);
          if (!list) types.set(node, (list = []));
          const type = row['type']?.value;
          if (type !== undefined) list.push(type);
        }
    };
    await Promise.all(Array.from({ length: Math.min(SELECTIONS_AT_ONCE, chunks.length) }, select));
    for (const [node, list] of types) {
      const parsed = parseItemNode(node);
      if (parsed) rows.push({ node, score: scores.get(node)!, exact: exact.has(node), project: parsed.project, types: list });
    }
    return rows;
  }

  /**
   * A listing of many matched items, a chunk of them a query, one after another: the items are
   * distinct, so the total is the sum of the chunks' counts, and the page is among each chunk's first
   * `offset + limit` rows (after the cursor), merged in the listing's order.
   */
  private async chunkedListing(f: ListingFilter, sort: SortKey[], page: { offset: number; limit: number; after?: Binding[] }): Promise<[number, ListedItem[]]> {
    const items = f.items!;
    let total = 0;
    const rows: ListedItem[] = [];
    const head = { offset: 0, limit: page.offset + page.limit, ...(page.after ? { after: page.after } : {}) };
    for (let at = 0; at < items.length; at += LISTED_ITEMS_AT_ONCE) {
      const chunk = { ...f, items: items.slice(at, at + LISTED_ITEMS_AT_ONCE) };
      total += await this.count(chunk);
      rows.push(...(await this.page(chunk, sort, head)));
    }
    rows.sort(cursorOrder(sort));
    return [total, rows.slice(page.offset, page.offset + page.limit)];
  }

  async page(f: ListingFilter, sort: SortKey[], page: { offset: number; limit: number; after?: Binding[] }): Promise<ListedItem[]> {
    const rows = await this.store.select(pageQuery(f, sort, page));
    const seen = new Set<string>();
    const out: ListedItem[] = [];
    for (const row of rows) {
      const node = row['item']!.value;
      // A multi-valued payload sort field yields one row per value: the first (lowest) counts.
      if (seen.has(node)) continue;
      seen.add(node);
      const r = ref(row);
      if (!r) continue;
      out.push({
        ...r,
        cursor: [...sort.map((_, i) => row[`s${i}`] ?? ({ type: 'literal', value: '', datatype: MISSING_DATATYPE } as Binding)), row['item']!],
      });
    }
    return out;
  }

  async count(f: ListingFilter): Promise<number> {
    const [row] = await this.store.select(countQuery(f));
    return Number(row?.['total']?.value ?? 0);
  }

  async buckets(f: ListingFilter, by: 'project' | 'type'): Promise<Bucket[]> {
    const rows = await this.store.select(aggregationQuery(f, by));
    return rows.map((row) => ({ key: row['key']!.value, count: Number(row['count']!.value) }));
  }

  async incoming(kind: string, project: ProjectRef, target: string, offset: number, limit: number): Promise<{ total: number; rows: LinkRow[] }> {
    const params = { target: n(target), kind: str(kind), project: str(project) };
    const [countRow] = await this.store.select(incomingCount.bound(params));
    const rows = await this.store.select(
      incoming.bound(params, (q) => {
        Object.assign(q, { limit, offset });
      }),
    );
    return {
      total: Number(countRow?.['total']?.value ?? 0),
      rows: rows.flatMap((row) => {
        const r = ref(row);
        return r ? [{ ...r, paths: JSON.parse(row['paths']!.value) as string[] }] : [];
      }),
    };
  }

  /** The item's links, from the store; `links`, the item's own (its state's), name each target as written. */
  async outgoing(kind: string, project: ProjectRef, id: string, links?: readonly Link[]): Promise<OutgoingRow[]> {
    const node = itemNode(kind, project, id);
    const rows = await this.store.select(outgoing.bound({ item: n(node) }));
    // The store holds a target as spelled (`spelledIri`): the item's own links name it as written.
    const written = new Map((links ?? this.memory?.index.item(node)?.links ?? []).map((link) => [spelledIri(link.target), link.target]));
    return rows.map((row) => {
      const target = row['target']!.value;
      return { target: written.get(target) ?? target, paths: JSON.parse(row['paths']!.value) as string[] };
    });
  }
}
