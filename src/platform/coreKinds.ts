import type { KindDefinition } from '../domain/KindDefinition.js';
import { orgDefinition } from '../domain/orgs/orgDefinition.js';
import { projectDefinition } from '../domain/projects/projectDefinition.js';
import { itemDefinition } from '../domain/resources/itemDefinition.js';
import { RESOURCE_KIND } from '../domain/resources/ItemKind.js';
import type { ResourceState } from '../domain/resources/Resource.js';
import { SCHEMA_KIND } from '../domain/schemas/schemaKind.js';
import { annotatedSource, resourceBody, resourceMetadata } from '../http/render/resources.js';
import { annotatedSchema, schemaBody, schemaMetadata } from '../http/render/schemas.js';
import type { Addresses } from '../kernel/Addresses.js';
import type { JsonObject } from '../kernel/json.js';
import { STREAM_KINDS } from '../streams/EventScope.js';

/**
 * The core's kinds, registered once: their definitions (the projector, snapshots and event streams
 * loop over them), how their items read as search documents and in multi-fetch, and which have
 * event streams. A capability registers its own kinds the same way (`CapabilityModule`).
 */
export const coreKinds = (addresses: Addresses) => {
  const resources = {
    kind: RESOURCE_KIND,
    definition: itemDefinition(RESOURCE_KIND),
    document: (state: ResourceState, payload: JsonObject) => resourceBody(state, payload, addresses),
    renderers: { metadata: resourceMetadata, body: resourceBody, annotated: annotatedSource },
  };
  const schemas = {
    kind: SCHEMA_KIND,
    definition: itemDefinition(SCHEMA_KIND),
    document: (state: ResourceState, payload: JsonObject) => schemaBody(state, payload, addresses),
    renderers: { metadata: schemaMetadata, body: schemaBody, annotated: annotatedSchema },
  };
  return {
    orgs: orgDefinition,
    projects: projectDefinition,
    resources,
    schemas,
    /** In the order the projector folds them. */
    definitions: [orgDefinition, projectDefinition, resources.definition, schemas.definition] as KindDefinition[],
    /** Search documents: kinds whose document is their payload, and kinds whose document is read off their state. */
    documents: {
      payloads: { [resources.kind.name]: resources.document, [schemas.kind.name]: schemas.document },
      states: {},
    },
    streams: STREAM_KINDS,
  };
};

export type CoreKinds = ReturnType<typeof coreKinds>;

/** The kinds that grow with the data, whose states are read through the item states port (shared on Redis, held by no replica). */
export const SHARED_KINDS: ReadonlySet<string> = new Set(['resources', 'schemas', 'files']);

/**
 * The kinds no replica holds: where the log keeps every item's state for the replicas (Redis) and
 * the store answers listings (external), those that grow with the data. Embedded, and on Redis beside
 * an embedded store (whose catalogue and datasets are rebuilt from the states), every kind is held.
 */
export const sharedKinds = (stateInLog: boolean, externalStore: boolean): ReadonlySet<string> =>
  stateInLog && externalStore ? SHARED_KINDS : new Set<string>();
