import type { Readable } from 'node:stream';
import type { Selector } from '../domain/resources/resourcePorts.js';
import type { Versioned } from '../domain/versioned.js';
import type { JsonObject } from '../kernel/json.js';
import type { ProjectRef } from '../kernel/labels.js';

/** What other modules read of a file's value: its size and name, and the storage (and its revision) its bytes are in. */
export interface FileFacts {
  attributes: { bytes: number; filename: string };
  storage: { id: string; rev: number };
}

/** A file, every revision kept, as other modules see it. */
export type FileItem = Versioned<FileFacts>;

/**
 * Files as the modules that read them (archives, bulk exports, history) use them, handed over by
 * the files module through the platform: they never import it. Methods (not function properties):
 * the module's implementation takes its own, richer file state.
 */
export interface FilePort {
  /** The file's current state; none when it does not exist (rejections: no such project, an id that is no id). */
  find(project: ProjectRef, idSegment: string): Promise<FileItem | undefined>;
  /** The file at the selected revision (rejections: not found, no such revision or tag). */
  fetch(project: ProjectRef, idSegment: string, selector: Selector): Promise<FileItem>;
  /** Its bytes, read from its storage. */
  content(file: FileItem): Promise<Readable>;
  /**
   * Every file of a project (current states), read a page at a time where their states are kept
   * (shared on Redis: no replica holds them all); in no set order.
   */
  ofProject(project: ProjectRef): AsyncIterable<FileItem>;
  /** The file with that (resolved) `@id`, current state; no rejection. */
  get(project: ProjectRef, id: string): Promise<FileItem | undefined>;
  /** Its metadata as a fetch with a JSON-LD `Accept` renders it. */
  metadata(file: FileItem): JsonObject;
  /** The `@type` of files (history entries name it). */
  readonly type: string;
}

/** Storages as the modules that read files use them: the permission reading a storage's files needs. */
export interface StoragePort {
  /** The permission a caller needs to read the files of that storage (rejections: no such storage). */
  readPermission(project: ProjectRef, storageId: string): string;
}
