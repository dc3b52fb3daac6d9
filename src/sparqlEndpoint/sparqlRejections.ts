import { Rejection } from '../kernel/Rejection.js';
import type { RejectionTypes } from '../kernel/Rejection.js';

/** What the SPARQL endpoint refuses. */
export const sparqlRejections = {
  malformedQuery: (message: string) => new Rejection('MalformedQuery', `The query is not valid SPARQL 1.1: ${message}`),
  unsupportedOperation: (operation: string) =>
    new Rejection(
      'UnsupportedOperation',
      `${operation} is not accepted here: the endpoint answers read-only queries (SELECT, ASK, CONSTRUCT, DESCRIBE) over this project only.`,
      {
        operation,
      },
    ),
  /** Groups or parentheses nested past the limit: refused before a parser recurses into them. */
  tooDeeplyNested: (limit: number) =>
    new Rejection('TooDeeplyNested', `The query nests groups, brackets or parentheses more than ${limit} levels deep; flatten it.`, { limit }),
  missingQuery: () => new Rejection('MissingQuery', "No query given: send it as 'query=' (GET or form-encoded POST) or as an application/sparql-query body."),
  unsupportedBody: (contentType: string) =>
    new Rejection(
      'UnsupportedRequestContentTypeRejection',
      `The request's Content-Type '${contentType}' is not supported; expected 'application/sparql-query' or 'application/x-www-form-urlencoded'.`,
    ),
  /** `at=` / `tag=` on a view whose dataset as of then cannot be told from its selection. */
  timeTravelUnsupported: (view: string, reason: string) =>
    new Rejection(
      'TimeTravelUnsupported',
      `View '${view}' cannot be queried as of an instant or a tag ('at', 'tag'): ${reason}. Query the project's default view ('graph') as of then, or a SparqlView without resourceTag and includeMetadata.`,
      { view },
    ),
  viewNotFound: (view: string, project: string) => new Rejection('ViewNotFound', `View '${view}' not found in project '${project}'.`),
  queryTimeout: (millis: number) =>
    new Rejection(
      'QueryTimeout',
      `The query ran longer than its budget of ${millis} ms and was stopped. Narrow it: more specific patterns, a LIMIT, fewer property paths.`,
      {
        millis,
      },
    ),
  queryServiceBusy: (millis: number) =>
    new Rejection('QueryServiceBusy', `The query could not start within its budget of ${millis} ms: other queries are running. Retry shortly.`, { millis }),
  /** The worker running the query died under it (out of memory, an engine panic): logged, the worker replaced. */
  queryWorkerCrashed: () =>
    new Rejection(
      'QueryWorkerCrashed',
      'The query stopped the worker running it (it needed more memory than a worker has): narrow it, for instance with more specific patterns or a LIMIT, or retry shortly.',
    ),
  resultTooLarge: (limit: number) =>
    new Rejection('QueryResultTooLarge', `The query's answer holds more than ${limit} results (rows or triples); page through it with LIMIT and OFFSET.`, {
      limit,
    }),
  /** A SPARQL view's copy is held by every query worker: one selecting more than the cap is not copied (issue 32). */
  viewTooLarge: (limit: number) =>
    new Rejection(
      'SparqlViewTooLarge',
      `The view selects more than its copy may hold (${limit} quads, counting each triple in its graph and in the default graph): narrow its resourceTypes, resourceSchemas or resourceTag, or query the project's default view.`,
      { limit },
    ),
};

/** Their HTTP statuses: every type of the family has one, or this does not compile. */
export const sparqlStatuses = {
  MalformedQuery: 400,
  TimeTravelUnsupported: 400,
  UnsupportedOperation: 400,
  MissingQuery: 400,
  TooDeeplyNested: 400,
  UnsupportedRequestContentTypeRejection: 415,
  ViewNotFound: 404,
  QueryTimeout: 400,
  QueryServiceBusy: 503,
  QueryWorkerCrashed: 503,
  QueryResultTooLarge: 400,
  SparqlViewTooLarge: 400,
} satisfies Record<RejectionTypes<typeof sparqlRejections>, number>;
