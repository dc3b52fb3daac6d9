import type { Kind, LogEvent } from '../events/EventLog.js';

/** Core kinds with their own event streams (spec §4: resources, schemas; the files module adds storages and files); capability modules add theirs. */
export const STREAM_KINDS: readonly Kind[] = ['resources', 'schemas'];
export type StreamKind = Kind;

/**
 * Which events a stream carries: the global stream every kind (orgs, projects, ACLs... included),
 * a kind stream only that kind, narrowed to an organization or a project.
 */
export interface EventScope {
  kind?: StreamKind;
  org?: string;
  /** `org/project`. */
  project?: string;
}

export const inScope = (scope: EventScope, event: LogEvent): boolean => {
  if (scope.kind === undefined) return true;
  if (event.kind !== scope.kind) return false;
  if (scope.project !== undefined) return event.project === scope.project;
  if (scope.org !== undefined) return event.org === scope.org;
  return true;
};
