import type { ProjectAccess } from './ProjectAccess.js';
import type { Caller } from './Caller.js';
import type { CheckedPermission as Permission } from './permissions.js';

export type { ProjectAccess };

/** A path ACLs are set on: `/`, `/{org}` or `/{org}/{project}`. */
export type AclPath = string;

/** Authorization decisions; the HTTP layer asks it before any service runs. */
export interface AclCheck {
  /** Resolves when the caller holds `permission` on `path` or an ancestor; rejects with `AuthorizationFailed` otherwise. */
  authorize(caller: Caller, permission: Permission, path: AclPath): Promise<void>;
  /** The projects below `path` on which the caller holds `permission`. */
  access(caller: Caller, permission: Permission, path: AclPath): Promise<ProjectAccess>;
}
