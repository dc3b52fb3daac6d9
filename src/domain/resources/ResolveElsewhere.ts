import type { Caller } from '../../kernel/Caller.js';
import type { ProjectRef } from '../../kernel/labels.js';
import type { ResourceState } from './Resource.js';

/** What to find through a project's resolvers: an item of one kind, by `@id`, for one caller. */
export interface ElsewhereRequest {
  project: ProjectRef;
  id: string;
  kind: 'resources' | 'schemas';
  /** Whose identities a resolver with `useCurrentCaller` checks; none resolves as anonymous. */
  caller: Caller | undefined;
  /** Delta refuses deprecated schemas and imports, but not deprecated contexts. */
  excludeDeprecated: boolean;
}

/**
 * An item found through a project's resolvers (Delta's `ResourceResolution`): resolvers by
 * priority, each target project's read permission checked for the resolver's identities.
 * Undefined when no resolver finds it.
 */
export type ResolveElsewhere = (request: ElsewhereRequest) => Promise<{ project: ProjectRef; state: ResourceState } | undefined>;
