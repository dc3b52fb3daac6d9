/** A SPARQL 1.1 JSON results binding. */
export interface Binding {
  type: 'uri' | 'literal' | 'bnode' | 'triple';
  value: string;
  datatype?: string;
  'xml:lang'?: string;
}

export type Row = Record<string, Binding | undefined>;

/**
 * The graphs a query may see, fixed before it runs (never by rewriting its text): the default
 * graph is the union of `defaultGraphs`, and `GRAPH` reaches only `namedGraphs`.
 */
export interface Dataset {
  defaultGraphs: string[];
  namedGraphs: string[];
}

/** One revision graph's triples as N-Triples text. */
export interface RevisionText {
  graph: string;
  ntriples: string;
}

/**
 * The triple store port: named graphs, SPARQL queries and updates, bulk loads of N-Quads text.
 * Asynchronous so that a remote store fits behind it. Implemented by the embedded Oxigraph store; an
 * external SPARQL 1.1 server can stand behind it in a scaled-out deployment. Nothing outside
 * `src/store` knows which one runs.
 *
 * Two kinds of content: revision graphs (`putGraph`), which the store keeps across restarts up to
 * its last checkpoint, and derived content (`load`, `loadGraph`, `update`: the catalogue), which
 * the embedded store's projection rebuilds at every start; a shared external store keeps it, written
 * by the lease holder alone like its revision graphs.
 */
export interface GraphStore extends StoreCheckpoints {
  /** Writes one revision graph from N-Triples text; it survives restarts once a checkpoint covers it. */
  putGraph(graph: string, ntriples: string): Promise<void>;
  /**
   * Writes several revision graphs, in as few requests as the store allows: each whole and once (a
   * graph the store holds already is kept as is, so writing them again changes nothing), the blank
   * nodes of each its own. The first of two texts for one graph is written.
   */
  putGraphs(graphs: readonly RevisionText[]): Promise<void>;
  /** Adds derived triples given as N-Triples bytes to one named graph. */
  loadGraph(graph: string, ntriples: Uint8Array): Promise<void>;
  /** Adds derived quads given as N-Quads text. */
  load(nquads: string): Promise<void>;
  update(sparql: string): Promise<void>;
  /**
   * Whether the store can keep these triples (N-Triples text) as a revision graph: undefined when
   * it can, else the line it refuses. Checked before an event is appended, so whatever the log
   * holds can be projected.
   */
  refusedLine(ntriples: string): string | undefined;
  /** Refuses a write that adds content (`StoreCapacityReached`) once the store holds as many quads as it may. */
  ensureRoom(): Promise<void>;
  /** A SELECT over the whole store, or over `dataset` only. */
  select(sparql: string, dataset?: Dataset): Promise<Row[]>;
  /** The quads of one graph as N-Triples text. */
  graph(name: string): Promise<string>;
  /** Removes graphs, revision graphs from the persisted copy too (permanent deletion). */
  dropGraphs(names: string[]): Promise<void>;
  size(): Promise<number>;
  /** Releases files and connections; a checkpoint is taken first. */
  close(): Promise<void>;
}

/**
 * Restart points. A snapshot of the states records the store's checkpoint taken with it, so a
 * restart restores both from the same moment and replays the log from there.
 */
export interface StoreCheckpoints {
  /** Marks the revision graphs stored so far as a restart point; `durable` waits for the disk. */
  checkpoint(durable: boolean): number;
  /** Makes the last checkpoint durable, off the event loop. */
  persist(): Promise<void>;
  /**
   * At start: restores the revision graphs up to `mark` (none: starts empty and forgets any
   * persisted graph), with room for about `extraBytes` of derived text loaded after them. When
   * they cannot be restored, says why: the store is then empty, and the caller replays the whole log.
   * `seq` is the snapshot's position: a store shared by every replica, projected on its own
   * position, asks for the whole log when it is behind it (only then are the changes it lacks at hand).
   */
  restore(mark: number | undefined, extraBytes: number, seq?: number): Promise<{ restored: true } | { restored: false; reason: string }>;
}
