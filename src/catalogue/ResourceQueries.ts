import type { ProjectRef } from '../kernel/labels.js';
import type { ItemRef } from '../kernel/ItemRef.js';
import type { Aggregations, ListingRequest, Listings } from './Listings.js';
import type { Binding } from '../store/GraphStore.js';
import type { CatalogueQueries } from './CatalogueQueries.js';
import type { ItemKind } from '../domain/resources/ItemKind.js';
import { RESOURCE_KIND } from '../domain/resources/ItemKind.js';
import type { ResourceState } from '../domain/resources/Resource.js';
import type { ResourceService } from '../domain/resources/ResourceService.js';
import type { ResourceStates } from '../domain/resources/resourcePorts.js';

/** A link entry: a known resource (with its state) or an external IRI. */
export interface LinkEntry {
  id: string;
  paths: string[];
  state?: ResourceState;
}

export interface Page<T> {
  total: number;
  items: T[];
  next?: Binding[];
  scores?: number[];
  maxScore?: number;
}

/** The read side of resources (or, by `kind`, schemas): listings, aggregations, incoming and outgoing links. */
export class ResourceQueries {
  constructor(
    private readonly states: ResourceStates,
    private readonly listings: Listings,
    private readonly catalogue: CatalogueQueries,
    private readonly resources: ResourceService,
    private readonly kind: ItemKind = RESOURCE_KIND,
  ) {}

  async list(req: ListingRequest): Promise<Page<ResourceState>> {
    const result = await this.listings.list(req);
    const states = await this.states.getMany(result.items.map((i) => this.kind.key(i.project, i.id)));
    if (!result.scores) return { ...result, items: states.flatMap((state) => state ?? []) };
    // Scores stay aligned with the items they rank.
    const kept = result.items.flatMap((_, n) => {
      const state = states[n];
      return state ? [{ state, score: result.scores![n]! }] : [];
    });
    return { ...result, items: kept.map((k) => k.state), scores: kept.map((k) => k.score) };
  }

  aggregate(req: ListingRequest): Promise<Aggregations> {
    return this.listings.aggregate(req);
  }

  /** Resources of the project whose current revision links to this one. */
  async incoming(item: ItemRef, from: number, size: number): Promise<Page<LinkEntry>> {
    const ref = item.project;
    const state = await this.resources.locate(item);
    const { total, rows } = await this.catalogue.incoming(this.kind.name, ref, state.id, from, size);
    const known = await this.known(rows.map((r) => [r.project, r.id]));
    return { total, items: rows.map((r, at) => ({ id: r.id, paths: r.paths, ...known[at]! })) };
  }

  /** What this resource's current revision links to; external IRIs only when asked for. */
  async outgoing(item: ItemRef, from: number, size: number, external: boolean): Promise<Page<LinkEntry>> {
    const ref = item.project;
    const state = await this.resources.locate(item);
    // A target is known when it is an item of this project; its metadata comes from its state.
    const targets = await this.catalogue.outgoing(this.kind.name, ref, state.id, state.links);
    const known = await this.known(targets.map((r) => [ref, r.target]));
    const rows = targets.map((r, at) => ({ id: r.target, paths: r.paths, ...known[at]! }));
    const kept = external ? rows : rows.filter((r) => r.state);
    return { total: kept.length, items: kept.slice(from, from + size) };
  }

  /** The states of items named by project and id, read at once: `{}` where none. */
  private async known(items: readonly (readonly [ProjectRef, string])[]): Promise<{ state?: ResourceState }[]> {
    const states = await this.states.getMany(items.map(([project, id]) => this.kind.key(project, id)));
    return states.map((state) => (state ? { state } : {}));
  }
}
