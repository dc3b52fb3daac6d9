import type { Router } from 'express';
import { AclIndex } from './AclIndex.js';
import { aclsCheck } from './aclsCheck.js';
import type { AclCheck } from '../../kernel/AclCheck.js';
import { anonymousCaller, identityFromKey } from '../../kernel/Identity.js';
import { MINIMUM_PERMISSIONS } from '../../kernel/permissions.js';
import { RealmDiscovery } from './RealmDiscovery.js';
import { TokenVerifier } from './TokenVerifier.js';
import { bootstrapRootAcl } from './acls/Acl.js';
import { aclDefinition } from './acls/aclDefinition.js';
import { AclService } from './acls/AclService.js';
import type { Lifecycle } from '../../domain/Lifecycle.js';
import { initialPermissions } from './permissions/Permissions.js';
import { permissionsDefinition } from './permissions/permissionsDefinition.js';
import { PermissionsService } from './permissions/PermissionsService.js';
import { activeRealmByIssuer } from './realms/Realm.js';
import { realmDefinition } from './realms/realmDefinition.js';
import { RealmService } from './realms/RealmService.js';
import type { Authenticator } from '../../http/authenticate.js';
import type { Routes } from '../../http/route.js';
import { iamRoutes } from './iamRoutes.js';
import type { Addresses } from '../../kernel/Addresses.js';
import type { Clock } from '../../kernel/Clock.js';
import type { ProjectRef } from '../../kernel/labels.js';
import { PERMISSIONS_KEY } from '../../kernel/logKeys.js';
import type { States } from '../../projection/States.js';

export interface AccessControlSettings {
  /** Who `/` grants every permission to on a fresh service (`anonymous` unless configured). */
  bootstrapIdentity: string;
  /** Bound of every request to an OpenID provider (discovery, JWKS). */
  providerTimeoutMillis: number;
}

/** The kinds of access control (realms, ACLs, permissions), registered before the projector starts. */
export const accessControlKinds = (settings: AccessControlSettings) => {
  const identity = identityFromKey(settings.bootstrapIdentity);
  if (!identity) throw new Error(`bootstrap identity '${settings.bootstrapIdentity}' is not an identity address`);
  const epoch = new Date(0).toISOString();
  const bootstrap = bootstrapRootAcl(identity, MINIMUM_PERMISSIONS, epoch, 'anonymous');
  const initial = initialPermissions(MINIMUM_PERMISSIONS, epoch, 'anonymous');
  const permissions = permissionsDefinition(initial, MINIMUM_PERMISSIONS);
  return {
    bootstrap,
    initial,
    realms: realmDefinition,
    acls: aclDefinition(bootstrap),
    permissions,
    /** The permissions defined now (`/v1/permissions`), read off the states. */
    current: (states: States) => (states.of(permissions).get(PERMISSIONS_KEY) ?? initial).permissions,
  };
};

/**
 * Access control over the projected states: tokens verified against the realms, ACL decisions for
 * the route table, and the routes of identities, realms, permissions and ACLs.
 */
export const accessControl = (
  kinds: ReturnType<typeof accessControlKinds>,
  states: States,
  deps: { lifecycle: Lifecycle; clock: Clock; addresses: Addresses; projects: () => Iterable<ProjectRef>; settings: AccessControlSettings },
) => {
  const realmStates = states.of(kinds.realms);
  const aclStates = states.of(kinds.acls);
  const permissionStates = states.of(kinds.permissions);
  const current = () => permissionStates.get(PERMISSIONS_KEY) ?? kinds.initial;
  const aclIndex = new AclIndex(kinds.bootstrap, aclStates);
  const verifier = new TokenVerifier((issuer) => activeRealmByIssuer(realmStates.values(), issuer), { timeoutMs: deps.settings.providerTimeoutMillis });
  const authenticator: Authenticator = ({ authorization, accessToken }) =>
    accessToken !== undefined && authorization === undefined ? verifier.verify(accessToken) : verifier.callerOf(authorization);
  const check: AclCheck = aclsCheck(aclIndex, deps.projects);
  const realms = new RealmService(realmStates, deps.lifecycle, new RealmDiscovery({ timeoutMs: deps.settings.providerTimeoutMillis }), deps.clock);
  const aclContext = () => ({ permissions: new Set(current().permissions), realms: new Set(realmStates.keys()) });
  const acls = new AclService(aclIndex, deps.lifecycle, aclContext, deps.clock);
  const permissions = new PermissionsService(current, MINIMUM_PERMISSIONS, deps.lifecycle, deps.clock);
  return {
    authenticator,
    check,
    /** The permissions defined now (`/v1/permissions`). */
    permissions: () => current().permissions,
    /** The OpenID configuration of an active realm (the frontend's login). */
    openIdConfig: (label: string) => {
      const realm = realmStates.get(label);
      return realm && !realm.deprecated ? realm.openIdConfig : undefined;
    },
    /** Anonymous callers may change the root ACL, hence do everything (a fresh service, by default). */
    openToAnonymous: () => aclIndex.allows(anonymousCaller, 'acls/write', '/'),
    /** What start-up provisioning writes through (src/provisioning). */
    provisioning: { realms, acls, aclContext, rootWritten: () => (aclIndex.get('/')?.rev ?? 0) > 0 },
    routes: (routes: Routes, router: Router) => iamRoutes(routes, router, { realms, acls, aclIndex, permissions, addresses: deps.addresses }),
  };
};
