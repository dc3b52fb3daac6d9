import { authStatuses } from '../auth/authRejections.js';
import { orgStatuses } from '../domain/orgs/orgRejections.js';
import { projectStatuses } from '../domain/projects/projectRejections.js';
import { requestStatuses } from '../domain/requestRejections.js';
import { resourceStatuses } from '../domain/resources/resourceRejections.js';
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
  ...authStatuses,
  ...sparqlStatuses,
};

/** The status of a rejection type; undefined for a type no family declares (an error of ours). */
export const statusOf = (type: string): number | undefined => statuses[type];
