import type { ProjectState } from '../domain/projects/Project.js';
import type { ResourceState } from '../domain/resources/Resource.js';
import type { Addresses } from '../kernel/Addresses.js';
import type { RenderLookups } from '../kernel/RenderLookups.js';

/** Rendering lookups answered from this process's projected states. */
export const stateLookups = (
  projects: ReadonlyMap<string, ProjectState>,
  resources: ReadonlyMap<string, ResourceState>,
  addresses: Addresses,
): RenderLookups => ({
  addresses,
  projectUuids: (ref) => {
    const project = projects.get(ref);
    return project && { uuid: project.uuid, orgUuid: project.orgUuid };
  },
  schemaOf: (key) => {
    const resource = resources.get(key);
    return resource && { schema: resource.schema, schemaProject: resource.schemaProject };
  },
});
