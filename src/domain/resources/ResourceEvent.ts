import type { EventBase } from '../Metadata.js';
import type { ProjectRef } from '../../kernel/labels.js';

import type { JsonObject } from '../../kernel/json.js';

export type { JsonObject };

import type { RemoteContextRef } from '../../jsonld/ContextResolver.js';

export type { RemoteContextRef };

/** An `owl:imports` of a schema, pinned to the revision it resolved to (a schema, or a resource holding ontology triples). */
export interface ImportRef {
  kind: 'schemas' | 'resources';
  id: string;
  project: ProjectRef;
  rev: number;
}

/** What a content revision (create, update, refresh) carries. */
export interface Content {
  schema: string;
  schemaProject: ProjectRef;
  types: string[];
  source: JsonObject;
  expanded: JsonObject[];
  remoteContexts: RemoteContextRef[];
  /** Schemas only: every import, transitively, so the revision's shapes are fixed forever. */
  imports?: ImportRef[];
}

type Base = EventBase & { id: string; project: ProjectRef };

export type ResourceEvent =
  | (Base & Content & { type: 'ResourceCreated'; tag?: string })
  | (Base & Content & { type: 'ResourceUpdated'; tag?: string })
  | (Base & Content & { type: 'ResourceRefreshed' })
  | (Base & { type: 'ResourceTagAdded'; tag: string; targetRev: number; types: string[] })
  | (Base & { type: 'ResourceTagDeleted'; tag: string; types: string[] })
  | (Base & { type: 'ResourceDeprecated'; types: string[] })
  | (Base & { type: 'ResourceUndeprecated'; types: string[] })
  | (Base & { type: 'ResourceSchemaUpdated'; schema: string; schemaProject: ProjectRef; types: string[] })
  | (Base & { type: 'ResourceDeleted' });

export type ResourceEventType = ResourceEvent['type'];

export const isContentEvent = (e: ResourceEvent): e is Extract<ResourceEvent, { type: 'ResourceCreated' | 'ResourceUpdated' | 'ResourceRefreshed' }> =>
  e.type === 'ResourceCreated' || e.type === 'ResourceUpdated' || e.type === 'ResourceRefreshed';
