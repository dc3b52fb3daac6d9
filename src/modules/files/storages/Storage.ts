import type { DeprecateCommand, ItemTarget, TagCommand } from '../../../domain/itemCommands.js';
import { targetOf } from '../../../domain/itemCommands.js';
import type { EventBase } from '../../../domain/Metadata.js';
import type { ProjectRef } from '../../../kernel/labels.js';
import type { JsonObject } from '../../../kernel/json.js';
import type { Rejection } from '../../../kernel/Rejection.js';
import { rejections } from '../../../domain/rejections.js';
import { storageRejections } from './storageRejections.js';
import type { StorageSettings, StorageType } from '../../storageOptions.js';
import type { Versioned } from '../../../domain/versioned.js';
import { firstRevision, missingTargetRev, nextRevision, tagged } from '../../../domain/versioned.js';

export const STORAGE_TYPES = ['DiskStorage', 'RemoteDiskStorage', 'BlobStorage'] as const satisfies readonly StorageType[];
export type { StorageSettings, StorageType };

/** A storage's fields with every default filled in. `secret` (secretKey or credentials) is encrypted, never rendered. */
export interface StorageFields extends StorageSettings {
  type: StorageType;
  default: boolean;
  folder?: string;
  secret?: string;
}

/** What a revision holds: the filled-in fields, and the payload as sent without its secrets. */
export interface StorageValue {
  fields: StorageFields;
  source: JsonObject;
}

export type StorageState = Versioned<StorageValue>;

export type StorageCommand =
  (ItemTarget & StorageValue & { type: 'Create' }) | (ItemTarget & StorageValue & { type: 'Update'; rev: number }) | TagCommand | DeprecateCommand;

type Base = EventBase & { id: string; project: ProjectRef };

export type StorageEvent =
  | (Base & StorageValue & { type: 'StorageCreated' })
  | (Base & StorageValue & { type: 'StorageUpdated' })
  | (Base & { type: 'StorageTagAdded'; tag: string; targetRev: number; storageType: StorageType })
  | (Base & { type: 'StorageDeprecated'; storageType: StorageType });

export const evaluateStorage = (state: StorageState | undefined, cmd: StorageCommand): StorageEvent | Rejection => {
  const base = targetOf(cmd);
  if (cmd.type === 'Create') {
    if (state) return storageRejections.alreadyExists(cmd.id, cmd.project);
    return { ...base, type: 'StorageCreated', rev: 1, fields: cmd.fields, source: cmd.source };
  }
  if (!state) return storageRejections.notFound(cmd.id, cmd.project);
  // The order of Delta: revision, then deprecation, then type.
  if (cmd.rev !== state.rev) return rejections.incorrectRev(cmd.rev, state.rev);
  if (state.deprecated) return storageRejections.isDeprecated(cmd.id);
  const rev = state.rev + 1;
  const storageType = state.value.fields.type;
  switch (cmd.type) {
    case 'Update':
      if (cmd.fields.type !== storageType) return storageRejections.differentStorageType(cmd.id, cmd.fields.type, storageType);
      return { ...base, type: 'StorageUpdated', rev, fields: cmd.fields, source: cmd.source };
    case 'Tag':
      return missingTargetRev(state, cmd.targetRev) ?? { ...base, type: 'StorageTagAdded', rev, tag: cmd.tag, targetRev: cmd.targetRev, storageType };
    case 'Deprecate':
      return { ...base, type: 'StorageDeprecated', rev, storageType };
  }
};

export const nextStorage = (state: StorageState | undefined, event: StorageEvent): StorageState | undefined => {
  if (event.type === 'StorageCreated') return firstRevision(event, { fields: event.fields, source: event.source });
  if (!state) return undefined;
  switch (event.type) {
    case 'StorageUpdated':
      return nextRevision(state, event, { value: { fields: event.fields, source: event.source } });
    case 'StorageTagAdded':
      return tagged(state, event);
    case 'StorageDeprecated':
      return nextRevision(state, event, { deprecated: true, value: { ...state.value, fields: { ...state.value.fields, default: false } } });
  }
};
