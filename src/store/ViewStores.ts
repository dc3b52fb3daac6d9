import oxigraph from 'oxigraph';
import type { ProjectRef } from '../kernel/labels.js';
import type { ViewMember } from './ProjectSparqlStore.js';
import { QueryFailed } from './ProjectSparqlStore.js';
import { iri } from '../rdf/terms.js';

interface ViewStore {
  project: ProjectRef;
  /** Named graphs: each member's revision graph (with its metadata); default graph: their union. */
  store: oxigraph.Store;
  /** Item → its member and the quads its copy added (its named graph and its default-graph lines). */
  members: Map<string, { member: ViewMember; quads: number }>;
  /** Quads copied in for the current members (an upper bound: triples members share are counted for each). */
  quads: number;
  /** The copy passed the cap: it was emptied and stays so until the view is rebuilt under a new graph. */
  over: boolean;
}

/** Members waiting to be applied to a view's copy, in the order they were set. */
interface Backlog {
  project: ProjectRef;
  members: ViewMember[];
  next: number;
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
 *
 * Members given by `enqueue` wait in a backlog that `build` applies in time slices, so the query
 * worker holding these copies answers other queries between slices (issue 32: copying 20 views of a
 * 2,000-resource project at once held every worker for minutes). A copy holds at most `maxQuads`
 * quads: past it the copy is emptied and a query over the view is refused (`viewTooLarge`), as
 * each query worker holds a copy of every view.
 */
export class ViewStores {
  private readonly views = new Map<string, ViewStore>();
  /** A revision graph not loaded yet → the views waiting for it. */
  private readonly waiting = new Map<string, Map<string, ViewMember>>();
  /** View → members not applied yet; a Map keeps the order views were set in. */
  private readonly backlog = new Map<string, Backlog>();

  constructor(
    private readonly source: (project: ProjectRef, graph: string) => oxigraph.Store | undefined,
    private readonly maxQuads = Number.POSITIVE_INFINITY,
  ) {}

  /** Sets members at once (see `enqueue` for the sliced way). */
  set(project: ProjectRef, view: string, members: readonly ViewMember[]): void {
    this.enqueue(project, view, members);
    this.build(Number.POSITIVE_INFINITY, view);
  }

  /** Members to apply to the view's copy by `build`, after those given before. */
  enqueue(project: ProjectRef, view: string, members: readonly ViewMember[]): void {
    if (!this.views.has(view)) this.views.set(view, { project, store: new oxigraph.Store(), members: new Map(), quads: 0, over: false });
    const pending = this.backlog.get(view);
    if (pending) pending.members.push(...members);
    else if (members.length) this.backlog.set(view, { project, members: [...members], next: 0 });
  }

  /** Whether members of the view (or of any view) wait to be applied. */
  building(view?: string): boolean {
    return view === undefined ? this.backlog.size > 0 : this.backlog.has(view);
  }

  /**
   * Applies waiting members, the view's alone if given, oldest first, until `until` (a `Date.now()`
   * time) passes; returns whether members still wait.
   */
  build(until: number, view?: string): boolean {
    for (const [name, pending] of view === undefined ? this.backlog : [[view, this.backlog.get(view)] as const]) {
      if (!pending) continue;
      const held = this.views.get(name)!;
      // Copies are made as text, loaded at once: Oxigraph's `add` is a transaction per quad (~0.1 ms each).
      const copies: string[] = [];
      let quads = 0;
      const flush = () => {
        if (copies.length) this.load(held, copies.splice(0), quads);
        quads = 0;
      };
      while (pending.next < pending.members.length && !held.over) {
        const member = pending.members[pending.next++]!;
        const previous = held.members.get(member.item);
        if (previous) {
          if (previous.member.graph === member.graph && previous.member.metadata === member.metadata) continue;
          flush();
          this.remove(name, held, previous.member);
          held.quads -= previous.quads;
          held.members.delete(member.item);
        }
        if (member.graph === undefined) continue;
        const copy = this.copyOf(held, member);
        const lines = copy === undefined ? 0 : lineCount(copy);
        held.members.set(member.item, { member, quads: lines });
        if (copy === undefined) this.wait(name, member);
        else {
          copies.push(copy);
          quads += lines;
          if (held.quads + quads > this.maxQuads) this.overflow(name, held);
        }
        if (pending.next % 50 === 0 && Date.now() >= until) break;
      }
      if (!held.over) flush();
      if (pending.next >= pending.members.length || held.over) this.backlog.delete(name);
      if (Date.now() >= until) break;
    }
    return view === undefined ? this.backlog.size > 0 : this.backlog.has(view);
  }

  /** A revision graph was loaded into its project's store: views waiting for it copy it. */
  loaded(graph: string): void {
    const views = this.waiting.get(graph);
    if (!views) return;
    this.waiting.delete(graph);
    for (const [view, member] of views) {
      const held = this.views.get(view);
      const copy = held && !held.over && this.copyOf(held, member);
      if (!copy) continue;
      const lines = lineCount(copy);
      const entry = held.members.get(member.item);
      if (entry?.member === member) entry.quads = lines;
      if (held.quads + lines > this.maxQuads) this.overflow(view, held);
      else this.load(held, [copy], lines);
    }
  }

  drop(view: string): void {
    const held = this.views.get(view);
    this.backlog.delete(view);
    if (!held) return;
    this.unwait(view, held);
    this.views.delete(view);
  }

  /** The view's copy to query; refused once it passed the cap. */
  storeOf(view: string): oxigraph.Store | undefined {
    const held = this.views.get(view);
    if (held?.over) throw new QueryFailed({ failure: 'viewTooLarge', limit: this.maxQuads });
    return held?.store;
  }

  /** Every view's members, for a worker started anew. */
  *all(): Iterable<[ProjectRef, string, ViewMember[]]> {
    for (const [view, held] of this.views) yield [held.project, view, [...held.members.values()].map((m) => m.member)];
  }

  private wait(view: string, member: ViewMember): void {
    let views = this.waiting.get(member.graph!);
    if (!views) this.waiting.set(member.graph!, (views = new Map()));
    views.set(view, member);
  }

  private unwait(view: string, held: ViewStore): void {
    for (const { member } of held.members.values()) this.waiting.get(member.graph!)?.delete(view);
  }

  /** The copy is emptied for good (its memory goes with the store), its backlog left. */
  private overflow(view: string, held: ViewStore): void {
    this.unwait(view, held);
    held.over = true;
    held.store = new oxigraph.Store();
    held.members.clear();
    held.quads = 0;
    this.backlog.delete(view);
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

  private load(held: ViewStore, copies: string[], quads: number): void {
    held.store.load(copies.join(''), { format: 'application/n-quads', lenient: true });
    held.quads += quads;
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

const lineCount = (text: string): number => {
  let n = 0;
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) n++;
  return n;
};
