import type { AclEntry, AclEvent, AclState } from './acls/Acl.js';
import type { Audit } from '../../domain/Metadata.js';
import type { PermissionsEvent, PermissionsState } from './permissions/Permissions.js';
import type { RealmEvent, RealmFields, RealmState, WellKnown } from './realms/Realm.js';
import { context } from '../../kernel/vocabulary.js';
import type { AclPath } from './AclPath.js';
import type { Caller } from '../../kernel/Identity.js';
import { identityToJson } from '../../kernel/identityJson.js';

/** JSON of identities, realms, ACLs and permissions: responses and global-stream events (wire-iam.md). */

const subjectIri = (base: string, subject: string) => `${base}/v1/${subject}`;

const audit = (s: Audit, base: string) => ({
  _rev: s.rev,
  _deprecated: s.deprecated,
  _createdAt: s.createdAt,
  _createdBy: subjectIri(base, s.createdBy),
  _updatedAt: s.updatedAt,
  _updatedBy: subjectIri(base, s.updatedBy),
});

export const identitiesBody = (base: string, caller: Caller) => ({
  '@context': [context('metadata'), context('identities')],
  identities: caller.identities.map((id) => identityToJson(base, id)),
});

const realmSelf = (base: string, label: string) => `${base}/v1/realms/${label}`;

const realmContent = (f: RealmFields, w: WellKnown) => ({
  name: f.name,
  openIdConfig: f.openIdConfig,
  ...(f.logo !== undefined ? { logo: f.logo } : {}),
  ...(f.acceptedAudiences !== undefined ? { acceptedAudiences: f.acceptedAudiences } : {}),
  _issuer: w.issuer,
  _authorizationEndpoint: w.authorizationEndpoint,
  _tokenEndpoint: w.tokenEndpoint,
  _userInfoEndpoint: w.userInfoEndpoint,
  ...(w.revocationEndpoint !== undefined ? { _revocationEndpoint: w.revocationEndpoint } : {}),
  ...(w.endSessionEndpoint !== undefined ? { _endSessionEndpoint: w.endSessionEndpoint } : {}),
  _grantTypes: w.grantTypes,
});

/** A realm; `full` false gives the metadata a write answers with. */
export const realmBody = (base: string, s: RealmState, full = true) => ({
  '@context': full ? [context('metadata'), context('realms')] : [context('realms-metadata'), context('metadata')],
  '@id': realmSelf(base, s.label),
  '@type': 'Realm',
  ...(full ? realmContent(s, s) : {}),
  _label: s.label,
  _constrainedBy: 'https://bluebrain.github.io/nexus/schemas/realms.json',
  _self: realmSelf(base, s.label),
  ...audit(s, base),
});

/** `@id` of an ACL: the root's ends in a slash, its `_self` does not (acls-listed-ancestors.json). */
const aclId = (base: string, path: AclPath) => (path === '/' ? `${base}/v1/acls/` : `${base}/v1/acls${path}`);
const aclSelf = (base: string, path: AclPath) => (path === '/' ? `${base}/v1/acls` : `${base}/v1/acls${path}`);

const aclEntries = (base: string, acl: readonly AclEntry[]) => acl.map((e) => ({ identity: identityToJson(base, e.identity), permissions: e.permissions }));

export const aclBody = (base: string, s: AclState, full = true) => ({
  ...(full ? {} : { '@context': [context('acls-metadata'), context('metadata')] }),
  '@id': aclId(base, s.path),
  '@type': 'AccessControlList',
  ...(full ? { acl: aclEntries(base, s.acl) } : {}),
  _path: s.path,
  _constrainedBy: 'https://bluebrain.github.io/nexus/schemas/acls.json',
  _self: aclSelf(base, s.path),
  ...audit(s, base),
});

/** The `GET /v1/acls/...` answer. */
export const aclListing = (base: string, acls: readonly AclState[]) => ({
  '@context': [context('metadata'), context('search'), context('acls')],
  _total: acls.length,
  _results: acls.map((s) => aclBody(base, s)),
});

const permissionsSelf = (base: string) => `${base}/v1/permissions`;

export const permissionsBody = (base: string, s: PermissionsState, full = true) => ({
  '@context': full ? [context('permissions'), context('metadata')] : [context('permissions-metadata'), context('metadata')],
  '@id': permissionsSelf(base),
  '@type': 'Permissions',
  ...(full ? { permissions: s.permissions } : {}),
  _constrainedBy: 'https://bluebrain.github.io/nexus/schemas/permissions.json',
  _self: permissionsSelf(base),
  ...audit(s, base),
});

const eventCommon = (base: string, e: { type: string; rev: number; instant: string; subject: string }, kind: string) => ({
  '@context': [context('metadata'), context(kind)],
  '@type': e.type,
  _rev: e.rev,
  _instant: e.instant,
  _subject: subjectIri(base, e.subject),
});

/** Global-stream payloads (spec §6; wire-iam.md "Events on the global stream"); `@type` is the `event:` line. */
export const realmEventJson = (base: string, e: RealmEvent) => ({
  ...eventCommon(base, e, 'realms'),
  ...(e.type === 'RealmDeprecated' ? {} : realmContent(e.fields, e.wellKnown)),
  _label: e.label,
  _realmId: realmSelf(base, e.label),
});

export const aclEventJson = (base: string, e: AclEvent) => ({
  ...eventCommon(base, e, 'acls'),
  ...(e.type === 'AclDeleted' ? {} : { acl: aclEntries(base, e.acl) }),
  _aclId: aclSelf(base, e.path),
  _path: e.path,
});

export const permissionsEventJson = (base: string, e: PermissionsEvent) => ({
  ...eventCommon(base, e, 'permissions'),
  ...(e.type === 'PermissionsDeleted' ? {} : { permissions: e.permissions }),
  _permissionsId: permissionsSelf(base),
});
