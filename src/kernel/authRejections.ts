import { Rejection } from './Rejection.js';
import type { RejectionTypes } from './Rejection.js';

/**
 * Refusals of identity and access control, named as Delta names them (wire-iam.md). Statuses the
 * status map needs: 401 for the token family, 404 RealmNotFound and AclNotFound, every other one 400
 * (IncorrectRev is the shared 409 of `rejections.incorrectRev`).
 */
export const authRejections = {
  // Credentials (401): a bad token is never read as anonymous.
  authenticationFailed: () => new Rejection('AuthenticationFailed', 'The supplied authentication is invalid: only bearer tokens are accepted.'),
  invalidAccessTokenFormat: (details: string) =>
    new Rejection(
      'InvalidAccessTokenFormat',
      `Access token is invalid; possible causes are: JWT not signed, encoded parts are not properly encoded or each part is not a valid json.`,
      { details },
    ),
  accessTokenDoesNotContainAnIssuer: () =>
    new Rejection('AccessTokenDoesNotContainAnIssuer', 'The token is invalid; possible causes are: incorrect issuer field.'),
  accessTokenDoesNotContainSubject: () => new Rejection('AccessTokenDoesNotContainSubject', 'The token is invalid; it does not contain a subject.'),
  unknownAccessTokenIssuer: () => new Rejection('UnknownAccessTokenIssuer', 'The issuer referenced in the token was not found.'),
  invalidAccessToken: (subject: string | undefined, issuer: string, details: string) =>
    new Rejection('InvalidAccessToken', `The provided token is invalid for user '${subject ?? ''}/${issuer}'.`, { details }),

  // Realms (400 unless said otherwise).
  realmNotFound: (label: string) => new Rejection('RealmNotFound', `Realm '${label}' not found.`), // 404
  realmAlreadyExists: (label: string) => new Rejection('RealmAlreadyExists', `Realm '${label}' already exists.`),
  realmAlreadyDeprecated: (label: string) => new Rejection('RealmAlreadyDeprecated', `Realm '${label}' is already deprecated.`),
  realmOpenIdConfigAlreadyExists: (label: string, openIdConfig: string) =>
    new Rejection('RealmOpenIdConfigAlreadyExists', `Realm '${label}' with openIdConfig '${openIdConfig}' already exists.`, { label, openIdConfig }),
  unsuccessfulOpenIdConfigResponse: (document: string, why: string) =>
    new Rejection('UnsuccessfulOpenIdConfigResponse', `The request to the OpenId configuration endpoint '${document}' failed: ${why}`, { document }),
  illegalIssuerFormat: (document: string, why: string) =>
    new Rejection('IllegalIssuerFormat', `Failed to resolve the issuer from the OpenId configuration '${document}': ${why}`, { document }),
  illegalJwksUriFormat: (document: string, why: string) =>
    new Rejection('IllegalJwksUriFormat', `Failed to resolve the jwks_uri from the OpenId configuration '${document}': ${why}`, { document }),
  illegalEndpointFormat: (document: string, endpoint: string, why: string) =>
    new Rejection('IllegalEndpointFormat', `Failed to resolve the '${endpoint}' from the OpenId configuration '${document}': ${why}`, { document, endpoint }),
  unsuccessfulJwksResponse: (jwksUri: string, why: string) =>
    new Rejection('UnsuccessfulJwksResponse', `The request to the JWKS endpoint '${jwksUri}' failed: ${why}`, { jwksUri }),
  illegalJwkFormat: (jwksUri: string, why: string) => new Rejection('IllegalJwkFormat', `The JWKS of '${jwksUri}' is not a valid key set: ${why}`, { jwksUri }),
  noValidKeysFound: (jwksUri: string) => new Rejection('NoValidKeysFound', `The JWKS of '${jwksUri}' holds no RSA signature key.`, { jwksUri }),

  // Permissions (400).
  illegalPermissionFormat: (permission: string) =>
    new Rejection('IllegalPermissionFormat', `Permission '${permission}' does not match [a-zA-Z][\\w-:\\\\/]{0,31}.`),
  cannotReplaceWithEmptyCollection: () =>
    new Rejection('CannotReplaceWithEmptyCollection', 'Cannot replace the permissions with an empty collection (or with the minimum set only).'),
  cannotAppendEmptyCollection: () => new Rejection('CannotAppendEmptyCollection', 'Cannot append an empty collection of permissions.'),
  cannotSubtractEmptyCollection: () => new Rejection('CannotSubtractEmptyCollection', 'Cannot subtract an empty collection of permissions.'),
  cannotSubtractFromMinimumCollection: (permissions: string[]) =>
    new Rejection('CannotSubtractFromMinimumCollection', `Cannot subtract permissions of the minimum set: '${permissions.join(', ')}'.`, { permissions }),
  cannotSubtractUndefinedPermissions: (permissions: string[]) =>
    new Rejection('CannotSubtractUndefinedPermissions', `Cannot subtract permissions that are not defined: '${permissions.join(', ')}'.`, { permissions }),
  cannotDeleteMinimumCollection: () =>
    new Rejection('CannotDeleteMinimumCollection', 'Cannot delete the minimum collection of permissions: the permissions are already the minimum set.'),

  // ACLs (400 unless said otherwise).
  aclNotFound: (path: string) => new Rejection('AclNotFound', `Acl '${path}' not found.`), // 404
  aclIsEmpty: (path: string) => new Rejection('AclIsEmpty', `Acl '${path}' is empty.`),
  aclCannotContainEmptyPermissionCollection: (path: string) =>
    new Rejection('AclCannotContainEmptyPermissionCollection', `Acl '${path}' cannot contain an empty permission collection for an identity.`),
  unknownRealms: (realms: string[]) => new Rejection('UnknownRealms', `Realms '${realms.join(', ')}' are not known.`, { realms }),
  unknownPermissions: (permissions: string[]) =>
    new Rejection('UnknownPermissions', `Permissions '${permissions.join(', ')}' are not defined.`, { permissions }),
  invalidAclPath: (path: string) => new Rejection('InvalidAclPath', `Acl path '${path}' is not '/', '/{org}' or '/{org}/{project}'.`),
  malformedIdentity: (why: string) => new Rejection('MalformedRequestContentRejection', `The identity is malformed: ${why}`),
  nothingToBeUpdated: (path: string) => new Rejection('NothingToBeUpdated', `Acl '${path}' would not change.`),
  permissionsNothingToBeUpdated: () => new Rejection('NothingToBeUpdated', 'The permissions would not change.'),
};

/** Their HTTP statuses: every type of the family has one, or this does not compile (wire-iam.md). */
export const authStatuses = {
  AccessTokenDoesNotContainAnIssuer: 401,
  AccessTokenDoesNotContainSubject: 401,
  AclCannotContainEmptyPermissionCollection: 400,
  AclIsEmpty: 400,
  AclNotFound: 404,
  AuthenticationFailed: 401,
  CannotAppendEmptyCollection: 400,
  CannotDeleteMinimumCollection: 400,
  CannotReplaceWithEmptyCollection: 400,
  CannotSubtractEmptyCollection: 400,
  CannotSubtractFromMinimumCollection: 400,
  CannotSubtractUndefinedPermissions: 400,
  IllegalEndpointFormat: 400,
  IllegalIssuerFormat: 400,
  IllegalJwkFormat: 400,
  IllegalJwksUriFormat: 400,
  IllegalPermissionFormat: 400,
  InvalidAccessToken: 401,
  InvalidAccessTokenFormat: 401,
  InvalidAclPath: 400,
  MalformedRequestContentRejection: 400,
  NoValidKeysFound: 400,
  NothingToBeUpdated: 400,
  RealmAlreadyDeprecated: 400,
  RealmAlreadyExists: 400,
  RealmNotFound: 404,
  RealmOpenIdConfigAlreadyExists: 400,
  UnknownAccessTokenIssuer: 401,
  UnknownPermissions: 400,
  UnknownRealms: 400,
  UnsuccessfulJwksResponse: 400,
  UnsuccessfulOpenIdConfigResponse: 400,
} satisfies Record<RejectionTypes<typeof authRejections>, number>;
