import { Rejection } from '../kernel/Rejection.js';
import type { RejectionTypes } from '../kernel/Rejection.js';

/** Refusals of the search API (spec 4.6): names as the public system's search plugin uses them where it has one. */
export const searchRejections = {
  /** A query type, aggregation type, parameter or syntax this registry does not evaluate: named, never ignored. */
  unsupportedConstruct: (construct: string, where: string) =>
    new Rejection('UnsupportedSearchConstruct', `The search construct '${construct}' (${where}) is not supported.`, { construct }),
  /** A supported construct written wrongly. */
  malformedSearchQuery: (reason: string) => new Rejection('MalformedSearchQuery', reason),
  /** Elasticsearch's `search.max_buckets`: an aggregation may not answer more buckets than this. */
  tooManyBuckets: (limit: number, where: string) =>
    new Rejection('TooManyBuckets', `The aggregation '${where}' would create more than ${limit} buckets; ask for a coarser interval or fewer documents.`, {
      limit,
    }),
  /** Elasticsearch's `too_many_clauses`. */
  tooManyClauses: (limit: number) => new Rejection('TooManyClauses', `The query has more than ${limit} clauses.`, { limit }),
  /** A search still running when its time budget ran out is stopped, so one search cannot hold the service. */
  searchTimedOut: (millis: number) =>
    new Rejection('SearchTimedOut', `The search did not finish within ${millis} ms; narrow it (fewer projects, a more selective query).`, { millis }),
  /** Nesting past the limit (bools in bools, groups in a query_string): refused before anything recurses into it. */
  tooDeeplyNested: (limit: number, where: string) =>
    new Rejection('TooDeeplyNested', `The ${where} is nested more than ${limit} levels deep; flatten it.`, { limit }),
  unknownSuite: (name: string) => new Rejection('UnknownSuite', `The suite '${name}' can't be found.`),
  /** `GET /v1/search/config` without `plugins.search.fields` configured. */
  searchConfigUnavailable: () => new Rejection('SearchConfigUnavailable', "No search configuration is set: 'plugins.search.fields' names no file."),
};

export const searchStatuses: Record<RejectionTypes<typeof searchRejections>, number> = {
  UnsupportedSearchConstruct: 400,
  MalformedSearchQuery: 400,
  TooManyBuckets: 400,
  TooManyClauses: 400,
  SearchTimedOut: 400,
  TooDeeplyNested: 400,
  UnknownSuite: 404,
  SearchConfigUnavailable: 404,
};
