import type { ProjectRef } from '../kernel/labels.js';
import type { ViewMember } from './ProjectSparqlStore.js';

/** A view graph the store holds, as its registry says: `complete` once its build ended. */
export interface HeldViewGraph {
  graph: string;
  complete: boolean;
}

/**
 * The user-defined SPARQL views' graphs of a store every replica shares, written by the store's
 * lease holder alone (`ViewGraphWriter`): what each graph holds is read from the store, never
 * remembered by a replica, so a holder taking over goes on from what the last one left. Every
 * write is idempotent.
 */
export interface SharedViewGraphs {
  /**
   * The view graphs the store holds: those of its registry, and once per store those written before
   * it by replicas building their own (returned as not complete, to be dropped).
   */
  heldViewGraphs(): Promise<HeldViewGraph[]>;
  /** Recorded before the graph's first triple is written (`complete: false`), and once its build ended. */
  registerViewGraph(graph: string, complete: boolean): Promise<void>;
  /** Sets members as `ProjectSparqlStore.viewMembers` does, from what the store holds for them: a member set again is copied again (its revision may have reached the store since). */
  viewMembers(project: ProjectRef, view: string, members: ViewMember[]): Promise<void>;
  /** Every graph of the view's graph dropped (its heads, its members' metadata), then its record in the registry. */
  dropViewGraph(view: string): Promise<void>;
}
