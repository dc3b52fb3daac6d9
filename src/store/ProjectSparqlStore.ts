import type { ProjectRef } from '../kernel/labels.js';

/** The four forms of a SPARQL query; each answers in its own family of media types. */
export type QueryForm = 'select' | 'ask' | 'construct' | 'describe';

/** A caller's read-only query over one project. */
export interface ProjectQuery {
  project: ProjectRef;
  query: string;
  form: QueryForm;
  /** The media type to answer in, one the form supports (see `answerTypes`). */
  mediaType: string;
  /** The protocol's `default-graph-uri` / `named-graph-uri`: they replace the query's own FROM / FROM NAMED. */
  defaultGraphs?: string[];
  namedGraphs?: string[];
}

/** What a query answered, serialized. */
export interface QueryAnswer {
  mediaType: string;
  body: string;
}

/** Why a query was not answered; the service turns each into its typed rejection. */
export type QueryFailure =
  | { failure: 'timeout'; millis: number }
  /** Waited for other queries until its budget was spent, without starting. */
  | { failure: 'busy'; millis: number }
  | { failure: 'tooLarge'; limit: number }
  | { failure: 'invalid'; message: string }
  /** The engine or its worker failed under the query (out of memory, a panic): not the query's fault as written. */
  | { failure: 'crashed'; message: string };

export class QueryFailed extends Error {
  constructor(readonly reason: QueryFailure) {
    super(reason.failure);
  }
}

/** An item's head revision graph in its project's default graph (none: deprecated or deleted). */
export interface ItemHead {
  project: ProjectRef;
  item: string;
  graph: string | undefined;
}

/**
 * The store port's query side for callers (SPARQL endpoint): every project is a dataset of its own,
 * fixed by the store before a query runs, never by rewriting the query. The default graph is the
 * union of the head revision graphs of the project's current, non-deprecated items; the named
 * graphs are every revision graph of the project, nothing else (other projects and the catalogue
 * are out of reach whatever the query says). A query is stopped after its time budget (QueryFailed
 * 'timeout') while the process keeps answering, and refused beyond the result cap ('tooLarge').
 *
 * Fed from the projection in log order: revisions as they are written, the head of each item as it
 * changes, graphs of permanently deleted items. Each change is done when its promise resolves (an
 * external store's write was acknowledged); a failure fails the projection of that event.
 */
export interface ProjectSparqlStore {
  /** At start, once the states are restored: the head revision graph of every current item, as [project, item, graph]. */
  start(heads: Iterable<[ProjectRef, string, string]>): Promise<void>;
  /** Revision graph `graph` of `project` holds these N-Triples (a graph already held is kept as is: revision graphs never change). */
  revision(project: ProjectRef, graph: string, ntriples: string): Promise<void>;
  /** The head revision graph of `item` (undefined: it has none in the default graph, being deprecated or deleted). */
  current(project: ProjectRef, item: string, graph: string | undefined): Promise<void>;
  /** `current` for several items, in as few requests as the store allows; of two heads given for one item the later holds. */
  currents(heads: readonly ItemHead[]): Promise<void>;
  /** Permanent deletion. */
  drop(project: ProjectRef, graphs: string[]): Promise<void>;
  query(query: ProjectQuery): Promise<QueryAnswer>;
  close(): Promise<void>;
}

/** Media types by form; the first is the default. */
export const answerTypes: Record<QueryForm, readonly string[]> = {
  select: ['application/sparql-results+json', 'application/sparql-results+xml', 'text/csv', 'text/tab-separated-values'],
  ask: ['application/sparql-results+json', 'application/sparql-results+xml', 'text/csv', 'text/tab-separated-values'],
  // RDF/XML: what rdflib's SPARQLStore asks for (`application/sparql-results+xml, application/rdf+xml`).
  construct: ['application/n-triples', 'text/turtle', 'application/n-quads', 'application/ld+json', 'application/rdf+xml'],
  describe: ['application/n-triples', 'text/turtle', 'application/n-quads', 'application/ld+json', 'application/rdf+xml'],
};
