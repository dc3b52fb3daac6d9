import type { ProjectRef } from '../kernel/labels.js';
import type { CatalogueQueries } from './CatalogueQueries.js';
import type { ListingRequest, Listings } from './Listings.js';
import type { Page } from './ResourceQueries.js';

/** A link of an item: its other end and the predicates that reach it. */
export interface KindLink {
  id: string;
  paths: string[];
}

/** Where a kind's states are read when they are not all held in process (files on the shared layout). */
export interface KindStateReader<S> {
  getMany(keys: readonly string[]): Promise<(S | undefined)[]>;
}

/** The read side of a kind kept whole in its states (storages, files): listings and links over the catalogue. */
export class KindQueries<S> {
  constructor(
    private readonly kind: string,
    private readonly states: ReadonlyMap<string, S> | KindStateReader<S>,
    private readonly key: (ref: ProjectRef, id: string) => string,
    private readonly listings: Listings,
    private readonly catalogue: CatalogueQueries,
  ) {}

  async list(req: ListingRequest): Promise<Page<S>> {
    const result = await this.listings.list({ ...req, kind: this.kind });
    // An item deleted since the catalogue answered is left out, with its score.
    const keys = result.items.map((i) => this.key(i.project, i.id));
    const states = 'getMany' in this.states ? await this.states.getMany(keys) : keys.map((key) => (this.states as ReadonlyMap<string, S>).get(key));
    const found = states.map((state, at) => ({ state, score: result.scores?.[at] }));
    const kept = found.filter((f): f is { state: S; score: number | undefined } => f.state !== undefined);
    return {
      ...result,
      items: kept.map((f) => f.state),
      ...(result.scores ? { scores: kept.map((f) => f.score ?? 0) } : {}),
    };
  }

  /** Resources of the project whose current revision links to the item. */
  async incoming(ref: ProjectRef, id: string, from: number, size: number): Promise<{ total: number; items: KindLink[] }> {
    const { total, rows } = await this.catalogue.incoming('resources', ref, id, from, size);
    return { total, items: rows.map((r) => ({ id: r.id, paths: r.paths })) };
  }

  /** What the item's current revision links to. */
  async outgoing(ref: ProjectRef, id: string, from: number, size: number): Promise<{ total: number; items: KindLink[] }> {
    const rows = await this.catalogue.outgoing(this.kind, ref, id);
    return { total: rows.length, items: rows.slice(from, from + size).map((r) => ({ id: r.target, paths: r.paths })) };
  }
}
