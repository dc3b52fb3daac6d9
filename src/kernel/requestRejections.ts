import { Rejection } from './Rejection.js';
import type { RejectionTypes } from './Rejection.js';

/** Requests of any kind (revisions, bodies, parameters, routes, access, capacity): the rejections they raise, named as existing clients expect them (wire-format.md). */
export const requestRejections = {
  incorrectRev: (provided: number, expected: number) =>
    new Rejection('IncorrectRev', `Incorrect revision '${provided}' provided, expected '${expected}', the resource may have been updated since last seen.`, {
      provided,
      expected,
    }),
  malformedContent: (reason: string) => new Rejection('MalformedRequestContentRejection', reason),
  malformedQueryParam: (reason: string) => new Rejection('MalformedQueryParamRejection', reason),
  payloadTooLarge: (limit: number) => new Rejection('PayloadTooLarge', `The request payload exceeds the maximum allowed size of ${limit} bytes.`),
  unsupportedContentType: (contentType: string) =>
    new Rejection(
      'UnsupportedRequestContentTypeRejection',
      `The request's Content-Type '${contentType}' is not supported; expected 'application/json' or 'application/ld+json'.`,
    ),
  notAcceptable: (supported: string[]) =>
    new Rejection('UnacceptedResponseContentTypeRejection', `Resource representation is only available with these types: ${supported.join(', ')}.`, {
      supported,
    }),
  routeNotFound: () => new Rejection('ResourceNotFound', 'The requested resource could not be found.'),
  methodNotAllowed: (allowed: string[]) =>
    new Rejection('HttpMethodNotAllowed', `HTTP method not allowed, supported methods: ${allowed.join(', ')}.`, { allowed }),
  malformedHeader: (header: string, reason: string) =>
    new Rejection('MalformedHeaderRejection', `The value of the '${header}' header is invalid: ${reason}`, { header }),
  invalidLabel: (label: string) => new Rejection('InvalidLabel', `Label '${label}' is invalid: it must match [a-zA-Z0-9_-]{1,64}.`),
  authorizationFailed: (permission?: string, path?: string) =>
    new Rejection(
      'AuthorizationFailed',
      'The supplied authentication is not authorized to access this resource.',
      permission === undefined ? {} : { details: `Permission '${permission}' is required on '${path}' or one of its ancestors.` },
    ),
  storeFull: (quads: number, limit: number) =>
    new Rejection(
      'StoreCapacityReached',
      `The embedded triple store holds ${quads} quads and refuses writes beyond ${limit}; move to an external SPARQL server (see docs/operations.md).`,
    ),
  expectationFailed: (expectation: string) => new Rejection('ExpectationFailed', `The expectation '${expectation}' is not supported: only '100-continue' is.`),
  tooManyConnections: (limit: number) =>
    new Rejection('TooManyConnections', `The server holds its maximum of ${limit} open connections: retry shortly, and reuse connections (keep-alive).`),
  /** One client (address, or caller) holds its share of the open connections (`MAX_CONNECTIONS_PER_CLIENT`), none of them idle. */
  tooManyClientConnections: (share: number) =>
    new Rejection(
      'TooManyConnections',
      `You hold ${share} open connections, the most one client may hold here: reuse them (keep-alive) or close some before opening another.`,
      { limit: share },
    ),
  /** One caller holds its share of open event streams (`SSE_STREAMS_PER_CALLER`). */
  tooManyEventStreams: (limit: number) =>
    new Rejection(
      'TooManyEventStreams',
      `You already have ${limit} event streams open, the most one caller may hold here: close one (or read several kinds on one stream, /v1/events) before opening another.`,
      { limit },
    ),
  /** A caller's costly requests (searches, SPARQL queries) in flight at once are capped; `retryAfter` (seconds) becomes `Retry-After`. */
  tooManyRequests: (limit: number, retryAfter: number) =>
    new Rejection(
      'TooManyRequests',
      `You already have ${limit} searches or queries running: wait for one to finish before sending another (retry after ${retryAfter} s).`,
      { limit, retryAfter },
    ),
  /** Node refuses a request line and headers past its `maxHeaderSize` before any route sees them (a 60,000-character `q`). */
  requestHeadersTooLarge: (limit: number) =>
    new Rejection(
      'RequestHeadersTooLarge',
      `The request line and headers exceed ${limit} bytes: shorten the query parameters (a long 'q' or filter list); a long search goes in the body of POST /v1/search/query.`,
      { limit },
    ),
  /** What Node's HTTP parser cannot read at all. */
  malformedHttp: (reason: string) => new Rejection('MalformedHttpRequest', `The request is not valid HTTP/1.1: ${reason}.`),
  requestTimeout: (millis: number) =>
    new Rejection('RequestTimeout', `The request did not arrive within ${millis} ms: send the headers and body without pausing.`),
  preconditionFailed: (etag: string) => new Rejection('PreconditionFailed', `The current representation's ETag is ${etag}, which If-Match does not name.`),
  processingTimeExceeded: (millis: number) =>
    new Rejection(
      'ProcessingTimeExceeded',
      `Processing this request took longer than its budget of ${millis} ms and was stopped; nothing was written. Make the payload simpler (for instance fewer values in one property, or a list) or the schema's patterns cheaper.`,
    ),
  /** Every worker was busy for as long as a request's budget: the request was not started (nothing written), through no fault of its own. */
  serverBusy: (waitedMillis: number) =>
    new Rejection(
      'ServerBusy',
      `The server is busy: this request waited ${waitedMillis} ms for a worker and was not started; nothing was written. Retry shortly.`,
      { retryAfter: 1 },
    ),
  eventLogUnavailable: () =>
    new Rejection('EventLogUnavailable', 'The event log cannot be reached for the moment: current data can still be read, writes are refused. Retry shortly.'),
  /** The external triple store did not answer (away, busy, or over the request's time): nothing of the request was done by it. */
  storeUnavailable: () => new Rejection('StoreUnavailable', 'The triple store cannot be reached or did not answer in time: retry shortly.', { retryAfter: 1 }),
  projectionsBehind: (head: number, behind: readonly string[], waitedMillis: number) =>
    new Rejection(
      'ProjectionsBehind',
      `This replica has not yet applied the log up to event ${head} (${behind.join(', ')}) after waiting ${waitedMillis} ms; it answers nothing older than the request. Retry shortly.`,
      { retryAfter: 1 },
    ),
  unexpected: () => new Rejection('UnexpectedError', 'The system experienced an unexpected error, please try again later.'),
};

/** Their HTTP statuses: every type of the family has one, or this does not compile. */
export const requestStatuses = {
  IncorrectRev: 409,
  MalformedRequestContentRejection: 400,
  MalformedQueryParamRejection: 400,
  PayloadTooLarge: 413,
  UnsupportedRequestContentTypeRejection: 415,
  UnacceptedResponseContentTypeRejection: 406,
  ResourceNotFound: 404,
  HttpMethodNotAllowed: 405,
  MalformedHeaderRejection: 400,
  InvalidLabel: 400,
  AuthorizationFailed: 403,
  StoreCapacityReached: 507,
  EventLogUnavailable: 503,
  ProcessingTimeExceeded: 400,
  ServerBusy: 503,
  PreconditionFailed: 412,
  ExpectationFailed: 417,
  TooManyConnections: 503,
  ProjectionsBehind: 503,
  StoreUnavailable: 503,
  TooManyRequests: 429,
  TooManyEventStreams: 429,
  RequestHeadersTooLarge: 400,
  MalformedHttpRequest: 400,
  RequestTimeout: 408,
  UnexpectedError: 500,
} satisfies Record<RejectionTypes<typeof requestRejections>, number>;
