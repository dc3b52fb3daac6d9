import type { AclCheck } from '../kernel/AclCheck.js';
import type { CatalogueQueries } from '../catalogue/CatalogueQueries.js';
import type { Listings } from '../catalogue/Listings.js';
import type { Lifecycle } from '../domain/Lifecycle.js';
import type { ProjectService } from '../domain/projects/ProjectService.js';
import type { ResourceState } from '../domain/resources/Resource.js';
import type { ResourceService } from '../domain/resources/ResourceService.js';
import type { Selector } from '../domain/resources/resourcePorts.js';
import type { EventLog } from '../events/EventLog.js';
import type { FilePort, StoragePort } from './filePorts.js';
import type { Addresses } from '../kernel/Addresses.js';
import type { Clock } from '../kernel/Clock.js';
import type { JsonObject } from '../kernel/json.js';
import type { ProjectRef } from '../kernel/labels.js';
import type { Log } from '../kernel/Log.js';
import type { ProjectItemStates } from '../projection/ProjectItemStates.js';
import type { ItemStates } from '../events/ItemStates.js';
import type { States } from '../projection/States.js';
import type { ChangeFeed } from '../projection/ChangeFeed.js';
import type { SearchResponse } from '../search/dsl/executeSearch.js';
import type { SearchDoc } from '../search/dsl/fields.js';
import type { CpuTurns } from '../workers/CpuTurns.js';
import type { Redis } from 'ioredis';

import type { ProjectSparqlStore } from '../store/ProjectSparqlStore.js';

/** Resources and schemas as a module reads them: by `@id` in a project, rendered as their routes render them. */
export interface ItemReader {
  /** The item with that `@id` in the project (of `kind`, else a schema first, then a resource), current state. */
  find(project: ProjectRef, id: string, kind?: 'resources' | 'schemas'): Promise<{ kind: 'resources' | 'schemas'; state: ResourceState } | undefined>;
  /** Its JSON-LD body at the selected revision (`GET /v1/resources/...`). */
  body(kind: 'resources' | 'schemas', project: ProjectRef, id: string, selector: Selector): Promise<JsonObject>;
  /** Its payload as sent, annotated with its metadata when asked (`.../source?annotate=true`). */
  source(kind: 'resources' | 'schemas', project: ProjectRef, id: string, selector: Selector, annotate: boolean): Promise<JsonObject>;
}

/** The states of one kind's items in a project: their log keys, then their states at those keys. */
export interface ProjectItems {
  keysOf(project: ProjectRef): Promise<string[]>;
  getMany(keys: readonly string[]): Promise<(ResourceState | undefined)[]>;
}

/**
 * Resources and schemas as the modules that read their revisions see them (history, diffs and
 * blame; bulk writes and exports; validation jobs): their services, their states (by log key), the
 * log their revisions are read from, and a revision's triples as its revision graph holds them.
 */
export interface ItemRevisions {
  services: Record<'resources' | 'schemas', ResourceService>;
  /** Where their states are kept (shared on Redis): no process holds all of them. */
  states: Record<'resources' | 'schemas', ProjectItems>;
  log: Pick<EventLog, 'read' | 'get'>;
  toNQuads(expanded: JsonObject[]): Promise<string>;
}

/** What the composition root hands every capability module once the core is built. */
export interface Platform {
  /** The states this process holds (kinds that grow with the data are not among them where the log keeps them). */
  states: States;
  /** A project's items over every kind, the shared ones read where the log keeps them. */
  projectItems: ProjectItemStates;
  /** The items' latest states by key: where the log keeps them (Redis), else this process's fold. */
  itemStates: ItemStates;
  projects: ProjectService;
  lifecycle: Lifecycle;
  clock: Clock;
  addresses: Addresses;
  acl: AclCheck;
  listings: Listings;
  catalogue: CatalogueQueries;
  items: ItemReader;
  revisions: ItemRevisions;
  /** Handed over by the files module, wired before the modules that read files. */
  storages: StoragePort;
  files: FilePort;
  log: Log;
  /** The changes the states' fold hands on: projections a module creates at run time follow it (views). */
  feed: ChangeFeed;
  /** The event loop's turns that searches and other costly work share (one slice at a time). */
  turns: CpuTurns;
  /** The permissions defined now (`/v1/permissions`). */
  permissions(): readonly string[];
  /**
   * The search engine over a project's documents (a project's default Elasticsearch view); absent without a text index.
   * `documents` is read from the external store when there is one (no replica keeps them): hence a promise.
   */
  defaultSearch?: { query(project: ProjectRef, body: unknown): Promise<SearchResponse>; documents(project: ProjectRef): Promise<readonly SearchDoc[]> };
  /** The SPARQL endpoint's store (user-defined SPARQL views keep their graphs in it), and when it holds the log up to a position. */
  sparql: {
    store: ProjectSparqlStore;
    reach(seq: number): Promise<void>;
    /** Views' graphs are written by the store's lease holder (`ViewGraphWriter`). */ shared?: boolean;
  };
  /** How far the projections behind a project's default views are in the log: its search (text index) and its SPARQL endpoint's store. */
  indexPositions: { search(): number; sparql(): number };
  /** The event log's Redis, when there is one: where state every replica shares is kept (keys under the log's hash tag). */
  redis?: { readonly connection: Redis; keyOf(name: string): string };
}
