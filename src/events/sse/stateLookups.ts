import type { States } from '../../projection/States.js';
import type { RenderLookups } from './renderEvent.js';

/** Rendering lookups answered from this process's projected states. */
export const stateLookups = (states: States, baseUrl: string): RenderLookups => ({
  baseUrl,
  projectUuids: (ref) => {
    const project = states.projects.get(ref);
    return project && { uuid: project.uuid, orgUuid: project.orgUuid };
  },
  schemaOf: (key) => {
    const resource = states.resources.get(key);
    return resource && { schema: resource.schema, schemaProject: resource.schemaProject };
  },
});
