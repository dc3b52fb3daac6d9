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
  /**
   * Time travel (`at=`, `tag=`): the default graph is the union of these revision graphs of the
   * project, the named graphs stay every revision graph of the project.
   */
  asOf?: string[];
  /**
   * A user-defined SPARQL view's graph (`viewGraphOf`): the query's dataset is that view's, its
   * default graph the view's copy of its items' triples, its named graphs the graphs of those items.
   */
  view?: string;
  /** Who asks (`callerKey`): the query workers are shared fairly among callers. */
  caller?: string;
}

/** An item as a view's graph holds it (`graph` undefined: the view no longer selects it). */
export interface ViewMember {
  item: string;
  graph: string | undefined;
  /** N-Triples of the item's metadata, for a view that includes them (no blank nodes). */
  metadata?: string;
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
  /** The SPARQL view's copy passed the cap on what one copy holds (quads): it is not queried. */
  | { failure: 'viewTooLarge'; limit: number }
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
  /**
   * The item had no head before (its first change of the batch created it), so the store holds none
   * but this one, written by an earlier attempt at the same batch: nothing to look up or remove.
   */
  created?: boolean;
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
  /**
   * Sets items of a view's graph (`viewGraphOf`) to what each member says: a member's former
   * triples leave the view's default graph unless another member holds them, its new revision's
   * are copied in (once that revision reaches the store, if it has not yet), with its metadata.
   */
  viewMembers(project: ProjectRef, view: string, members: ViewMember[]): Promise<void>;
  /** The view's graph is dropped (view deprecated, updated or restarted: its next build has a graph of its own). */
  dropView(project: ProjectRef, view: string): Promise<void>;
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
