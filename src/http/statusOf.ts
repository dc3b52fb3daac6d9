/** The one place that maps rejection types to HTTP status codes (wire-format.md, "Error body"). */
const STATUS: Record<string, number> = {
  AuthenticationFailed: 401,
  InvalidAccessToken: 401,
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
};

/** Every other rejection is the client's mistake. */
export const statusOf = (type: string): number => STATUS[type] ?? 400;
