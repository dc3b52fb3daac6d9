import type { Caller } from '../../kernel/Caller.js';
import type { ProjectRef } from '../../kernel/labels.js';
import { resourceKey } from '../../kernel/logKeys.js';
import type { ContextSource, ResolvedContext } from '../../jsonld/ContextResolver.js';
import type { ResourceState } from './Resource.js';
import type { RemoteContextRef } from './ResourceEvent.js';
import type { ResolveElsewhere } from './ResolveElsewhere.js';
import type { RevisionReader } from './RevisionReader.js';

type ProjectContextRef = Extract<RemoteContextRef, { type: 'ProjectContextRef' }>;

/**
 * Contexts kept as resources: a resource of the project itself, else one of another project found
 * through the project's resolvers with the caller's access checked (Delta's
 * `ResolverContextResolution`, deprecated resources included). Each is pinned to the project and
 * revision it was found at, so later reads expand and compact with exactly that document.
 */
export class ProjectContexts {
  constructor(
    private readonly states: { get(key: string): Promise<ResourceState | undefined> },
    private readonly reader: RevisionReader,
    private readonly elsewhere: ResolveElsewhere,
  ) {}

  /** Where the expansion of a payload written to `project` by `caller` finds contexts named by IRI. */
  source(project: ProjectRef, caller: Caller | undefined): ContextSource {
    return async (iri) => {
      const own = await this.states.get(resourceKey(project, iri));
      if (own) return this.context(iri, project, own);
      const found = await this.elsewhere({ project, id: iri, kind: 'resources', caller, excludeDeprecated: false });
      return found && this.context(iri, found.project, found.state);
    };
  }

  /** The document a revision pinned, read back at the pinned revision. */
  async pinned(ref: ProjectContextRef): Promise<unknown> {
    const state = await this.states.get(resourceKey(ref.resource.project, ref.resource.id));
    if (!state) return undefined;
    const { content } = await this.reader.at(state, Math.min(ref.resource.rev, state.rev));
    return { '@context': content.source['@context'] };
  }

  private async context(iri: string, project: ProjectRef, state: ResourceState): Promise<ResolvedContext | undefined> {
    const { content } = await this.reader.at(state, state.rev);
    if (!('@context' in content.source)) return undefined;
    return {
      document: { '@context': content.source['@context'] },
      ref: { type: 'ProjectContextRef', iri, resource: { id: state.id, project, rev: state.rev } },
    };
  }
}
