import { KindQueries } from '../catalogue/KindQueries.js';
import type { Caller } from '../kernel/Caller.js';
import type { ProjectRef } from '../kernel/labels.js';
import type { CapabilityModule } from '../modules/Capability.js';
import type { Platform } from '../modules/Platform.js';
import { Resolution } from './Resolution.js';
import { resolverDefinition, resolverKey } from './resolverDefinition.js';
import { resolverRoutes } from './resolverRoutes.js';
import { resolverStatuses } from './resolverRejections.js';
import { ResolverService } from './ResolverService.js';

export interface ResolverServices {
  resolvers: ResolverService;
  resolution: Resolution;
}

/** Resolvers as one capability: their kind, streams, statuses, service, resolution and routes. */
export const createResolversModule = (): CapabilityModule<Platform, ResolverServices> => ({
  name: 'resolvers',
  kinds: [resolverDefinition],
  streams: ['resolvers'],
  projections: [],
  statuses: resolverStatuses,
  wire: (p) => {
    const states = p.states.of(resolverDefinition);
    const resolvers = new ResolverService({ states, projects: p.projects, lifecycle: p.lifecycle, clock: p.clock });
    const resolution = new Resolution(
      resolvers,
      async (project, id, kind) => {
        const found = await p.items.find(project, id, kind);
        return found && { ...found, project };
      },
      p.acl,
    );
    const queries = new KindQueries('resolvers', states, resolverKey, p.listings, p.catalogue);
    return {
      services: { resolvers, resolution },
      routes: (routes, router) =>
        resolverRoutes(routes, router, { resolvers, resolution, queries, projects: p.projects, items: p.items, addresses: p.addresses }),
      projectCreated: (ref: ProjectRef, caller: Caller) => resolvers.createDefault(ref, caller),
    };
  },
});
