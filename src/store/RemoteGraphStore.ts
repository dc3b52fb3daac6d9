import { iri, integer, literal } from '../rdf/terms.js';
import { capacityGuard } from './capacityGuard.js';
import type { Dataset, GraphStore, Row } from './GraphStore.js';
import { refusedLine } from './refusedLine.js';
import { asNTriples, dropStatements, insertData, revisionInsert, standardResults } from './remoteSparql.js';
import type { SparqlHttpClient } from './SparqlHttpClient.js';

export interface RemoteStoreOptions {
  /** The graphs this store owns start with it; the server may hold others (Virtuoso's own graphs). */
  graphPrefix: string;
  /** Graphs of derived content (the catalogue): emptied at every restore, the projections rebuild them. */
  derivedGraphs: readonly string[];
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
 * Checkpoints mean something else here: the server is durable at every write, so there is nothing
 * to flush. What a restart needs is to know that the store still holds what the snapshot says was
 * projected into it: on an empty start (`restore(undefined)`) the store empties its graphs and
 * records a new random *generation* in its marker graph; `checkpoint()` returns it, and the snapshot
 * keeps it. `restore(mark)` finds the same generation: the store holds at least everything up to the
 * snapshot (perhaps more, written after it), and replaying the log from the snapshot is safe because
 * every write is idempotent (a revision graph is written whole and only once, drops are silent, the
 * catalogue is derived and rebuilt). Another generation (the store was emptied, replaced, or another
 * deployment wrote it): the store is emptied and the whole log replayed.
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
    await this.client.update(revisionInsert(graph, ntriples));
    this.written += lines(ntriples);
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

  async restore(mark: number | undefined): Promise<{ restored: true } | { restored: false; reason: string }> {
    const held = await this.heldGeneration();
    if (mark !== undefined && held === mark) {
      this.generation = held;
      await this.dropGraphs([...this.options.derivedGraphs]);
      return { restored: true };
    }
    await this.empty();
    if (mark === undefined) return { restored: true };
    return {
      restored: false,
      reason:
        held === undefined
          ? `the external store holds none of this registry's content (the snapshot names generation ${mark})`
          : `the external store holds generation ${held}, the snapshot names ${mark} (it was emptied or another registry wrote it)`,
    };
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

const lines = (text: string): number => {
  let n = 0;
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) n++;
  return n;
};
