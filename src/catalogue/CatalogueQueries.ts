import type { ProjectRef } from '../kernel/labels.js';
import type { Binding, GraphStore, Row } from '../store/GraphStore.js';
import type { Bucket, ItemRef, LinkRow, ListedItem, OutgoingRow } from './catalogueModel.js';

export type { Bucket, ItemRef, LinkRow, ListedItem, OutgoingRow };
import { itemNode, parseItemNode } from '../store/graphNames.js';
import type { ListingFilter, SortKey } from './ListingQuery.js';
import { aggregationQuery, countQuery, pageQuery } from './ListingQuery.js';
import { n, Statement, str } from '../store/sparql.js';
import { spelledIri } from '../rdf/terms.js';
import { CatalogueIndex } from './CatalogueIndex.js';
import type { CatalogueItem } from './catalogue.js';
import { PayloadSortIndexes } from './PayloadSortIndexes.js';
import { MISSING_DATATYPE } from './SortValue.js';

const incoming = new Statement('incoming');
const incomingCount = new Statement('incoming-count');
const outgoing = new Statement('outgoing');

const ref = (row: Row, name = 'item'): ItemRef | undefined => {
  const node = row[name]?.value;
  const parsed = node === undefined ? undefined : parseItemNode(node);
  return parsed && { project: parsed.project, id: parsed.id };
};

/** Listings, aggregations and link queries: SPARQL over the catalogue and the revision graphs. */
export class CatalogueQueries {
  constructor(
    private readonly store: GraphStore,
    private readonly index: CatalogueIndex,
    private readonly sorts: PayloadSortIndexes,
  ) {}

  /** A page and the total: from the in-memory indexes for the default order and single payload sorts, else SPARQL. */
  async listing(f: ListingFilter, sort: SortKey[], page: { offset: number; limit: number; after?: Binding[] }): Promise<{ total: number; rows: ListedItem[] }> {
    // A set of matched items is filtered by SPARQL only: the in-memory indexes know nothing of it.
    if (f.items === undefined && CatalogueIndex.serves(sort)) {
      const { total, rows } = this.index.page(f, page);
      return { total, rows: rows.map((r) => ({ project: r.item.project, id: r.item.id, cursor: r.cursor })) };
    }
    if (f.items === undefined && PayloadSortIndexes.serves(sort)) {
      const served = await this.sorts.listing(f, sort[0]!, page);
      if (served) return served;
    }
    const [total, rows] = await Promise.all([this.count(f), this.page(f, sort, page)]);
    return { total, rows };
  }

  /** The items of `nodes` the listing selects: their places in `nodes`, and whether each is at one of the `exact` nodes (see CatalogueIndex). */
  eachSelected(f: ListingFilter, nodes: readonly { node: string }[], exact: Iterable<string>, visit: (at: number, exact: boolean) => void): void {
    this.index.eachSelected(f, nodes, exact, visit);
  }

  /** The projects in the listing's scope that hold items of its kind. */
  projects(f: ListingFilter): string[] {
    return this.index.projects(f);
  }

  /** Whether the listing selects an item, by node, with the item's catalogue row. */
  selector(f: ListingFilter): (node: string) => CatalogueItem | undefined {
    return this.index.selector(f);
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

  async outgoing(kind: string, project: ProjectRef, id: string): Promise<OutgoingRow[]> {
    const node = itemNode(kind, project, id);
    const rows = await this.store.select(outgoing.bound({ item: n(node) }));
    // The store holds a target as spelled (`spelledIri`): the item's own links name it as written.
    const written = new Map((this.index.item(node)?.links ?? []).map((link) => [spelledIri(link.target), link.target]));
    return rows.map((row) => {
      const target = row['target']!.value;
      return { target: written.get(target) ?? target, paths: JSON.parse(row['paths']!.value) as string[] };
    });
  }
}
