import type { Router } from 'express';
import type { IncomingMessage } from 'node:http';
import type { Kind } from '../events/EventLog.js';
import type { KindDefinition } from '../domain/KindDefinition.js';
import type { Projection } from '../projection/Projection.js';
import type { SharedStoreWriter, SharedStoreWriterDeps } from '../projection/SharedStoreWriter.js';
import type { Routes } from '../http/route.js';
import type { Caller } from '../kernel/Caller.js';
import type { ProjectRef } from '../kernel/labels.js';
import type { AsOfGraphsSource, SparqlViews } from '../sparqlEndpoint/SparqlEndpoint.js';
import type { Addresses } from '../kernel/Addresses.js';
import type { ViewedKind } from '../domain/resources/MultiFetch.js';
import type { StateDocument } from '../search/TextProjection.js';

/**
 * A capability (resolvers, archives, views...) as one module: what the generic machinery needs
 * before the log is replayed (its kinds, their event streams, its projections, the statuses of its
 * rejections), then, once the platform's services exist, its routes, its services and what it does
 * when a project is created. The composition root only loops over the registered capabilities.
 */
export interface CapabilityModule<Platform, Services> {
  readonly name: string;
  /** Registered with the projector, snapshots and event streams. */
  readonly kinds: readonly KindDefinition[];
  /** Kinds with their own `/v1/{kind}/events` streams. */
  readonly streams: readonly Kind[];
  readonly projections: readonly Projection[];
  /** The HTTP status of each rejection type the module raises. */
  readonly statuses: Readonly<Record<string, number>>;
  /** Its part of what the shared store's single writer writes (the external store only), under the same lease. */
  storeWriter?(deps: SharedStoreWriterDeps): SharedStoreWriter;
  /** Requests whose body it streams through itself, bounded by its own limits (bulk imports): not held to the JSON body limit. */
  streamedBody?(req: IncomingMessage): boolean;
  /** How the items of its listed kinds read as search documents (the text index, the external store's search), by kind. */
  documents?(addresses: Addresses): Readonly<Record<string, StateDocument>>;
  /** Called once the platform is built (states replayed, writers ready). */
  wire(platform: Platform): WiredCapability<Services>;
}

export interface WiredCapability<Services> {
  services: Services;
  routes(routes: Routes, router: Router): void;
  /** Runs right after a project is created (its default resolver, for instance). */
  projectCreated?(ref: ProjectRef, caller: Caller): Promise<void>;
  /**
   * Runs before a project's deletion, while its items are still in the states: returns what removes,
   * once the deletion is durable, what the module keeps of them outside the log (files' bytes).
   */
  projectDeleting?(ref: ProjectRef): Promise<() => Promise<void>>;
  /** Runs once a project's deletion is durable: removes what the module keeps of it outside the log (archives). */
  projectDeleted?(ref: ProjectRef): Promise<void>;
  /** The kinds of its items counted in a project's statistics (`GET /v1/projects/{org}/{project}/statistics`). */
  counted?: readonly string[];
  /** Work before the service listens, once every capability is wired (files: removing uploads a crash left). */
  ready?(): Promise<void>;
  /** Its kinds as multi-fetch reads them (`GET /v1/multi-fetch/resources`), tried after the core's. */
  viewed?: readonly ViewedKind[];
  /** SPARQL views other than a project's default one, queried through the project's SPARQL endpoint (views). */
  sparqlViews?: SparqlViews;
  /** The project's default graph as of an instant or a tag, for the SPARQL endpoint's `at=` and `tag=` (history). */
  asOfGraphs?: AsOfGraphsSource;
  /** Releases what the module opened (connections), at shutdown. */
  close?(): Promise<void>;
}
