import type { Kind, LogEvent } from '../EventLog.js';

/** Kinds with their own event streams (spec §4: resources, schemas, storages; files as in Delta). */
export const STREAM_KINDS = ['resources', 'schemas', 'storages', 'files'] as const;
export type StreamKind = (typeof STREAM_KINDS)[number];

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
  if (event.kind !== (scope.kind as Kind)) return false;
  if (scope.project !== undefined) return event.project === scope.project;
  if (scope.org !== undefined) return event.org === scope.org;
  return true;
};
