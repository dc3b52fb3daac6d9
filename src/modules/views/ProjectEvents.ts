import type { ProjectRef } from '../../kernel/labels.js';
import type { Change } from '../../projection/Projection.js';
import type { States } from '../../projection/States.js';

/** A project's events as its default views count them. */
export interface EventCount {
  events: number;
  lastInstant?: string;
}

/**
 * The events of each project's items, for the statistics of its default views, which index every
 * item of the project (so every event is evaluated, none discarded). Started from the states (an
 * item at revision n took n events), then counted one per change.
 */
export class ProjectEvents {
  private readonly counts = new Map<ProjectRef, EventCount>();

  constructor(states: States) {
    for (const [definition, items] of states.all()) {
      if (!definition.listed) continue;
      for (const state of items.values()) {
        const listed = definition.listed(state);
        this.add(listed.project, listed.rev, listed.updatedAt);
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
    if (!change.definition.listed || state === undefined) return;
    const instant = (change.logged.event as { instant?: string }).instant;
    this.add(change.definition.listed(state).project, 1, instant);
  }

  of(project: ProjectRef): EventCount {
    return this.counts.get(project) ?? { events: 0 };
  }

  private add(project: ProjectRef, events: number, instant: string | undefined): void {
    let count = this.counts.get(project);
    if (!count) this.counts.set(project, (count = { events: 0 }));
    count.events += events;
    if (instant !== undefined && (count.lastInstant === undefined || instant > count.lastInstant)) count.lastInstant = instant;
  }
}
