import { authRejections } from '../../../kernel/authRejections.js';
import { isPermission } from '../../../kernel/permissions.js';
import type { Audit, EventBase } from '../../../domain/Metadata.js';
import { created, touched } from '../../../domain/Metadata.js';
import type { Rejection } from '../../../kernel/Rejection.js';
import { rejections } from '../../../domain/rejections.js';
import type { EarlierRevisions } from '../../../domain/earlierRevisions.js';

/** The service's one set of defined permissions; a fresh service holds the minimum at rev 0. */
export interface PermissionsState extends Audit, EarlierRevisions<PermissionsState> {
  permissions: string[];
}

interface Target {
  instant: string;
  subject: string;
  rev: number;
}

export type PermissionsCommand =
  | (Target & { type: 'Replace'; permissions: string[] })
  | (Target & { type: 'Append'; permissions: string[] })
  | (Target & { type: 'Subtract'; permissions: string[] })
  | (Target & { type: 'Delete' });

/** Replaced carries the resulting set (minimum included); Appended and Subtracted carry the delta. */
export type PermissionsEvent = EventBase &
  (
    | { type: 'PermissionsReplaced'; permissions: string[] }
    | { type: 'PermissionsAppended'; permissions: string[] }
    | { type: 'PermissionsSubtracted'; permissions: string[] }
    | { type: 'PermissionsDeleted' }
  );

const sorted = (s: Iterable<string>) => [...new Set(s)].sort();

export const initialPermissions = (minimum: readonly string[], instant: string, subject: string): PermissionsState => ({
  ...created({ rev: 0, instant, subject }),
  permissions: sorted(minimum),
});

export const evaluatePermissions = (state: PermissionsState, cmd: PermissionsCommand, minimum: readonly string[]): PermissionsEvent | Rejection => {
  if (cmd.rev !== state.rev) return rejections.incorrectRev(cmd.rev, state.rev);
  const base = { instant: cmd.instant, subject: cmd.subject, rev: state.rev + 1 };
  const min = new Set(minimum);
  const current = new Set(state.permissions);
  if (cmd.type !== 'Delete') {
    const bad = cmd.permissions.find((p) => !isPermission(p));
    if (bad !== undefined) return authRejections.illegalPermissionFormat(bad);
  }
  switch (cmd.type) {
    case 'Replace': {
      if (cmd.permissions.every((p) => min.has(p))) return authRejections.cannotReplaceWithEmptyCollection();
      return { ...base, type: 'PermissionsReplaced', permissions: sorted([...minimum, ...cmd.permissions]) };
    }
    case 'Append': {
      if (cmd.permissions.length === 0) return authRejections.cannotAppendEmptyCollection();
      const delta = sorted(cmd.permissions.filter((p) => !current.has(p)));
      if (delta.length === 0) return authRejections.permissionsNothingToBeUpdated();
      return { ...base, type: 'PermissionsAppended', permissions: delta };
    }
    case 'Subtract': {
      if (cmd.permissions.length === 0) return authRejections.cannotSubtractEmptyCollection();
      const minimal = sorted(cmd.permissions.filter((p) => min.has(p)));
      if (minimal.length) return authRejections.cannotSubtractFromMinimumCollection(minimal);
      const undefinedOnes = sorted(cmd.permissions.filter((p) => !current.has(p)));
      if (undefinedOnes.length) return authRejections.cannotSubtractUndefinedPermissions(undefinedOnes);
      return { ...base, type: 'PermissionsSubtracted', permissions: sorted(cmd.permissions) };
    }
    case 'Delete':
      if (state.permissions.every((p) => min.has(p))) return authRejections.cannotDeleteMinimumCollection();
      return { ...base, type: 'PermissionsDeleted' };
  }
};

/** Folding needs the minimum because a delete resets to it. */
export const nextPermissions = (state: PermissionsState, event: PermissionsEvent, minimum: readonly string[]): PermissionsState => {
  const permissions = (() => {
    switch (event.type) {
      case 'PermissionsReplaced':
        return sorted(event.permissions);
      case 'PermissionsAppended':
        return sorted([...state.permissions, ...event.permissions]);
      case 'PermissionsSubtracted': {
        const gone = new Set(event.permissions);
        return state.permissions.filter((p) => !gone.has(p));
      }
      case 'PermissionsDeleted':
        return sorted(minimum);
    }
  })();
  return state.rev === 0 ? { ...created(event), permissions } : touched(state, event, { permissions });
};
