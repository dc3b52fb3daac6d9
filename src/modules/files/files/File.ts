import type { DeprecateCommand, ItemTarget, TagCommand, UndeprecateCommand } from '../../../domain/itemCommands.js';
import { targetOf } from '../../../domain/itemCommands.js';
import type { EventBase } from '../../../domain/Metadata.js';
import type { ProjectRef } from '../../../kernel/labels.js';
import type { Rejection } from '../../../kernel/Rejection.js';
import { rejections } from '../../../domain/rejections.js';
import type { StorageType } from '../storages/Storage.js';
import type { Versioned } from '../../../domain/versioned.js';
import { firstRevision, missingTargetRev, nextRevision, tagged } from '../../../domain/versioned.js';
import { fileRejections } from './fileRejections.js';

/** What a stored file is: its bytes' size and digest, its name and type as uploaded, and where the storage keeps it. */
export interface FileAttributes {
  uuid: string;
  /** Where the storage keeps the bytes, relative to its volume, bucket or folder; generated, never from the client. */
  path: string;
  /** Where the bytes were written, as an address (Delta's `_location`); absent on files recorded before it was kept. */
  location?: string;
  filename: string;
  mediaType: string;
  bytes: number;
  digest: string;
}

/** The storage (at its revision) a file's bytes were written to. */
export interface StorageRef {
  id: string;
  type: StorageType;
  rev: number;
}

export interface FileValue {
  attributes: FileAttributes;
  storage: StorageRef;
}

export type FileState = Versioned<FileValue>;

export type FileCommand =
  | (ItemTarget & FileValue & { type: 'Create' })
  | (ItemTarget & FileValue & { type: 'Update'; rev: number })
  | TagCommand
  | (ItemTarget & { type: 'DeleteTag'; rev: number; tag: string })
  | DeprecateCommand
  | UndeprecateCommand;

type Base = EventBase & { id: string; project: ProjectRef };

export type FileEvent =
  | (Base & FileValue & { type: 'FileCreated' })
  | (Base & FileValue & { type: 'FileUpdated' })
  | (Base & { type: 'FileTagAdded'; tag: string; targetRev: number })
  | (Base & { type: 'FileTagDeleted'; tag: string })
  | (Base & { type: 'FileDeprecated' })
  | (Base & { type: 'FileUndeprecated' });

/**
 * Whether a command may run. File writes check this before any byte is stored, then evaluate again
 * once the bytes are in (the state may have moved on meanwhile).
 */
export const evaluateFile = (state: FileState | undefined, cmd: FileCommand): FileEvent | Rejection => {
  const base = targetOf(cmd);
  if (cmd.type === 'Create') {
    if (state) return fileRejections.alreadyExists(cmd.id, cmd.project);
    return { ...base, type: 'FileCreated', rev: 1, attributes: cmd.attributes, storage: cmd.storage };
  }
  if (!state) return fileRejections.notFound(cmd.id, cmd.project);
  if (cmd.rev !== state.rev) return rejections.incorrectRev(cmd.rev, state.rev);
  const rev = state.rev + 1;
  if (cmd.type === 'Undeprecate') return state.deprecated ? { ...base, type: 'FileUndeprecated', rev } : fileRejections.fileIsNotDeprecated(cmd.id);
  if (state.deprecated) return fileRejections.isDeprecated(cmd.id);
  switch (cmd.type) {
    case 'Update':
      return { ...base, type: 'FileUpdated', rev, attributes: cmd.attributes, storage: cmd.storage };
    case 'Tag':
      return missingTargetRev(state, cmd.targetRev) ?? { ...base, type: 'FileTagAdded', rev, tag: cmd.tag, targetRev: cmd.targetRev };
    case 'DeleteTag':
      if (!(cmd.tag in state.tags)) return rejections.tagNotFound(cmd.tag);
      return { ...base, type: 'FileTagDeleted', rev, tag: cmd.tag };
    case 'Deprecate':
      return { ...base, type: 'FileDeprecated', rev };
  }
};

export const nextFile = (state: FileState | undefined, event: FileEvent): FileState | undefined => {
  if (event.type === 'FileCreated') return firstRevision(event, { attributes: event.attributes, storage: event.storage });
  if (!state) return undefined;
  switch (event.type) {
    case 'FileUpdated':
      return nextRevision(state, event, { value: { attributes: event.attributes, storage: event.storage } });
    case 'FileTagAdded':
      return tagged(state, event);
    case 'FileTagDeleted': {
      const { [event.tag]: _removed, ...tags } = state.tags;
      return nextRevision(state, event, { tags });
    }
    case 'FileDeprecated':
      return nextRevision(state, event, { deprecated: true });
    case 'FileUndeprecated':
      return nextRevision(state, event, { deprecated: false });
  }
};

/**
 * Where a file's bytes go, relative to its storage: by project, then folders from the file's uuid
 * (so no folder grows too large), then the uuid. Nothing of the client's id or filename is in it.
 */
export const filePath = (project: ProjectRef, uuid: string): string => {
  const hex = uuid.replace(/-/g, '');
  return `${project}/${hex.slice(0, 2)}/${hex.slice(2, 4)}/${uuid}`;
};
