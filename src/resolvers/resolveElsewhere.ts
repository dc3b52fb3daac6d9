import type { ResolveElsewhere } from '../domain/resources/ResolveElsewhere.js';
import type { Resolution } from './Resolution.js';

/**
 * The core's port onto resolution (contexts and `owl:imports` of other projects), at the latest
 * revision. Late-bound: the resolvers module is wired after the services that expand and validate.
 */
export const resolveElsewhere =
  (resolution: () => Resolution): ResolveElsewhere =>
  async ({ project, id, kind, caller, excludeDeprecated }) => {
    const { found } = await resolution().resolve(project, id, {}, caller, { kind, excludeDeprecated });
    return found && { project: found.project, state: found.state };
  };
