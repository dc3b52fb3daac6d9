import oxigraph from 'oxigraph';
import type { ProjectRef } from '../kernel/labels.js';
import type { ViewMember } from './ProjectSparqlStore.js';
import { iri } from '../rdf/terms.js';

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
  private readonly waiting = new Map<string, Map<string, ViewMember>>();

  constructor(private readonly source: (project: ProjectRef, graph: string) => oxigraph.Store | undefined) {}

  set(project: ProjectRef, view: string, members: readonly ViewMember[]): void {
    let held = this.views.get(view);
    if (!held) this.views.set(view, (held = { project, store: new oxigraph.Store(), members: new Map() }));
    // Copies are made as text, loaded at once: Oxigraph's `add` is a transaction per quad (~0.1 ms each).
    const copies: string[] = [];
    for (const member of members) {
      const previous = held.members.get(member.item);
      if (previous) {
        if (previous.graph === member.graph && previous.metadata === member.metadata) continue;
        if (copies.length) this.load(held, copies.splice(0));
        this.remove(view, held, previous);
        held.members.delete(member.item);
      }
      if (member.graph === undefined) continue;
      held.members.set(member.item, member);
      const copy = this.copyOf(held, member);
      if (copy === undefined) this.wait(view, member);
      else copies.push(copy);
    }
    if (copies.length) this.load(held, copies);
  }

  /** A revision graph was loaded into its project's store: views waiting for it copy it. */
  loaded(graph: string): void {
    const views = this.waiting.get(graph);
    if (!views) return;
    this.waiting.delete(graph);
    for (const [view, member] of views) {
      const held = this.views.get(view);
      const copy = held && this.copyOf(held, member);
      if (copy) this.load(held, [copy]);
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

  private wait(view: string, member: ViewMember): void {
    let views = this.waiting.get(member.graph!);
    if (!views) this.waiting.set(member.graph!, (views = new Map()));
    views.set(view, member);
  }

  /**
   * The member's triples as N-Quads, into its named graph and the default graph; undefined when its
   * revision is not in its project's store yet. One load takes both copies, so a blank node is the
   * same node in each.
   */
  private copyOf(held: ViewStore, member: ViewMember): string | undefined {
    const graph = member.graph!;
    const text = this.source(held.project, graph)?.dump({ format: 'application/n-triples', from_graph_name: oxigraph.namedNode(graph) }) ?? '';
    if (!text) return undefined;
    const into = ` <${graph}> .`;
    let out = '';
    for (const line of `${text}${member.metadata ?? ''}`.split('\n')) {
      if (!line) continue;
      const triple = line.slice(0, line.lastIndexOf(' .'));
      out += `${triple}${into}\n${triple} .\n`;
    }
    return out;
  }

  private load(held: ViewStore, copies: string[]): void {
    held.store.load(copies.join(''), { format: 'application/n-quads', lenient: true });
  }

  /** The member's graph goes, and from the default graph its triples no other member's graph holds. */
  private remove(view: string, held: ViewStore, member: ViewMember): void {
    const graph = iri(member.graph!);
    this.waiting.get(member.graph!)?.delete(view);
    held.store.update(
      `DELETE { ?s ?p ?o } WHERE { GRAPH ${graph} { ?s ?p ?o } FILTER NOT EXISTS { GRAPH ?other { ?s ?p ?o } FILTER(?other != ${graph}) } } ;\nDROP SILENT GRAPH ${graph}`,
    );
  }
}
