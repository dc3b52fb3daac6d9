import { Rejection } from '../../../kernel/Rejection.js';
import type { RejectionTypes } from '../../../kernel/Rejection.js';

/** Storages: the rejections they raise, named as existing clients expect them (wire-storages-files.md). */
export const storageRejections = {
  notFound: (id: string, project: string) => new Rejection('ResourceNotFound', `Storage '${id}' not found in project '${project}'.`),
  alreadyExists: (id: string, project: string) => new Rejection('ResourceAlreadyExists', `Storage '${id}' already exists in project '${project}'.`),
  storageNotAccessible: (id: string, details: string) => new Rejection('StorageNotAccessible', `Storage '${id}' not accessible.`, { details }),
  invalidStorageType: (type: string, enabled: string[]) =>
    new Rejection('InvalidStorageType', `Storage type '${type}' is not supported; the enabled types are ${enabled.map((t) => `'${t}'`).join(', ')}.`),
  differentStorageType: (id: string, found: string, expected: string) =>
    new Rejection('DifferentStorageType', `Storage '${id}' is of type '${expected}' and can't be updated to be a '${found}'.`),
  invalidMaxFileSize: (id: string, value: number, max: number) =>
    new Rejection('InvalidMaxFileSize', `Max file size '${value}' for storage '${id}' must be greater than 0 and less than or equal to '${max}'.`),
  isDeprecated: (id: string) => new Rejection('StorageIsDeprecated', `Storage '${id}' is deprecated.`),
  permissionsAreNotDefined: (permissions: string[]) =>
    new Rejection('PermissionsAreNotDefined', `The provided permissions '${permissions.join(', ')}' are not defined in the collection of allowed permissions.`),
  invalidStoragePayload: (id: string, details: unknown) =>
    new Rejection('InvalidStorage', `Storage '${id}' failed to validate against the storages schema.`, { details }),
  missingStorageCredentials: (missing: string[], id: string, endpoint: string) =>
    new Rejection(
      'MissingStorageCredentials',
      `Storage '${id}' names the endpoint '${endpoint}', which is not the configured default endpoint of its type: it must bring its own ${missing.map((m) => `'${m}'`).join(' and ')}; the deployment's default credentials are sent to the default endpoint only.`,
    ),
  invalidStorageEndpoint: (id: string, endpoint: string, details: string) =>
    new Rejection('InvalidStorageEndpoint', `Storage '${id}' cannot use the endpoint '${endpoint}'.`, { details }),
  noDefaultStorage: (project: string) => new Rejection('ResourceNotFound', `Project '${project}' has no default storage.`),
};

/** Their HTTP statuses: every type of the family has one, or this does not compile. */
export const storageStatuses = {
  ResourceNotFound: 404,
  ResourceAlreadyExists: 409,
  StorageNotAccessible: 400,
  InvalidStorageType: 400,
  DifferentStorageType: 400,
  InvalidMaxFileSize: 400,
  StorageIsDeprecated: 400,
  PermissionsAreNotDefined: 400,
  InvalidStorage: 400,
  MissingStorageCredentials: 400,
  InvalidStorageEndpoint: 400,
} satisfies Record<RejectionTypes<typeof storageRejections>, number>;
