import { iri, integer, literal } from '../rdf/terms.js';
import { capacityGuard } from './capacityGuard.js';
import type { Dataset, GraphStore, RevisionText, Row } from './GraphStore.js';
import { refusedLine } from './refusedLine.js';
import {
  asNTriples,
  dropStatements,
  heldGraphsQueries,
  insertData,
  lineCount as lines,
  revisionInsert,
  revisionInserts,
  standardResults,
} from './remoteSparql.js';
import type { SparqlHttpClient } from './SparqlHttpClient.js';

export interface RemoteStoreOptions {
  /** The graphs this store owns start with it; the server may hold others (Virtuoso's own graphs). */
  graphPrefix: string;
  /** Where the store records which content it holds (its generation) and the log position projected into it. */
  markerGraph: string;
  /** Writes that add content are refused once the owned graphs hold this many quads (none: no limit). */
  maxQuads?: number;
}

/** A named graph that never holds anything: a dataset with no named graphs, in protocol terms. */
const NO_GRAPH = 'urn:registry:no-graph';
const GENERATION = 'urn:registry:generation';
const POSITION = 'urn:registry:position';

/**
 * The triple store on an external SPARQL 1.1 server (Virtuoso in the tests; Oxigraph server, Fuseki
 * or GraphDB by the same protocols): queries by the SPARQL 1.1 Protocol, writes by SPARQL 1.1
 * Update, graph reads and bulk loads by the Graph Store HTTP Protocol. Nothing is kept in the
 * process or the data directory.
 *
 * Checkpoints mean something else here: the server is durable at every write and shared by every
 * replica, so there is nothing to flush and nothing to restore. The first start of a deployment
 * records a random *generation* in the marker graph (`checkpoint()` returns it, snapshots keep it);
 * later starts, with a snapshot or without, adopt it and never empty the store. The store is written
 * by one replica at a time (the lease holder's `storeWriter`) on its own position, and
 * every write is idempotent (a revision graph is written whole and only once, drops are silent,
 * heads are set to what a change says), so writing a change again is harmless.
 *
 * `recordPosition` / `recordedPosition` keep the log position projected into the store in the same
 * marker graph: the projection runner of a stateless replica resumes from there, with no snapshot
 * on its disk.
 */
export class RemoteGraphStore implements GraphStore {
  private generation = 0;
  private written = 0;
  private readonly room: () => Promise<void>;

  constructor(
    private readonly client: SparqlHttpClient,
    private readonly options: RemoteStoreOptions,
  ) {
    this.room = capacityGuard(
      () => this.size(),
      () => this.written,
      options.maxQuads ?? Number.POSITIVE_INFINITY,
    );
  }

  async putGraph(graph: string, ntriples: string): Promise<void> {
    if (!ntriples.trim()) return;
    await this.client.update(revisionInsert(graph, ntriples), true);
    this.written += lines(ntriples);
  }

  /** One query for the graphs held already, then the others in a few requests (`revisionInserts`). */
  async putGraphs(graphs: readonly RevisionText[]): Promise<void> {
    const wanted = new Map<string, RevisionText>();
    for (const g of graphs) if (g.ntriples.trim() && !wanted.has(g.graph)) wanted.set(g.graph, g);
    if (!wanted.size) return;
    for (const query of heldGraphsQueries([...wanted.keys()])) for (const row of await this.select(query)) wanted.delete(row.g!.value);
    for (const update of revisionInserts([...wanted.values()])) await this.client.update(update.text, update.whole);
    for (const g of wanted.values()) this.written += lines(g.ntriples);
  }

  async loadGraph(graph: string, ntriples: Uint8Array): Promise<void> {
    if (!ntriples.length) return;
    await this.client.addToGraph(graph, ntriples);
    this.written += lines(Buffer.from(ntriples).toString('utf8'));
  }

  async load(nquads: string): Promise<void> {
    const update = nquads.trim() ? insertData(nquads) : undefined;
    if (!update) return;
    await this.client.update(update);
    this.written += lines(nquads);
  }

  async update(sparql: string): Promise<void> {
    await this.client.update(sparql);
  }

  refusedLine(ntriples: string): string | undefined {
    return refusedLine(ntriples);
  }

  /** Without a limit nothing is counted: a count walks the whole server. */
  async ensureRoom(): Promise<void> {
    if (this.options.maxQuads !== undefined) await this.room();
  }

  /**
   * With a dataset: the protocol's `default-graph-uri` / `named-graph-uri`. An empty list of named
   * graphs is sent as one graph that holds nothing: Virtuoso (verified) lets `GRAPH ?g` reach every
   * graph when no `named-graph-uri` is given, even with `default-graph-uri`.
   */
  async select(sparql: string, dataset?: Dataset): Promise<Row[]> {
    const params = dataset && {
      'default-graph-uri': dataset.defaultGraphs.length ? dataset.defaultGraphs : [NO_GRAPH],
      'named-graph-uri': dataset.namedGraphs.length ? dataset.namedGraphs : [NO_GRAPH],
    };
    const { body } = await this.client.query(sparql, 'application/sparql-results+json', params);
    return standardResults(body).results?.bindings ?? [];
  }

  async graph(name: string): Promise<string> {
    const { body, type } = await this.client.graph(name);
    return asNTriples(body, type);
  }

  async dropGraphs(names: string[]): Promise<void> {
    for (const statement of dropStatements(names)) await this.client.update(statement);
  }

  async size(): Promise<number> {
    const rows = await this.select(
      `SELECT (COUNT(*) AS ?n) WHERE { GRAPH ?g { ?s ?p ?o } FILTER(STRSTARTS(STR(?g), ${literal(this.options.graphPrefix)}) && ?g != ${iri(this.options.markerGraph)}) }`,
    );
    return Number(rows[0]?.n?.value ?? 0);
  }

  checkpoint(): number {
    return this.generation;
  }

  /** Every write was acknowledged by the server, which keeps it: nothing to flush. */
  async persist(): Promise<void> {}

  /**
   * The store is shared by every replica and projected on its own position (`recordPosition`), by
   * one replica at a time: a start never empties it when it holds this registry's content, snapshot
   * or not. Only a store holding no generation yet (a new deployment) is cleared and marked. When
   * the store's position is behind the snapshot, the caller replays the whole log: the changes the
   * store lacks are then at hand for whichever replica projects into it.
   */
  async restore(mark: number | undefined, _extraBytes = 0, seq?: number): Promise<{ restored: true } | { restored: false; reason: string }> {
    const held = await this.heldGeneration();
    if (held === undefined) {
      await this.empty();
      return mark === undefined
        ? { restored: true }
        : { restored: false, reason: `the external store holds none of this registry's content (the snapshot names generation ${mark})` };
    }
    this.generation = held;
    const position = (await this.recordedPosition()) ?? 0;
    if (mark !== undefined && seq !== undefined && position < seq)
      return {
        restored: false,
        reason: `the external store is projected up to event ${position}, behind the snapshot at ${seq}${held === mark ? '' : ` (it holds generation ${held}, the snapshot names ${mark})`}`,
      };
    return { restored: true };
  }

  /** Records that every event up to `seq` is projected into the store (an idempotent write: the last one wins). */
  async recordPosition(seq: number): Promise<void> {
    const marker = iri(this.options.markerGraph);
    await this.client.update(
      `DELETE WHERE { GRAPH ${marker} { ${marker} <${POSITION}> ?seq } } ;\nINSERT DATA { GRAPH ${marker} { ${marker} <${POSITION}> ${integer(seq)} } }`,
    );
  }

  /** The last position recorded in this generation of the store; undefined when none was. */
  async recordedPosition(): Promise<number | undefined> {
    const marker = iri(this.options.markerGraph);
    const [row] = await this.select(`SELECT ?seq WHERE { GRAPH ${marker} { ${marker} <${POSITION}> ?seq } }`);
    return row?.seq === undefined ? undefined : Number(row.seq.value);
  }

  async close(): Promise<void> {}

  private async heldGeneration(): Promise<number | undefined> {
    const marker = iri(this.options.markerGraph);
    const [row] = await this.select(`SELECT ?g WHERE { GRAPH ${marker} { ${marker} <${GENERATION}> ?g } }`);
    return row?.g === undefined ? undefined : Number(row.g.value);
  }

  /** Drops every graph the store owns, then records a new generation. */
  private async empty(): Promise<void> {
    const rows = await this.select(`SELECT DISTINCT ?g WHERE { GRAPH ?g { ?s ?p ?o } FILTER(STRSTARTS(STR(?g), ${literal(this.options.graphPrefix)})) }`);
    await this.dropGraphs([...rows.map((r) => r.g!.value), this.options.markerGraph]);
    this.generation = 1 + Math.floor(Math.random() * 2 ** 48);
    const marker = iri(this.options.markerGraph);
    await this.client.update(`INSERT DATA { GRAPH ${marker} { ${marker} <${GENERATION}> ${integer(this.generation)} } }`);
    this.written = 0;
  }
}
