import { anonymous } from './Subject.js';
import type { Caller, Identity } from './Caller.js';
import { anonymousCaller } from './Caller.js';

export type { Caller, Identity };
export { anonymousCaller };

export const ANONYMOUS: Identity = Object.freeze({ type: 'Anonymous' });

/**
 * The identity's address below `{base}/v1/`; also its key in ACLs, so equal identities have equal keys.
 * The User form is the SubjectPath events carry.
 */
export const identityKey = (id: Identity): string => {
  switch (id.type) {
    case 'Anonymous':
      return anonymous;
    case 'Authenticated':
      return `realms/${id.realm}/authenticated`;
    case 'User':
      return `realms/${id.realm}/users/${id.subject}`;
    case 'Group':
      return `realms/${id.realm}/groups/${id.group}`;
  }
};

export const identityAddress = (base: string, id: Identity): string => `${base}/v1/${identityKey(id)}`;

export const realmOf = (id: Identity): string | undefined => (id.type === 'Anonymous' ? undefined : id.realm);

/** Verified claims → identities: Anonymous, Authenticated, User, then one Group per group (Delta's order of building). */
export const callerFromClaims = (realm: string, subject: string, groups: readonly string[]): Caller => {
  const user: Identity = { type: 'User', realm, subject };
  const identities: Identity[] = [ANONYMOUS, { type: 'Authenticated', realm }, user];
  for (const group of new Set(groups)) identities.push({ type: 'Group', realm, group });
  return { subject: identityKey(user), identities };
};

/** `preferred_username` wins over `sub` (wire-iam.md, Tokens). */
export const subjectClaim = (claims: Record<string, unknown>): string | undefined => {
  for (const name of ['preferred_username', 'sub']) {
    const value = claims[name];
    if (typeof value === 'string' && value.trim() !== '') return value;
  }
  return undefined;
};

/** The `groups` claim is an array or a comma-separated string; a leading `/` (Keycloak paths) is kept as sent. */
export const groupsClaim = (claims: Record<string, unknown>): string[] => {
  const value = claims['groups'];
  const raw = Array.isArray(value) ? value : typeof value === 'string' ? value.split(',') : [];
  return raw
    .filter((g): g is string => typeof g === 'string')
    .map((g) => g.trim())
    .filter((g) => g !== '');
};

/**
 * Reads an identity back from its key (the inverse of `identityKey`), e.g. for the configured
 * bootstrap identity that the fresh root ACL grants every permission to.
 */
export const identityFromKey = (key: string): Identity | undefined => {
  if (key === anonymous) return ANONYMOUS;
  const m = /^realms\/([^/]+)\/(?:(authenticated)|users\/(.+)|groups\/(.+))$/.exec(key);
  if (!m) return undefined;
  const realm = m[1]!;
  if (m[2]) return { type: 'Authenticated', realm };
  if (m[3] !== undefined) return { type: 'User', realm, subject: m[3] };
  return { type: 'Group', realm, group: m[4]! };
};
