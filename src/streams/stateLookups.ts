import type { ProjectState } from '../domain/projects/Project.js';
import type { ResourceState } from '../domain/resources/Resource.js';
import type { LogEvent } from '../events/EventLog.js';
import type { ItemStates } from '../events/ItemStates.js';
import type { Addresses } from '../kernel/Addresses.js';
import type { RenderLookups } from '../kernel/RenderLookups.js';

/**
 * Rendering lookups for a page of events: projects from this process's projected states, the
 * current schema of the resources whose events do not carry it read in one go where their states
 * are kept (no replica holds every resource).
 */
export const stateLookups =
  (projects: ReadonlyMap<string, ProjectState>, resources: Pick<ItemStates, 'getMany'>, addresses: Addresses) =>
  async (events: readonly LogEvent[]): Promise<RenderLookups> => {
    const keys = [...new Set(events.filter((e) => e.kind === 'resources' && (e.event as { schema?: unknown }).schema === undefined).map((e) => e.key))];
    const found = keys.length ? await resources.getMany<ResourceState>('resources', keys) : [];
    const schemas = new Map(keys.map((key, at) => [key, found[at]]));
    return {
      addresses,
      projectUuids: (ref) => {
        const project = projects.get(ref);
        return project && { uuid: project.uuid, orgUuid: project.orgUuid };
      },
      schemaOf: (key) => {
        const resource = schemas.get(key);
        return resource && { schema: resource.schema, schemaProject: resource.schemaProject };
      },
    };
  };
