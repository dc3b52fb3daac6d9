import oxigraph from 'oxigraph';
import type { ProjectRef } from '../kernel/labels.js';
import type { ViewMember } from './ProjectSparqlStore.js';

interface ViewStore {
  project: ProjectRef;
  /** Named graphs: each member's revision graph (with its metadata); default graph: their union. */
  store: oxigraph.Store;
  members: Map<string, ViewMember>;
}

/**
 * The embedded store's user-defined SPARQL views, each an Oxigraph store of its own: a query over a
 * view sees its items' graphs as named graphs and their union as the default graph, with nothing to
 * pass per query (a dataset listing 3,334 revision graphs cost 247 ms a query at p50, against 5 ms
 * for a project's own default graph, issue 24). A separate store, not graphs in the project's:
 * the project's named graphs stay exactly its revision graphs.
 *
 * Copied from the project's revision graphs (`source`); a revision not loaded yet (the replica's
 * projection runs behind the view's) is copied when it is (`loaded`). The union is kept right when
 * members share triples: a triple leaves the default graph with the last named graph holding it.
 */
export class ViewStores {
  private readonly views = new Map<string, ViewStore>();
  /** A revision graph not loaded yet → the views waiting for it. */
  private readonly waiting = new Map<string, Set<string>>();

  constructor(private readonly source: (project: ProjectRef, graph: string) => oxigraph.Store | undefined) {}

  set(project: ProjectRef, view: string, members: readonly ViewMember[]): void {
    let held = this.views.get(view);
    if (!held) this.views.set(view, (held = { project, store: new oxigraph.Store(), members: new Map() }));
    for (const member of members) {
      const previous = held.members.get(member.item);
      if (previous) {
        if (previous.graph === member.graph && previous.metadata === member.metadata) continue;
        this.remove(view, held, previous);
        held.members.delete(member.item);
      }
      if (member.graph === undefined) continue;
      held.members.set(member.item, member);
      this.add(view, held, member);
    }
  }

  /** A revision graph was loaded into its project's store: views waiting for it copy it. */
  loaded(graph: string): void {
    const views = this.waiting.get(graph);
    if (!views) return;
    this.waiting.delete(graph);
    for (const view of views) {
      const held = this.views.get(view);
      if (held) this.copy(held, graph);
    }
  }

  drop(view: string): void {
    const held = this.views.get(view);
    if (!held) return;
    for (const member of held.members.values()) this.waiting.get(member.graph!)?.delete(view);
    this.views.delete(view);
  }

  storeOf(view: string): oxigraph.Store | undefined {
    return this.views.get(view)?.store;
  }

  /** Every view's members, for a worker started anew. */
  *all(): Iterable<[ProjectRef, string, ViewMember[]]> {
    for (const [view, held] of this.views) yield [held.project, view, [...held.members.values()]];
  }

  private add(view: string, held: ViewStore, member: ViewMember): void {
    const graph = member.graph!;
    if (!this.copy(held, graph)) {
      let views = this.waiting.get(graph);
      if (!views) this.waiting.set(graph, (views = new Set()));
      views.add(view);
    }
    if (member.metadata) {
      held.store.load(member.metadata, { format: 'application/n-triples', to_graph_name: oxigraph.namedNode(graph), lenient: true });
      held.store.load(member.metadata, { format: 'application/n-triples', lenient: true });
    }
  }

  /** False when the revision graph is not in its project's store yet. */
  private copy(held: ViewStore, graph: string): boolean {
    const named = oxigraph.namedNode(graph);
    const from = this.source(held.project, graph);
    const quads = from?.match(null, null, null, named) ?? [];
    if (!quads.length) return false;
    for (const q of quads) {
      held.store.add(q);
      held.store.add(oxigraph.quad(q.subject, q.predicate, q.object, oxigraph.defaultGraph()));
    }
    return true;
  }

  private remove(view: string, held: ViewStore, member: ViewMember): void {
    const graph = member.graph!;
    this.waiting.get(graph)?.delete(view);
    const store = held.store;
    for (const q of store.match(null, null, null, oxigraph.namedNode(graph))) {
      store.delete(q);
      if (!store.match(q.subject, q.predicate, q.object, null).some((other) => other.graph.termType === 'NamedNode'))
        store.delete(oxigraph.quad(q.subject, q.predicate, q.object, oxigraph.defaultGraph()));
    }
  }
}
