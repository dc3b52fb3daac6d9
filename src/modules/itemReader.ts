import type { ResourceState } from '../domain/resources/Resource.js';
import type { ResourceService } from '../domain/resources/ResourceService.js';
import type { ResourceStates } from '../domain/resources/resourcePorts.js';
import { annotatedSource, resourceBody } from '../http/render/resources.js';
import { annotatedSchema, schemaBody } from '../http/render/schemas.js';
import type { Addresses } from '../kernel/Addresses.js';
import { resourceKey, schemaKey } from '../kernel/logKeys.js';
import type { ItemReader } from './Platform.js';

/** Resources and schemas for modules: found by `@id` (a schema first), rendered as their routes render them. */
export const itemReader = (deps: {
  resourceStates: ResourceStates;
  schemaStates: ResourceStates;
  resources: ResourceService;
  schemas: ResourceService;
  addresses: Addresses;
}): ItemReader => ({
  find: async (project, id, kind) => {
    const schema = kind === 'resources' ? undefined : await deps.schemaStates.get(schemaKey(project, id));
    if (schema) return { kind: 'schemas' as const, state: schema };
    const resource = kind === 'schemas' ? undefined : await deps.resourceStates.get(resourceKey(project, id));
    return resource && { kind: 'resources' as const, state: resource };
  },
  body: async (kind, project, id, selector) => {
    const { state, compacted } = await (kind === 'schemas' ? deps.schemas : deps.resources).fetchCompacted({ project, id }, selector);
    return kind === 'schemas' ? schemaBody(state, compacted, deps.addresses) : resourceBody(state, compacted, deps.addresses);
  },
  source: async (kind, project, id, selector, annotate) => {
    const { state, content } = await (kind === 'schemas' ? deps.schemas : deps.resources).fetch({ project, id }, selector);
    if (!annotate) return content.source;
    return kind === 'schemas' ? annotatedSchema(state, content.source, deps.addresses) : annotatedSource(state, content.source, deps.addresses);
  },
});
