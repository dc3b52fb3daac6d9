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

/** Counts the project's items, read a page at a time. */
export const projectStatistics = async (pages: AsyncIterable<readonly Counted[]>): Promise<ProjectStatistics> => {
  let eventsCount = 0;
  let resourcesCount = 0;
  let last: string | undefined;
  for await (const page of pages)
    for (const item of page) {
      resourcesCount += 1;
      eventsCount += item.rev;
      if (last === undefined || item.updatedAt > last) last = item.updatedAt;
    }
  return { eventsCount, resourcesCount, ...(last === undefined ? {} : { lastProcessedEventDateTime: last }) };
};
