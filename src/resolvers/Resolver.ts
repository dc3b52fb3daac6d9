import type { DeprecateCommand, ItemTarget, TagCommand } from '../domain/itemCommands.js';
import { targetOf } from '../domain/itemCommands.js';
import type { EventBase } from '../domain/Metadata.js';
import type { Identity } from '../kernel/Caller.js';
import type { JsonObject } from '../kernel/json.js';
import type { ProjectRef } from '../kernel/labels.js';
import type { Rejection } from '../kernel/Rejection.js';
import { rejections } from '../domain/rejections.js';
import type { Versioned } from '../domain/versioned.js';
import { firstRevision, missingTargetRev, nextRevision, tagged } from '../domain/versioned.js';
import { resolverRejections } from './resolverRejections.js';

export type ResolverType = 'InProject' | 'CrossProject';

/** Whose ACLs a cross-project resolution checks on each target project (`resources/read`). */
export type IdentityResolution = { useCurrentCaller: true } | { identities: Identity[] };

/** What a resolver's payload sets, with its defaults filled in. */
export interface ResolverFields {
  type: ResolverType;
  /** 0 to 1000; lower resolves first; unique within a project. */
  priority: number;
  name?: string;
  description?: string;
  /** CrossProject only. */
  projects?: ProjectRef[];
  resourceTypes?: string[];
  identityResolution?: IdentityResolution;
}

export interface ResolverValue {
  fields: ResolverFields;
  /** The payload as sent. */
  source: JsonObject;
}

export type ResolverState = Versioned<ResolverValue>;

export type ResolverCommand =
  (ItemTarget & ResolverValue & { type: 'Create' }) | (ItemTarget & ResolverValue & { type: 'Update'; rev: number }) | TagCommand | DeprecateCommand;

type Base = EventBase & { id: string; project: ProjectRef; resolverType: ResolverType };

/** Named as Delta names them on the event streams. */
export type ResolverEvent =
  | (Base & ResolverValue & { type: 'ResolverCreated' })
  | (Base & ResolverValue & { type: 'ResolverUpdated' })
  | (Base & { type: 'ResolverTagAdded'; tag: string; targetRev: number })
  | (Base & { type: 'ResolverDeprecated' });

/** Delta's order: existence, revision, deprecation, then the type may not change. */
export const evaluateResolver = (state: ResolverState | undefined, cmd: ResolverCommand): ResolverEvent | Rejection => {
  const base = targetOf(cmd);
  if (cmd.type === 'Create') {
    if (state) return resolverRejections.alreadyExists(cmd.id, cmd.project);
    return { ...base, type: 'ResolverCreated', rev: 1, resolverType: cmd.fields.type, fields: cmd.fields, source: cmd.source };
  }
  if (!state) return resolverRejections.notFound(cmd.id, cmd.project);
  if (cmd.rev !== state.rev) return rejections.incorrectRev(cmd.rev, state.rev);
  if (state.deprecated) return resolverRejections.isDeprecated(cmd.id);
  const rev = state.rev + 1;
  const resolverType = state.value.fields.type;
  switch (cmd.type) {
    case 'Update':
      if (cmd.fields.type !== resolverType) return resolverRejections.differentType(cmd.id, cmd.fields.type, resolverType);
      return { ...base, type: 'ResolverUpdated', rev, resolverType, fields: cmd.fields, source: cmd.source };
    case 'Tag':
      return missingTargetRev(state, cmd.targetRev) ?? { ...base, type: 'ResolverTagAdded', rev, resolverType, tag: cmd.tag, targetRev: cmd.targetRev };
    case 'Deprecate':
      return { ...base, type: 'ResolverDeprecated', rev, resolverType };
  }
};

export const nextResolver = (state: ResolverState | undefined, event: ResolverEvent): ResolverState | undefined => {
  if (event.type === 'ResolverCreated') return firstRevision(event, { fields: event.fields, source: event.source });
  if (!state) return undefined;
  switch (event.type) {
    case 'ResolverUpdated':
      return nextRevision(state, event, { value: { fields: event.fields, source: event.source } });
    case 'ResolverTagAdded':
      return tagged(state, event);
    case 'ResolverDeprecated':
      return nextRevision(state, event, { deprecated: true });
  }
};
