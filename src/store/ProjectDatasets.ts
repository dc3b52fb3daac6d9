import { scopeBlankNodes } from './blankNodes.js';
import oxigraph from 'oxigraph';
import type { ProjectRef } from '../kernel/labels.js';
import { iri } from '../rdf/terms.js';
import { parseItemNode } from './graphNames.js';
import { MemoryClaims } from './wasmMemory.js';
import type { ProjectQuery, QueryAnswer } from './ProjectSparqlStore.js';
import { QueryFailed } from './ProjectSparqlStore.js';
import { capped } from './cappedQuery.js';
import { ViewStores } from './ViewStores.js';

/** oxigraph's `results_format` names of the SPARQL result media types. */
const RESULT_FORMATS: Record<string, string> = {
  'application/sparql-results+json': 'json',
  'application/sparql-results+xml': 'xml',
  'text/csv': 'csv',
  'text/tab-separated-values': 'tsv',
};

/** Graphs copied into a default graph per update: one VALUES list each. */
const BATCH = 500;

/**
 * WASM memory per byte of text loaded, counting a head's copy in the default graph as text of its
 * own: 58 MiB of revision graphs (10,000 resources of ~25 properties in 10 projects, 540,297 quads
 * with the heads' copies) took 140 MiB in these stores (measured on `bench/memory.ts`'s data).
 */
const MEMORY_PER_TEXT_BYTE = 1.25;

/**
 * Where a project's revision graphs are read from when it is first queried: N-Quads text of every
 * project, in pieces cut at line ends, each graph's lines together (the revision file).
 */
export type RevisionSource = () => Iterable<string>;

/**
 * Every project as an Oxigraph store of its own: its revision graphs as named graphs, and in the
 * store's default graph a copy of the head revision of each current, non-deprecated item. So a
 * query sees exactly its project's dataset with no list of graphs to pass (a default graph given as
 * a list of 20,000 graphs was measured at 1.5 s a query against 3 ms for the copy), other projects
 * are simply not there, and FROM / FROM NAMED / GRAPH work as SPARQL says within the project.
 *
 * The copy is kept right when items share triples: leaving the default graph, a head's triples are
 * removed only when no other current head holds them. Copies are made by SPARQL from the named
 * graph, so blank nodes keep their identity and can be removed the same way.
 *
 * With a `source`, a project's store is made when the project is first queried (or a SPARQL view
 * of it copied): until then only its heads are kept, its changes are not, and its revision graphs
 * are read from the source when it is loaded. A query worker so holds the projects it was asked
 * about, not a whole copy of the store (each held 140 MiB at 10,000 resources of ~25 properties).
 * The source must hold every revision whose change was given before the load (the revision file
 * is flushed before changes are posted to the worker); revisions it holds beyond them are
 * recognized when their change comes (`loadedRevs`).
 *
 * Synchronous, as Oxigraph is: it runs in the query worker (`SparqlReplica`).
 */
export class ProjectDatasets {
  private readonly stores = new Map<ProjectRef, oxigraph.Store>();
  /** Project → item → head graph in the default graph. */
  private readonly heads = new Map<ProjectRef, Map<string, string>>();
  /** Project → the graphs in `heads`, for the shared-triple check. */
  private readonly headGraphs = new Map<ProjectRef, Set<string>>();
  private readonly empty = new oxigraph.Store();
  private readonly claims = new MemoryClaims(this.empty, MEMORY_PER_TEXT_BYTE);
  /** Graphs bulk loaded so far: their blank nodes get labels of their own. */
  private bulkGraphs = 0;
  /** The revision loaded last, when its text has no blank node: the head it becomes is loaded from it. */
  private lastLoaded: { project: ProjectRef; graph: string; ntriples: string } | undefined;
  /**
   * Item → the revision whose graph was loaded last. Revisions reach this side in log order, from
   * the file then as changes, and the file may already hold the first changes sent: a revision not
   * above its item's is held already (a lookup here, where an ASK per revision cost a query).
   */
  private readonly loadedRevs = new Map<string, number>();
  /** User-defined SPARQL views, copied from the revision graphs here. */
  readonly views: ViewStores;

  /** The projects loaded from `source` (without one, every project is held from the start). */
  private readonly held = new Set<ProjectRef>();
  /**
   * Graphs dropped from projects not held: skipped when the project is loaded, should the source
   * still hold them (a graph written again afterwards, its item's id used anew, is taken off).
   */
  private readonly dropped = new Set<string>();

  /** `maxViewQuads`: most quads one SPARQL view's copy may hold (see ViewStores). */
  constructor(
    private readonly maxResults: number,
    maxViewQuads?: number,
    private readonly source?: RevisionSource,
  ) {
    this.views = new ViewStores((project) => (this.hold(project), this.stores.get(project)), maxViewQuads);
  }

  /** Whether the project's graphs are here (else its first query loads them, see `hold`). */
  holds(project: ProjectRef): boolean {
    return !this.source || this.held.has(project);
  }

  /** Loads the project's revision graphs from the source, once. */
  hold(project: ProjectRef): void {
    if (this.holds(project)) return;
    this.held.add(project);
    this.store(project);
    let carry = '';
    for (const piece of this.source!()) carry = this.loadRevisions(carry + piece, false, project);
    this.loadRevisions(carry, true, project);
    for (const graph of this.dropped) if (parseItemNode(graph)?.project === project) this.dropped.delete(graph);
  }

  /**
   * A hint before a bulk load of about `bytes` of N-Quads: claims the memory at once. Writes claim
   * ahead as they go too, in blocks of a quarter of the data (`MemoryClaims`): Oxigraph left alone grows its memory 64 KiB at a time,
   * each growth a full garbage collection (measured here: 0.2 ms a write at 5,000 items, 4.6 ms at
   * 100,000, the worker falling behind the writes).
   */
  prepareLoad(bytes: number): void {
    this.claims.prepare(2 * bytes);
  }

  private reserve(bytes: number): void {
    this.claims.grow(bytes);
  }

  private store(project: ProjectRef): oxigraph.Store {
    let store = this.stores.get(project);
    if (!store) this.stores.set(project, (store = new oxigraph.Store()));
    return store;
  }

  /**
   * Start-up, first step: the heads of every current item (their graphs are copied into the
   * default graphs as `loadRevisions` meets them).
   */
  setHeads(heads: Iterable<[ProjectRef, string, string]>): void {
    for (const [project, item, graph] of heads) {
      this.headsOf(project).set(item, graph);
      this.graphsOf(project).add(graph);
    }
  }

  /**
   * Start-up, second step: revision file text (N-Quads lines, any projects, each graph's lines
   * together as the file holds them), a head's lines also into its project's default graph. Blank
   * node labels are scoped to their graph (the file reuses `_:b0` in every revision, and a bulk
   * load would take them for one node): each graph is loaded in one piece, so unless `final`, the
   * lines of the last graph are held back and returned, to come first in the next piece.
   */
  loadRevisions(nquads: string, final: boolean, only?: ProjectRef): string {
    const lines = nquads.split('\n');
    let held = '';
    if (!final) {
      let last = lines.length - 1;
      while (last >= 0 && !lines[last]) last--;
      const graph = last >= 0 ? graphOf(lines[last]!) : undefined;
      let first = last;
      while (first > 0 && graphOf(lines[first - 1]!) === graph) first--;
      if (first >= 0) held = lines.splice(first).join('\n');
    }
    const byProject = new Map<ProjectRef, string[]>();
    let graph = '';
    let suffix = '';
    let head = false;
    let project: ProjectRef = '';
    let skip = false;
    for (const line of lines) {
      const name = graphOf(line);
      if (name === undefined) continue;
      if (name !== graph) {
        const item = parseItemNode(name);
        if (!item) continue;
        graph = name;
        // Another project's graph (a project is loaded alone), or one of a project not held yet.
        skip = (only === undefined ? !this.holds(item.project) : item.project !== only) || this.dropped.has(name);
        if (skip) continue;
        suffix = `_g${++this.bulkGraphs}`;
        project = item.project;
        head = this.graphsOf(project).has(graph);
        // Set, not raised: a file may hold an item deleted for good before its id was used again.
        const loaded = itemOf(graph);
        // A key of its own: a slice of the piece read would keep the whole piece (8 MiB of text) alive.
        if (loaded) this.loadedRevs.set(detached(loaded.item), loaded.rev);
      }
      if (skip) continue;
      const scoped = line.includes('_:') ? scopeBlankNodes(line, suffix) : line;
      let out = byProject.get(project);
      if (!out) byProject.set(project, (out = []));
      out.push(scoped);
      if (head) out.push(`${scoped.slice(0, scoped.lastIndexOf(' <'))} .`);
    }
    let bytes = 0;
    for (const out of byProject.values()) for (const line of out) bytes += line.length + 1;
    this.reserve(bytes);
    for (const [project, out] of byProject) this.store(project).load(out.join('\n') + '\n', { format: 'application/n-quads', lenient: true });
    return held ? `${held}\n` : '';
  }

  revision(project: ProjectRef, graph: string, ntriples: string): void {
    // A project not held yet reads this revision from the source when it is loaded.
    if (!this.holds(project)) return void this.dropped.delete(graph);
    if (!ntriples || !this.noteLoaded(graph)) return;
    const store = this.store(project);
    // Counted twice: the head's copy in the default graph follows.
    this.reserve(2 * ntriples.length);
    store.load(ntriples, { format: 'application/n-triples', to_graph_name: oxigraph.namedNode(graph), lenient: true });
    this.views.loaded(graph);
    // Without blank nodes the text itself is the head's copy (see `current`): no SPARQL to parse and run.
    this.lastLoaded = ntriples.includes('_:') ? undefined : { project, graph, ntriples };
    // A head named at start-up whose revision arrives only now (it was projected meanwhile).
    if (this.graphsOf(project).has(graph)) this.copyToDefault(project, [graph]);
  }

  current(project: ProjectRef, item: string, graph: string | undefined): void {
    const heads = this.headsOf(project);
    const previous = heads.get(item);
    if (previous === graph) return;
    const held = this.holds(project);
    if (previous !== undefined) {
      heads.delete(item);
      this.graphsOf(project).delete(previous);
      if (held) this.removeFromDefault(project, previous, graph);
    }
    if (graph !== undefined) {
      heads.set(item, graph);
      this.graphsOf(project).add(graph);
      const loaded = this.lastLoaded;
      if (!held) return;
      if (loaded?.graph === graph && loaded.project === project) this.store(project).load(loaded.ntriples, { format: 'application/n-triples', lenient: true });
      else this.copyToDefault(project, [graph]);
    }
    this.lastLoaded = undefined;
  }

  drop(project: ProjectRef, graphs: string[]): void {
    // An item deleted for good may come back under its id, its revisions counted from 1 again.
    for (const graph of graphs) {
      const loaded = itemOf(graph);
      if (loaded) this.loadedRevs.delete(loaded.item);
    }
    if (!this.holds(project)) {
      for (const graph of graphs) this.dropped.add(graph);
      return;
    }
    const store = this.stores.get(project);
    if (!store) return;
    for (let i = 0; i < graphs.length; i += BATCH)
      store.update(
        graphs
          .slice(i, i + BATCH)
          .map((g) => `DROP SILENT GRAPH ${iri(g)}`)
          .join(' ;\n'),
      );
  }

  query(q: ProjectQuery): QueryAnswer {
    this.hold(q.project);
    // A view's copy is complete before it is queried (the worker builds it in slices first, see sparqlReplicaWorker).
    if (q.view !== undefined) this.views.build(Number.POSITIVE_INFINITY, q.view);
    const store = (q.view === undefined ? this.stores.get(q.project) : this.views.storeOf(q.view)) ?? this.empty;
    // The protocol's graph parameters replace the query's FROM / FROM NAMED; either alone leaves the other part empty.
    // A view's dataset is fixed: its FROM is not followed (the external store ignores it too).
    const dataset =
      q.view !== undefined
        ? { default_graph: [oxigraph.defaultGraph()] }
        : q.asOf
          ? { default_graph: q.asOf.map((g) => oxigraph.namedNode(g)) }
          : q.defaultGraphs || q.namedGraphs
            ? {
                default_graph: (q.defaultGraphs ?? []).map((g) => oxigraph.namedNode(g)),
                named_graphs: (q.namedGraphs ?? []).map((g) => oxigraph.namedNode(g)),
              }
            : {};
    try {
      // One row past the cap is enough to refuse: the engine stops there instead of producing every row.
      const text = q.form === 'ask' ? q.query : capped(q.query, this.maxResults + 1);
      if (q.form === 'select') {
        const json = store.query(text, { ...dataset, results_format: 'json' }) as string;
        const rows = countBindings(json);
        if (rows > this.maxResults) throw new QueryFailed({ failure: 'tooLarge', limit: this.maxResults });
        const format = RESULT_FORMATS[q.mediaType]!;
        return { mediaType: q.mediaType, body: format === 'json' ? json : (store.query(text, { ...dataset, results_format: format }) as string) };
      }
      if (q.form === 'ask')
        return { mediaType: q.mediaType, body: store.query(q.query, { ...dataset, results_format: RESULT_FORMATS[q.mediaType]! }) as string };
      const quads = store.query(text, dataset) as oxigraph.Quad[];
      if (quads.length > this.maxResults) throw new QueryFailed({ failure: 'tooLarge', limit: this.maxResults });
      const graph = new oxigraph.Store(quads);
      return { mediaType: q.mediaType, body: graph.dump({ format: q.mediaType, from_graph_name: oxigraph.defaultGraph() }) };
    } catch (error) {
      if (error instanceof QueryFailed || error instanceof WebAssembly.RuntimeError || error instanceof RangeError) throw error;
      throw new QueryFailed({ failure: 'invalid', message: (error as Error).message ?? String(error) });
    }
  }

  private headsOf(project: ProjectRef): Map<string, string> {
    let heads = this.heads.get(project);
    if (!heads) this.heads.set(project, (heads = new Map()));
    return heads;
  }

  private graphsOf(project: ProjectRef): Set<string> {
    let graphs = this.headGraphs.get(project);
    if (!graphs) this.headGraphs.set(project, (graphs = new Set()));
    return graphs;
  }

  /** Records that `graph` is loaded; false when its item had that revision or a later one already. */
  private noteLoaded(graph: string): boolean {
    const loaded = itemOf(graph);
    if (!loaded) return true;
    if (loaded.rev <= (this.loadedRevs.get(loaded.item) ?? 0)) return false;
    this.loadedRevs.set(loaded.item, loaded.rev);
    return true;
  }

  private copyToDefault(project: ProjectRef, graphs: string[]): void {
    this.store(project).update(`INSERT { ?s ?p ?o } WHERE { VALUES ?g { ${graphs.map(iri).join(' ')} } GRAPH ?g { ?s ?p ?o } }`);
  }

  /**
   * Removes a former head's triples from the default graph, except those another current head holds.
   * Where the item's next head takes its place, the triples both hold stay (it is copied right after)
   * and only the others are looked up: an update changes a few of a revision's triples, and looking
   * up every one of them in every graph cost 2-3 ms of this worker's time per update.
   */
  private removeFromDefault(project: ProjectRef, graph: string, next?: string): void {
    const store = this.store(project);
    const current = this.graphsOf(project);
    const defaultGraph = oxigraph.defaultGraph();
    const named = oxigraph.namedNode(graph);
    const leaving =
      next === undefined
        ? store.match(null, null, null, named)
        : (
            store.query(`SELECT ?s ?p ?o WHERE { GRAPH ${iri(graph)} { ?s ?p ?o } FILTER NOT EXISTS { GRAPH ${iri(next)} { ?s ?p ?o } } }`) as Map<
              string,
              oxigraph.Term
            >[]
          ).map((row) =>
            oxigraph.quad(row.get('s') as oxigraph.Quad_Subject, row.get('p') as oxigraph.Quad_Predicate, row.get('o') as oxigraph.Quad_Object, named),
          );
    for (const q of leaving) {
      const held = store.match(q.subject, q.predicate, q.object, null).some((other) => other.graph.termType === 'NamedNode' && current.has(other.graph.value));
      if (!held) store.delete(oxigraph.quad(q.subject, q.predicate, q.object, defaultGraph));
    }
  }
}

/** A copy of a string that holds no larger one (V8 keeps a slice's parent string alive). */
const detached = (text: string): string => (text + ' ').slice(0, -1);

/** The item and revision a revision graph's name (`{item}/rev/{n}`, see graphNames.ts) names. */
const itemOf = (graph: string): { item: string; rev: number } | undefined => {
  const at = graph.lastIndexOf('/rev/');
  const rev = at < 0 ? NaN : Number(graph.slice(at + 5));
  return Number.isInteger(rev) ? { item: graph.slice(0, at), rev } : undefined;
};

/** The graph of an N-Quads line (its last term), undefined for a line without one. */
const graphOf = (line: string): string | undefined => {
  const at = line.lastIndexOf(' <');
  const end = line.lastIndexOf('>');
  return at < 0 || end <= at ? undefined : line.slice(at + 2, end);
};

/**
 * The rows of a SPARQL JSON answer, counted on its text (the objects one level inside `bindings`,
 * strings skipped) rather than by parsing it: a hundred thousand rows parsed at once is a heap spike
 * in the query worker, the one allocation its heap limit could not stop short of.
 */
const countBindings = (json: string): number => {
  const at = json.indexOf('"bindings"');
  if (at === -1) return 0;
  let rows = 0;
  let depth = 0;
  for (let i = json.indexOf('[', at); i !== -1 && i < json.length; i++) {
    const c = json.charCodeAt(i);
    if (c === 0x22) {
      // A string: to its closing quote, escapes skipped.
      for (i++; i < json.length && json.charCodeAt(i) !== 0x22; i++) if (json.charCodeAt(i) === 0x5c) i++;
    } else if (c === 0x5b || c === 0x7b) {
      if (c === 0x7b && depth === 1) rows++;
      depth++;
    } else if (c === 0x5d || c === 0x7d) {
      if (--depth === 0) break;
    }
  }
  return rows;
};
