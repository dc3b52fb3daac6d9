import type { ProjectRef } from '../../kernel/labels.js';
import type { Change } from '../../projection/Projection.js';
import type { ProjectItemStates } from '../../projection/ProjectItemStates.js';

/** A project's events as its default views count them. */
export interface EventCount {
  events: number;
  lastInstant?: string;
}

/**
 * The events of each project's items, for the statistics of its default views, which index every
 * item of the project (so every event is evaluated, none discarded). The items of kinds held here
 * are started from the states (an item at revision n took n events), then counted one per change;
 * those of the shared kinds (which no replica holds) are counted when asked, from their states.
 */
export class ProjectEvents {
  private readonly counts = new Map<ProjectRef, EventCount>();

  constructor(private readonly items: ProjectItemStates) {
    for (const [definition, states] of items.states.all()) {
      if (!definition.listed) continue;
      for (const state of states.values()) {
        const listed = definition.listed(state);
        this.add(this.counts, listed.project, listed.rev, listed.updatedAt);
      }
    }
  }

  apply(change: Change): void {
    // A deleted project's count goes with it (its items' removals came first): a project created
    // again under its label counts from nothing.
    if (change.definition.kind === 'projects' && change.next === undefined) {
      this.counts.delete(change.definition.stateKey(change.logged) as ProjectRef);
      return;
    }
    const state = change.next ?? change.previous;
    if (!change.definition.listed || state === undefined || !this.items.states.holds(change.definition)) return;
    const instant = (change.logged.event as { instant?: string }).instant;
    this.add(this.counts, change.definition.listed(state).project, 1, instant);
  }

  async of(project: ProjectRef): Promise<EventCount> {
    const counts = new Map([[project, { ...(this.counts.get(project) ?? { events: 0 }) }]]);
    for await (const page of this.items.sharedOf(project))
      for (const { definition, state } of page) {
        const listed = definition.listed!(state);
        this.add(counts, project, listed.rev, listed.updatedAt);
      }
    return counts.get(project)!;
  }

  private add(counts: Map<ProjectRef, EventCount>, project: ProjectRef, events: number, instant: string | undefined): void {
    let count = counts.get(project);
    if (!count) counts.set(project, (count = { events: 0 }));
    count.events += events;
    if (instant !== undefined && (count.lastInstant === undefined || instant > count.lastInstant)) count.lastInstant = instant;
  }
}
