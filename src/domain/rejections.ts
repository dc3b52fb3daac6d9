import { Rejection } from './Rejection.js';

/** Every rejection the service raises, named as existing clients expect them (wire-format.md). */
export const rejections = {
  incorrectRev: (provided: number, expected: number) =>
    new Rejection(
      'IncorrectRev',
      `Incorrect revision '${provided}' provided, expected '${expected}', the resource may have been updated since last seen.`,
      { provided, expected },
    ),
  alreadyExists: (id: string, project: string) =>
    new Rejection('ResourceAlreadyExists', `Resource '${id}' already exists in project '${project}'.`),
  notFound: (id: string, project: string) =>
    new Rejection('ResourceNotFound', `Resource '${id}' not found in project '${project}'.`),
  revisionNotFound: (provided: number, current: number) =>
    new Rejection('RevisionNotFound', `Revision requested '${provided}' not found, last known revision is '${current}'.`, {
      provided,
      current,
    }),
  tagNotFound: (tag: string) => new Rejection('TagNotFound', `Tag requested '${tag}' not found.`),
  isDeprecated: (id: string) => new Rejection('ResourceIsDeprecated', `Resource '${id}' is deprecated.`),
  isNotDeprecated: (id: string) => new Rejection('ResourceIsNotDeprecated', `Resource '${id}' is not deprecated.`),
  unexpectedSchema: (id: string, named: string, current: string) =>
    new Rejection(
      'UnexpectedResourceSchema',
      `Resource '${id}' is constrained by '${current}', not by '${named}'; an update cannot change the schema (use update-schema).`,
    ),
  schemaNotFound: (iri: string, project: string) =>
    new Rejection('ResourceNotFound', `Schema '${iri}' not found in project '${project}'.`),
  schemaIsDeprecated: (iri: string) => new Rejection('SchemaIsDeprecated', `Schema '${iri}' is deprecated.`),
  invalidResource: (id: string, schema: string, report: unknown) =>
    new Rejection('InvalidResource', `Resource '${id}' failed to validate against the constraints defined in schema '${schema}'.`, { details: report }),
  noTargetedNode: (id: string, schema: string) =>
    new Rejection('NoTargetedNode', `Resource '${id}' was not validated: no shape of schema '${schema}' targets any of its nodes.`),
  invalidSchema: (id: string, report: unknown) =>
    new Rejection('InvalidSchema', `Schema '${id}' is not valid SHACL.`, { details: report }),
  invalidSchemaResolution: (id: string, importIri: string, why: 'missing' | 'deprecated') =>
    new Rejection(
      'InvalidSchemaResolution',
      `Schema '${id}' imports '${importIri}', which ${why === 'missing' ? 'is neither a schema nor a resource of the project' : 'is deprecated'}.`,
      { imports: [importIri] },
    ),
  unexpectedId: (id: string, payloadId: string) =>
    new Rejection('UnexpectedId', `Id '${id}' does not match the payload id '${payloadId}'.`),
  invalidResourceId: (id: string) =>
    new Rejection('InvalidResourceId', `Resource identifier '${id}' cannot be expanded to an Iri.`),
  reservedTypes: (types: string[]) =>
    new Rejection(
      'ReservedResourceTypes',
      `Resource types '${types.join(', ')}' belong to the service vocabulary and cannot be used on a resource.`,
    ),
  invalidJsonLd: (details: string) =>
    new Rejection('InvalidJsonLdFormat', `The provided payload could not be read as JSON-LD: ${details}`, { details }),
  malformedContent: (reason: string) => new Rejection('MalformedRequestContentRejection', reason),
  malformedQueryParam: (reason: string) => new Rejection('MalformedQueryParamRejection', reason),
  payloadTooLarge: (limit: number) =>
    new Rejection('PayloadTooLarge', `The request payload exceeds the maximum allowed size of ${limit} bytes.`),
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
  organizationNotFound: (label: string) =>
    new Rejection('OrganizationNotFound', `Organization '${label}' not found.`),
  organizationAlreadyExists: (label: string) =>
    new Rejection('OrganizationAlreadyExists', `Organization '${label}' already exists.`),
  organizationIsDeprecated: (label: string) =>
    new Rejection('OrganizationIsDeprecated', `Organization '${label}' is deprecated.`),
  projectNotFound: (ref: string) => new Rejection('ProjectNotFound', `Project '${ref}' not found.`),
  projectAlreadyExists: (ref: string) => new Rejection('ProjectAlreadyExists', `Project '${ref}' already exists.`),
  projectIsDeprecated: (ref: string) => new Rejection('ProjectIsDeprecated', `Project '${ref}' is deprecated.`),
  invalidLabel: (label: string) =>
    new Rejection('InvalidLabel', `Label '${label}' is invalid: it must match [a-zA-Z0-9_-]{1,64}.`),
  storeFull: (quads: number, limit: number) =>
    new Rejection(
      'StoreCapacityReached',
      `The embedded triple store holds ${quads} quads and refuses writes beyond ${limit}; move to an external SPARQL server (see the README).`,
    ),
  malformedHeader: (header: string, reason: string) => new Rejection('MalformedHeaderRejection', `The value of the '${header}' header is invalid: ${reason}`, { header }),
  authorizationFailed: () => new Rejection('AuthorizationFailed', 'The supplied authentication is not authorized to access this resource.'),
  unexpected: () => new Rejection('UnexpectedError', 'The system experienced an unexpected error, please try again later.'),
};
