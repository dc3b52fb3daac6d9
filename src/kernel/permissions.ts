/** Every permission this service checks somewhere; each is part of the minimum set (wire-iam.md). */
export const P = {
  aclsRead: 'acls/read',
  aclsWrite: 'acls/write',
  permissionsRead: 'permissions/read',
  permissionsWrite: 'permissions/write',
  realmsRead: 'realms/read',
  realmsWrite: 'realms/write',
  eventsRead: 'events/read',
  organizationsRead: 'organizations/read',
  organizationsWrite: 'organizations/write',
  organizationsCreate: 'organizations/create',
  projectsRead: 'projects/read',
  projectsWrite: 'projects/write',
  projectsCreate: 'projects/create',
  projectsDelete: 'projects/delete',
  resourcesRead: 'resources/read',
  resourcesWrite: 'resources/write',
  resolversWrite: 'resolvers/write',
  viewsQuery: 'views/query',
  viewsWrite: 'views/write',
  schemasWrite: 'schemas/write',
  /** Delta 1.11: running a project's schema-validation job. */
  schemasRun: 'schemas/run',
  filesWrite: 'files/write',
  storagesRead: 'storages/read',
  storagesWrite: 'storages/write',
  versionRead: 'version/read',
  supervisionRead: 'supervision/read',
} as const;

export type Permission = string;

/** The permissions that can never be removed; includes the storages' default read/write permissions. */
export const MINIMUM_PERMISSIONS: readonly Permission[] = Object.freeze([...new Set(Object.values(P))].sort());

const SYNTAX = /^[a-zA-Z][\w\-:\\/]{0,31}$/;

export const isPermission = (value: string): boolean => SYNTAX.test(value);

/** A permission this service checks: what a route declares. */
export type CheckedPermission = (typeof P)[keyof typeof P];

export const PERMISSIONS: readonly CheckedPermission[] = Object.values(P);
