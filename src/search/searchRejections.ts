import { Rejection } from '../kernel/Rejection.js';
import type { RejectionTypes } from '../kernel/Rejection.js';

/** Refusals of the search API (spec 4.6): names as the public system's search plugin uses them where it has one. */
export const searchRejections = {
  /** A query type, aggregation type, parameter or syntax this registry does not evaluate: named, never ignored. */
  unsupportedConstruct: (construct: string, where: string) =>
    new Rejection('UnsupportedSearchConstruct', `The search construct '${construct}' (${where}) is not supported.`, { construct }),
  /** A supported construct written wrongly. */
  malformedSearchQuery: (reason: string) => new Rejection('MalformedSearchQuery', reason),
  unknownSuite: (name: string) => new Rejection('UnknownSuite', `The suite '${name}' can't be found.`),
  /** `GET /v1/search/config` without `plugins.search.fields` configured. */
  searchConfigUnavailable: () => new Rejection('SearchConfigUnavailable', "No search configuration is set: 'plugins.search.fields' names no file."),
};

export const searchStatuses: Record<RejectionTypes<typeof searchRejections>, number> = {
  UnsupportedSearchConstruct: 400,
  MalformedSearchQuery: 400,
  UnknownSuite: 404,
  SearchConfigUnavailable: 404,
};
