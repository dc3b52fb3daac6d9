import { authStatuses } from '../kernel/authRejections.js';
import { orgStatuses } from '../domain/orgs/orgRejections.js';
import { projectStatuses } from '../domain/projects/projectRejections.js';
import { requestStatuses } from '../kernel/requestRejections.js';
import { resourceStatuses } from '../domain/resources/resourceRejections.js';
import { jsonldStatuses } from '../jsonld/jsonldRejections.js';
import { trackerRelayedStatuses, trackerStatuses } from '../tracker/trackerRejections.js';
import { searchStatuses } from '../search/searchRejections.js';
import { sparqlStatuses } from '../sparqlEndpoint/sparqlRejections.js';

/**
 * The one place that maps rejection types to HTTP status codes (wire-format.md, "Error body"): the
 * statuses of every family of rejections. Each family's map is exhaustive over its own types (a
 * type without a status does not compile); a new family joins here.
 */
const statuses: Partial<Record<string, number>> = {
  ...requestStatuses,
  ...orgStatuses,
  ...projectStatuses,
  ...resourceStatuses,
  ...jsonldStatuses,
  ...authStatuses,
  ...trackerStatuses,
  ...searchStatuses,
  ...sparqlStatuses,
};

/** Types that relay the error status another service answered (their field `relayedStatus`), when it is one. */
const relayed: ReadonlySet<string> = new Set([...trackerRelayedStatuses]);

/**
 * The status of a rejection type; undefined for a type no family declares (an error of ours).
 * `modules`: the statuses capability modules declare (the error middleware passes them).
 */
export const statusOf = (type: string, fields: Record<string, unknown> = {}, modules: Readonly<Record<string, number>> = {}): number | undefined => {
  const upstream = fields['relayedStatus'];
  if (relayed.has(type) && typeof upstream === 'number' && Number.isInteger(upstream) && upstream >= 400 && upstream <= 599) return upstream;
  return statuses[type] ?? modules[type];
};
