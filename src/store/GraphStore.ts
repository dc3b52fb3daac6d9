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

/**
 * The triple store port: named graphs, SPARQL queries and updates, bulk loads of N-Quads text.
 * Asynchronous so that a remote store fits behind it. Implemented by the embedded Oxigraph store; an external SPARQL 1.1 server can stand behind it
 * in a scaled-out deployment. Nothing outside `src/store` knows which one runs.
 */
export interface GraphStore {
  /** A hint that about `bytes` of N-Quads text are about to be loaded (restart), so room can be made at once. */
  prepareLoad(bytes: number): Promise<void>;
  /** Adds triples given as N-Triples bytes to one named graph. */
  loadGraph(graph: string, ntriples: Uint8Array): Promise<void>;
  /** Adds quads given as N-Quads text (or its UTF-8 bytes). */
  load(nquads: string | Uint8Array): Promise<void>;
  update(sparql: string): Promise<void>;
  /**
   * Whether the store can keep these triples (N-Triples text) as a revision graph: undefined when
   * it can, else the line it refuses. Checked before an event is appended, so whatever the log
   * holds can be projected.
   */
  refusedLine(ntriples: string): string | undefined;
  /** A SELECT over the whole store, or over `dataset` only. */
  select(sparql: string, dataset?: Dataset): Promise<Row[]>;
  /** The quads of one graph as N-Triples text. */
  graph(name: string): Promise<string>;
  dropGraphs(names: string[]): Promise<void>;
  size(): Promise<number>;
}
