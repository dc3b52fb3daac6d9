import { authRejections } from '../../../kernel/authRejections.js';
import type { AclPath } from '../AclPath.js';
import { identityKey, realmOf, type Identity } from '../../../kernel/Identity.js';
import type { Audit, EventBase } from '../../../domain/Metadata.js';
import { created, touched } from '../../../domain/Metadata.js';
import type { Rejection } from '../../../kernel/Rejection.js';
import { rejections } from '../../../domain/rejections.js';

/** One identity's grants on a path; entries are kept merged per identity and sorted. */
export interface AclEntry {
  identity: Identity;
  permissions: string[];
}

export interface AclState extends Audit {
  path: AclPath;
  acl: AclEntry[];
  /** Every earlier revision (index = rev; 0 is the bootstrap root, or empty), so `?rev=` reads any. */
  earlier?: { acl: AclEntry[]; updatedAt: string; updatedBy: string }[];
}

/** The ACL as it was at `rev`, or undefined when it never had that revision. */
export const aclAt = (state: AclState, rev: number): AclState | undefined => {
  if (rev === state.rev) return state;
  const earlier = state.earlier?.[rev];
  return rev > state.rev || !earlier ? undefined : { ...state, ...earlier, rev, earlier: undefined };
};

/** What an ACL may name: the defined permissions and the known realm labels (supplied by the service). */
export interface AclContext {
  permissions: ReadonlySet<string>;
  realms: ReadonlySet<string>;
}

interface Target {
  path: AclPath;
  instant: string;
  subject: string;
}

/** `rev` 0 addresses a path that has no ACL yet (or the bootstrap root ACL, which is at rev 0). */
export type AclCommand =
  | (Target & { type: 'Replace'; rev: number; acl: AclEntry[] })
  | (Target & { type: 'Append'; rev: number; acl: AclEntry[] })
  | (Target & { type: 'Subtract'; rev: number; acl: AclEntry[] })
  | (Target & { type: 'Delete'; rev: number });

/** Append and Subtract carry the delta they apply, not the resulting ACL. */
export type AclEvent = EventBase & { path: AclPath } & (
    { type: 'AclReplaced'; acl: AclEntry[] } | { type: 'AclAppended'; acl: AclEntry[] } | { type: 'AclSubtracted'; acl: AclEntry[] } | { type: 'AclDeleted' }
  );

/** Merges entries naming the same identity, drops duplicate permissions, sorts for stable output. */
export const normalizeAcl = (acl: readonly AclEntry[]): AclEntry[] => {
  const byKey = new Map<string, { identity: Identity; permissions: Set<string> }>();
  for (const e of acl) {
    const key = identityKey(e.identity);
    const slot = byKey.get(key) ?? { identity: e.identity, permissions: new Set<string>() };
    for (const p of e.permissions) slot.permissions.add(p);
    byKey.set(key, slot);
  }
  return [...byKey.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .filter(([, s]) => s.permissions.size > 0)
    .map(([, s]) => ({ identity: s.identity, permissions: [...s.permissions].sort() }));
};

const combine = (a: readonly AclEntry[], b: readonly AclEntry[]) => normalizeAcl([...a, ...b]);

const minus = (a: readonly AclEntry[], b: readonly AclEntry[]): AclEntry[] => {
  const removed = new Map(normalizeAcl(b).map((e) => [identityKey(e.identity), new Set(e.permissions)]));
  return normalizeAcl(a.map((e) => ({ identity: e.identity, permissions: e.permissions.filter((p) => !removed.get(identityKey(e.identity))?.has(p)) })));
};

/** Pairs (identity, permission) of `b` that `a` lacks, as entries. */
const missingFrom = (a: readonly AclEntry[], b: readonly AclEntry[]): AclEntry[] => minus(b, a);

const size = (acl: readonly AclEntry[]) => acl.reduce((n, e) => n + e.permissions.length, 0);

/** Why an ACL may not be written as it is (empty permissions, unknown realms or permissions), or undefined. */
export const checkAcl = (path: AclPath, acl: readonly AclEntry[], ctx: AclContext): Rejection | undefined => {
  if (acl.some((e) => e.permissions.length === 0)) return authRejections.aclCannotContainEmptyPermissionCollection(path);
  const realms = [...new Set(acl.map((e) => realmOf(e.identity)).filter((r): r is string => r !== undefined && !ctx.realms.has(r)))];
  if (realms.length) return authRejections.unknownRealms(realms.sort());
  const perms = [...new Set(acl.flatMap((e) => e.permissions).filter((p) => !ctx.permissions.has(p)))];
  if (perms.length) return authRejections.unknownPermissions(perms.sort());
  return undefined;
};

export const evaluateAcl = (state: AclState | undefined, cmd: AclCommand, ctx: AclContext): AclEvent | Rejection => {
  const current = state?.rev ?? 0;
  if (cmd.rev !== current) return rejections.incorrectRev(cmd.rev, current);
  const base = { path: cmd.path, instant: cmd.instant, subject: cmd.subject, rev: current + 1 };
  const existing = state?.acl ?? [];
  switch (cmd.type) {
    case 'Replace': {
      const invalid = checkAcl(cmd.path, cmd.acl, ctx);
      if (invalid) return invalid;
      return { ...base, type: 'AclReplaced', acl: normalizeAcl(cmd.acl) };
    }
    case 'Append': {
      const invalid = checkAcl(cmd.path, cmd.acl, ctx);
      if (invalid) return invalid;
      const delta = missingFrom(existing, cmd.acl);
      if (size(delta) === 0) return authRejections.nothingToBeUpdated(cmd.path);
      return { ...base, type: 'AclAppended', acl: delta };
    }
    case 'Subtract': {
      if (!state) return authRejections.aclNotFound(cmd.path);
      const invalid = checkAcl(cmd.path, cmd.acl, ctx);
      if (invalid) return invalid;
      const delta = minus(cmd.acl, missingFrom(existing, cmd.acl));
      if (size(delta) === 0) return authRejections.nothingToBeUpdated(cmd.path);
      return { ...base, type: 'AclSubtracted', acl: delta };
    }
    case 'Delete':
      if (!state) return authRejections.aclNotFound(cmd.path);
      if (existing.length === 0) return authRejections.aclIsEmpty(cmd.path);
      return { ...base, type: 'AclDeleted' };
  }
};

export const nextAcl = (state: AclState | undefined, event: AclEvent): AclState => {
  const acl = (() => {
    switch (event.type) {
      case 'AclReplaced':
        return event.acl;
      case 'AclAppended':
        return combine(state?.acl ?? [], event.acl);
      case 'AclSubtracted':
        return minus(state?.acl ?? [], event.acl);
      case 'AclDeleted':
        return [];
    }
  })();
  const earlier = [
    ...(state?.earlier ?? []),
    ...(state
      ? [{ acl: state.acl, updatedAt: state.updatedAt, updatedBy: state.updatedBy }]
      : [{ acl: [], updatedAt: event.instant, updatedBy: event.subject }]),
  ];
  // A path whose only history is the bootstrap (rev 0) gets its creation audit from the first write.
  return state && state.rev > 0 ? touched(state, event, { acl, earlier }) : { ...created(event), path: event.path, acl, earlier };
};

/** The ACL of a fresh service: `/` grants every given permission to the bootstrap identity, at rev 0. */
export const bootstrapRootAcl = (identity: Identity, permissions: Iterable<string>, instant: string, subject: string): AclState => ({
  ...created({ rev: 0, instant, subject }),
  path: '/',
  acl: normalizeAcl([{ identity, permissions: [...permissions] }]),
});
