import type { ProjectRef } from '../../kernel/labels.js';

/** What every item of a project (resource, schema, storage, file) shows of itself to the statistics. */
export interface Counted {
  project: ProjectRef;
  rev: number;
  updatedAt: string;
}

export interface ProjectStatistics {
  /** Events of the project's items: the sum of their revisions, as Delta counts them. */
  eventsCount: number;
  resourcesCount: number;
  /** Instant of the project's latest event; absent when it has none. */
  lastProcessedEventDateTime?: string;
}

/** Counts the project's items over the states of every kind that lives in a project. */
export const projectStatistics = (ref: ProjectRef, kinds: Iterable<ReadonlyMap<string, Counted>>): ProjectStatistics => {
  let eventsCount = 0;
  let resourcesCount = 0;
  let last: string | undefined;
  for (const states of kinds)
    for (const state of states.values()) {
      if (state.project !== ref) continue;
      resourcesCount += 1;
      eventsCount += state.rev;
      if (last === undefined || state.updatedAt > last) last = state.updatedAt;
    }
  return { eventsCount, resourcesCount, ...(last === undefined ? {} : { lastProcessedEventDateTime: last }) };
};
