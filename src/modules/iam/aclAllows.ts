import type { AclState } from './acls/Acl.js';
import { projectAclPath, selfAndAncestors, type AclPath } from './AclPath.js';
import { identityKey, type Identity } from '../../kernel/Identity.js';

/** Where ACLs are looked up; a `Map<AclPath, AclState>` is one. */
export interface AclLookup {
  get(path: AclPath): AclState | undefined;
}

const grantsOn = (acls: AclLookup, path: AclPath, keys: ReadonlySet<string>, permission: string): boolean =>
  acls.get(path)?.acl.some((e) => keys.has(identityKey(e.identity)) && e.permissions.includes(permission)) ?? false;

const keysOf = (identities: readonly Identity[]) => new Set(identities.map(identityKey));

/** A permission holds on a path when any of the caller's identities holds it there or on an ancestor. */
export const aclAllows = (acls: AclLookup, identities: readonly Identity[], permission: string, path: AclPath): boolean => {
  const keys = keysOf(identities);
  return selfAndAncestors(path).some((p) => grantsOn(acls, p, keys, permission));
};

/** Access pushed into a listing's filter: everything, or only the named projects (`org/project`). */
export type ListingAccess = { mode: 'all' } | { mode: 'limited'; projects: Set<string> };

/**
 * Which of `projects` the caller may list with `permission`. Only a grant on `/` answers 'all': a
 * grant on every org in play still answers 'limited', which stays correct whatever the filter meets.
 */
export const listingAccess = (acls: AclLookup, identities: readonly Identity[], permission: string, projects: Iterable<string>): ListingAccess => {
  const keys = keysOf(identities);
  if (grantsOn(acls, '/', keys, permission)) return { mode: 'all' };
  const orgGrant = new Map<string, boolean>();
  const allowed = new Set<string>();
  for (const ref of projects) {
    const org = ref.slice(0, ref.indexOf('/'));
    let byOrg = orgGrant.get(org);
    if (byOrg === undefined) orgGrant.set(org, (byOrg = grantsOn(acls, `/${org}`, keys, permission)));
    if (byOrg || grantsOn(acls, projectAclPath(ref), keys, permission)) allowed.add(ref);
  }
  return { mode: 'limited', projects: allowed };
};

/** The entries of an ACL naming one of the caller's identities (`GET /v1/acls?self=true`). */
export const ownEntries = (acl: AclState, identities: readonly Identity[]): AclState => {
  const keys = keysOf(identities);
  return { ...acl, acl: acl.acl.filter((e) => keys.has(identityKey(e.identity))) };
};
