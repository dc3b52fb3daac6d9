import type { RejectionTypes } from '../domain/Rejection.js';
import type { rejections } from '../domain/rejections.js';

/** Every rejection type the service raises; a family of rejections joins here when it is added. */
export type RejectionType = RejectionTypes<typeof rejections>;

/**
 * The one place that maps rejection types to HTTP status codes (wire-format.md, "Error body"). It is
 * exhaustive: a rejection type without a status does not compile.
 */
const STATUS = {
  AuthorizationFailed: 403,
  ResourceNotFound: 404,
  RevisionNotFound: 404,
  TagNotFound: 404,
  ProjectNotFound: 404,
  OrganizationNotFound: 404,
  HttpMethodNotAllowed: 405,
  UnacceptedResponseContentTypeRejection: 406,
  ResourceAlreadyExists: 409,
  OrganizationAlreadyExists: 409,
  ProjectAlreadyExists: 409,
  IncorrectRev: 409,
  PayloadTooLarge: 413,
  UnsupportedRequestContentTypeRejection: 415,
  StoreCapacityReached: 507,
  UnexpectedError: 500,
  ResourceIsDeprecated: 400,
  ResourceIsNotDeprecated: 400,
  UnexpectedResourceSchema: 400,
  SchemaIsDeprecated: 400,
  InvalidResource: 400,
  NoTargetedNode: 400,
  InvalidSchema: 400,
  InvalidSchemaResolution: 400,
  UnexpectedId: 400,
  InvalidResourceId: 400,
  ReservedResourceTypes: 400,
  InvalidJsonLdFormat: 400,
  MalformedRequestContentRejection: 400,
  MalformedQueryParamRejection: 400,
  OrganizationIsDeprecated: 400,
  ProjectIsDeprecated: 400,
  InvalidLabel: 400,
  MalformedHeaderRejection: 400,
} satisfies Record<RejectionType, number>;

const statuses: Partial<Record<string, number>> = STATUS;

/** The status of a rejection type; undefined for a type no family declares (an error of ours). */
export const statusOf = (type: string): number | undefined => statuses[type];
