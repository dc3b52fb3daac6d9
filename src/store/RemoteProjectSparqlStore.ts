import { appendTo } from '../util/appendTo.js';
import oxigraph from 'oxigraph';
import type { ProjectRef } from '../kernel/labels.js';
import { iri } from '../rdf/terms.js';
import { confinedQuery } from './confinedQuery.js';
import { currentGraphOf, HEAD, HEADS_PREFIX, headsGraphOf } from './graphNames.js';
import type { ItemHead, ProjectQuery, ProjectSparqlStore, QueryAnswer, ViewMember } from './ProjectSparqlStore.js';
import { QueryFailed } from './ProjectSparqlStore.js';
import { chunks, DATA_TRIPLES, dropStatements, revisionInsert, standardResults, VALUES_ROWS } from './remoteSparql.js';
import type { SparqlHttpClient } from './SparqlHttpClient.js';
import { SparqlRequestFailed } from './SparqlHttpClient.js';
import { writeResults } from './resultFormats.js';
import {
  heldMembers,
  VIEW_GRAPHS_SCAN,
  VIEW_LEGACY_SWEPT_UPDATE,
  VIEW_REGISTRY_QUERY,
  viewDropStatements,
  viewHeldQueries,
  viewMemberUpdates,
  viewMetadataQuery,
  viewRegistryUpdate,
} from './remoteViewGraphs.js';
import type { HeldViewGraph, SharedViewGraphs } from './SharedViewGraphs.js';
import { VIEW_REGISTRY, viewGraphPartOf } from './graphNames.js';

export interface RemoteDatasetsOptions {
  /** A query's budget, in ms. */
  timeoutMillis: number;
  /** Most rows (SELECT) or triples (CONSTRUCT, DESCRIBE) one answer may hold. */
  maxResults: number;
  /**
   * Whether this store writes the revision graphs itself. In the registry the graph store (the same
   * server) has written them already, so `revision` and `drop` have nothing to do.
   */
  writesRevisions: boolean;
}

/**
 * The SPARQL endpoint's datasets on the external server, next to the revision graphs: per project a
 * graph of its items' heads (`headsGraphOf`) and a graph holding a copy of each current head's
 * triples (`currentGraphOf`), the default graph of its queries. The copy is kept right when items
 * share triples (a former head's triple leaves only when no other current head holds it), and each
 * change is one idempotent update, so a replay converges to the same content.
 *
 * Queries are rewritten before they are sent (`confinedQuery`): nothing outside the project's
 * dataset is reachable, whatever the query says. The server stops nothing it was asked: a query
 * over its budget is abandoned here (its connection closed) and the server's own limit
 * (Virtuoso's `MaxQueryExecutionTime`) bounds what it goes on spending.
 */
export class RemoteProjectSparqlStore implements ProjectSparqlStore, SharedViewGraphs {
  constructor(
    private readonly client: SparqlHttpClient,
    private readonly options: RemoteDatasetsOptions,
  ) {}

  /** The heads the store holds are set to those of the restored states (a restart from a snapshot older than the store). */
  async start(heads: Iterable<[ProjectRef, string, string]>): Promise<void> {
    const wanted = new Map<string, ItemHead>();
    for (const [project, item, graph] of heads) wanted.set(`${project} ${item}`, { project, item, graph });
    const { body } = await this.client.query(
      `SELECT ?h ?item ?g WHERE { GRAPH ?h { ?item <${HEAD}> ?g } FILTER(STRSTARTS(STR(?h), "${HEADS_PREFIX}")) }`,
      'application/sparql-results+json',
    );
    const changes: ItemHead[] = [];
    for (const row of standardResults(body).results?.bindings ?? []) {
      const project = row.h!.value.slice(HEADS_PREFIX.length);
      const key = `${project} ${row.item!.value}`;
      if (wanted.get(key)?.graph === row.g!.value) wanted.delete(key);
      else if (!wanted.has(key)) changes.push({ project, item: row.item!.value, graph: undefined });
    }
    await this.currents([...changes, ...wanted.values()]);
  }

  async revision(_project: ProjectRef, graph: string, ntriples: string): Promise<void> {
    if (this.options.writesRevisions && ntriples.trim()) await this.client.update(revisionInsert(graph, ntriples), true);
  }

  async current(project: ProjectRef, item: string, graph: string | undefined): Promise<void> {
    await this.currents([{ project, item, graph }]);
  }

  /**
   * Per run of items, one query for the heads the store holds (but for items the batch created,
   * which hold none but the one they are given: ItemHead.created), then one update of four
   * set-wise operations: the heads graphs first, then the former heads' triples leave the default
   * graphs unless a current head holds them, then the new heads' triples are copied in. Each run
   * leaves what the heads say, whatever the store held: a replay converges to the same content.
   */
  async currents(heads: readonly ItemHead[]): Promise<void> {
    const last = new Map<string, ItemHead>();
    for (const head of heads) last.set(`${head.project} ${head.item}`, head);
    // A run's request deletes and inserts a triple per head at most: DATA_TRIPLES in all (remoteSparql.ts).
    for (const run of chunks([...last.values()], () => 1, Number.POSITIVE_INFINITY, Math.min(VALUES_ROWS, DATA_TRIPLES / 2))) await this.setHeads(run);
  }

  private async setHeads(heads: ItemHead[]): Promise<void> {
    const looked = heads.filter((h) => !h.created);
    const held = new Map<string, string[]>();
    if (looked.length) {
      const rows = looked.map((h) => `(${iri(headsGraphOf(h.project))} ${iri(h.item)})`);
      const { body } = await this.client.query(
        `SELECT ?h ?item ?g WHERE { VALUES (?h ?item) { ${rows.join(' ')} } GRAPH ?h { ?item <${HEAD}> ?g } }`,
        'application/sparql-results+json',
      );
      for (const row of standardResults(body).results?.bindings ?? []) {
        appendTo(held, `${row.h!.value} ${row.item!.value}`, row.g!.value);
      }
    }
    const removed: string[] = [];
    const added: string[] = [];
    // By project: Virtuoso (7.2) fails a template whose graph is a variable bound by VALUES (SR002).
    const leaving = new Map<ProjectRef, string[]>();
    const copied = new Map<ProjectRef, string[]>();
    for (const head of heads) {
      const { project, item, graph } = head;
      const headsGraph = iri(headsGraphOf(project));
      // A created item's head and triples are written again whatever the store holds (the same again change nothing).
      const before = head.created ? [] : (held.get(`${headsGraphOf(project)} ${item}`) ?? []);
      for (const old of before)
        if (old !== graph) {
          removed.push(`GRAPH ${headsGraph} { ${iri(item)} <${HEAD}> ${iri(old)} }`);
          appendTo(leaving, project, iri(old));
        }
      if (graph !== undefined && !before.includes(graph)) {
        added.push(`GRAPH ${headsGraph} { ${iri(item)} <${HEAD}> ${iri(graph)} }`);
        appendTo(copied, project, iri(graph));
      }
    }
    const steps: string[] = [];
    if (removed.length) steps.push(`DELETE DATA {\n${removed.join('\n')}\n}`);
    if (added.length) steps.push(`INSERT DATA {\n${added.join('\n')}\n}`);
    for (const [project, graphs] of leaving)
      steps.push(
        `DELETE { GRAPH ${iri(currentGraphOf(project))} { ?s ?p ?o } } WHERE { VALUES ?old { ${graphs.join(' ')} } GRAPH ?old { ?s ?p ?o } FILTER NOT EXISTS { GRAPH ${iri(headsGraphOf(project))} { ?other <${HEAD}> ?h } GRAPH ?h { ?s ?p ?o } } }`,
      );
    for (const [project, graphs] of copied)
      steps.push(`INSERT { GRAPH ${iri(currentGraphOf(project))} { ?s ?p ?o } } WHERE { VALUES ?g { ${graphs.join(' ')} } GRAPH ?g { ?s ?p ?o } }`);
    // Whole (one transaction even with fast writes), as a view's member updates: the third operation
    // reads the heads graph the first two wrote. Had it read the former heads, it would find each
    // leaving triple still held by its own old head and leave it in the default graph. Sent row by
    // row, such a request was seen to apply in part under load (the view's, f49acf7); this one's
    // loss was not reproduced, the shape is the same. Applied in part, a head written without its
    // triples would be found held by the next attempt, which would not write them.
    if (steps.length) await this.client.update(steps.join(' ;\n'), true);
  }

  async drop(_project: ProjectRef, graphs: string[]): Promise<void> {
    if (this.options.writesRevisions) for (const statement of dropStatements(graphs)) await this.client.update(statement);
  }

  /**
   * A view's graph is written by the store's lease holder alone, and what it holds is read from the
   * store (its heads graph) before each write: a holder taking over needs nothing of the last one's memory.
   */
  async viewMembers(_project: ProjectRef, view: string, members: ViewMember[]): Promise<void> {
    const last = new Map<string, ViewMember>();
    for (const member of members) last.set(member.item, member);
    const rows: { item: string; src: string }[] = [];
    for (const query of viewHeldQueries(view, [...last.keys()]))
      for (const row of await this.select(query)) rows.push({ item: row.item!.value, src: row.src!.value });
    const held = heldMembers(view, rows);
    const changes = [...last.values()].flatMap((next) => {
      const previous = held.get(next.item);
      return previous || next.graph !== undefined ? [{ previous, next }] : [];
    });
    // Whole (one transaction even with fast writes): its operations read what the ones before wrote
    // (a member's metadata graph dropped, filled and copied). Sent row by row on a loaded Virtuoso,
    // such a request now and then left the metadata graph as it was while the rest applied (a view
    // kept a member's old `nxv:rev`: sparqlViewGraphs.test, 2 runs of 8 at load 9, none of 12 whole).
    for (const statement of viewMemberUpdates(view, changes)) await this.client.update(statement, true);
  }

  dropView(_project: ProjectRef, view: string): Promise<void> {
    return this.dropViewGraph(view);
  }

  async dropViewGraph(view: string): Promise<void> {
    const metadata = (await this.select(viewMetadataQuery(view))).map((row) => row.src!.value);
    for (const statement of viewDropStatements(view, metadata)) await this.client.update(statement);
    await this.client.update(viewRegistryUpdate(view, undefined));
  }

  async heldViewGraphs(): Promise<HeldViewGraph[]> {
    const held = new Map<string, boolean>();
    let swept = false;
    for (const row of await this.select(VIEW_REGISTRY_QUERY)) {
      if (row.g!.value === VIEW_REGISTRY) swept = true;
      else held.set(row.g!.value, row.state!.value === 'complete');
    }
    if (!swept) {
      // Graphs of replicas that built their own: recorded as unfinished builds, which the holder drops.
      for (const row of await this.select(VIEW_GRAPHS_SCAN)) {
        const graph = viewGraphPartOf(row.g!.value);
        if (graph !== undefined && !held.has(graph)) {
          await this.registerViewGraph(graph, false);
          held.set(graph, false);
        }
      }
      await this.client.update(VIEW_LEGACY_SWEPT_UPDATE);
    }
    return [...held].map(([graph, complete]) => ({ graph, complete }));
  }

  async registerViewGraph(graph: string, complete: boolean): Promise<void> {
    await this.client.update(viewRegistryUpdate(graph, complete ? 'complete' : 'building'));
  }

  private async select(query: string) {
    return standardResults((await this.client.query(query, 'application/sparql-results+json')).body).results?.bindings ?? [];
  }

  async query(q: ProjectQuery): Promise<QueryAnswer> {
    const text = confinedQuery(q, this.options.maxResults);
    const deadline = Date.now() + this.options.timeoutMillis;
    const ask = async (accept: string) => {
      const left = deadline - Date.now();
      if (left <= 0) throw new QueryFailed({ failure: 'timeout', millis: this.options.timeoutMillis });
      try {
        return await this.client.query(text, accept, {}, left);
      } catch (error) {
        throw this.failure(error);
      }
    };
    if (q.form === 'select' || q.form === 'ask') {
      const json = standardResults((await ask('application/sparql-results+json')).body);
      const rows = json.results?.bindings;
      if (rows && rows.length > this.options.maxResults) throw new QueryFailed({ failure: 'tooLarge', limit: this.options.maxResults });
      return { mediaType: q.mediaType, body: writeResults(q.mediaType, json.head.vars ?? [], rows, json.boolean) };
    }
    // CONSTRUCT (and DESCRIBE, rewritten as one): read back and written in the asked format here,
    // as the embedded store writes it.
    const { body, type } = await ask('application/n-triples, text/turtle;q=0.9');
    const graph = new oxigraph.Store();
    if (body.trim()) graph.load(body, { format: type === 'text/turtle' ? 'text/turtle' : 'application/n-triples', lenient: true });
    if (graph.size > this.options.maxResults) throw new QueryFailed({ failure: 'tooLarge', limit: this.options.maxResults });
    return { mediaType: q.mediaType, body: graph.dump({ format: q.mediaType, from_graph_name: oxigraph.defaultGraph() }) };
  }

  /**
   * Virtuoso answers a query it cannot compile with a 500 naming SQL state 37000 (or an `SPxxx`
   * code), and one over its own execution limit with `S1T00`: the caller's query is at fault, not
   * the server.
   */
  private failure(error: unknown): unknown {
    if (!(error instanceof SparqlRequestFailed)) return error;
    if (error.timedOut || /S1T00/.test(error.message)) return new QueryFailed({ failure: 'timeout', millis: this.options.timeoutMillis });
    if (error.status === 400 || (error.status === 500 && /\b37000\b|\bSP\d{3}\b|\b22\d{3}\b/.test(error.message)))
      return new QueryFailed({ failure: 'invalid', message: error.message.replace(/^\d+ from \S+: /, '') });
    return error;
  }

  async close(): Promise<void> {}
}
