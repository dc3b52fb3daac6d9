/** The permissions this service checks (spec §5, wire-iam.md); every route names one of them. */
export const PERMISSIONS = [
  'acls/read',
  'acls/write',
  'events/read',
  'files/write',
  'organizations/create',
  'organizations/read',
  'organizations/write',
  'permissions/read',
  'permissions/write',
  'projects/create',
  'projects/read',
  'projects/write',
  'realms/read',
  'realms/write',
  'resources/read',
  'resources/write',
  'schemas/write',
  'storages/write',
  'version/read',
  'views/query',
] as const;

export type Permission = (typeof PERMISSIONS)[number];
