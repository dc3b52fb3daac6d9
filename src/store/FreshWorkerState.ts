import type { ProjectRef } from '../kernel/labels.js';
import type { ViewMember } from './ProjectSparqlStore.js';

/**
 * What the SPARQL replica keeps on the event loop so that a query worker started anew (after a
 * crash, a query over its budget, idleness) begins where the others are: the current head of each
 * item and the members of each SPARQL view. The revisions themselves are in the revision file.
 */
export class FreshWorkerState {
  private readonly heads = new Map<ProjectRef, Map<string, string>>();
  /** View → its project and members. */
  private readonly views = new Map<string, { project: ProjectRef; members: Map<string, ViewMember> }>();

  current(project: ProjectRef, item: string, graph: string | undefined): void {
    let heads = this.heads.get(project);
    if (!heads) this.heads.set(project, (heads = new Map()));
    if (graph === undefined) heads.delete(item);
    else heads.set(item, graph);
  }

  members(project: ProjectRef, view: string, members: readonly ViewMember[]): void {
    let held = this.views.get(view);
    if (!held) this.views.set(view, (held = { project, members: new Map() }));
    for (const member of members) {
      if (member.graph === undefined) held.members.delete(member.item);
      else held.members.set(member.item, member);
    }
  }

  dropView(view: string): void {
    this.views.delete(view);
  }

  /** Every current head, as a worker starts from them. */
  headList(): [ProjectRef, string, string][] {
    const heads: [ProjectRef, string, string][] = [];
    for (const [project, items] of this.heads) for (const [item, graph] of items) heads.push([project, item, graph]);
    return heads;
  }

  /** Every SPARQL view's project and members, as a worker copies them. */
  viewList(): [ProjectRef, string, ViewMember[]][] {
    const views: [ProjectRef, string, ViewMember[]][] = [];
    for (const [view, { project, members }] of this.views) views.push([project, view, [...members.values()]]);
    return views;
  }

  /** The projects some SPARQL view copies: a worker holds them whatever it is asked. */
  viewProjects(): Set<ProjectRef> {
    return new Set([...this.views.values()].map(({ project }) => project));
  }
}
