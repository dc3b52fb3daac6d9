import type { Readable } from 'node:stream';
import type { Caller } from '../../../kernel/Caller.js';
import type { ItemRef, ItemTarget as PathItem } from '../../../kernel/ItemRef.js';
import type { ProjectRef } from '../../../kernel/labels.js';
import { Rejection } from '../../../kernel/Rejection.js';
import type { ItemTarget } from '../../../domain/itemCommands.js';
import { resolveId } from '../../../domain/projects/apiMappings.js';
import type { Selector } from '../../../domain/resources/resourcePorts.js';
import type { StorageFields, StorageState } from '../storages/Storage.js';
import type { StorageService } from '../storages/StorageService.js';
import { storageRejections } from '../storages/storageRejections.js';
import type { VersionedDeps } from '../../../domain/VersionedItems.js';
import { VersionedCommands } from '../../../domain/VersionedItems.js';
import type { FileCommand, FileState, FileValue } from './File.js';
import { filePath } from './File.js';
import { fileDefinition } from './fileDefinition.js';
import { fileKey } from './fileKey.js';
import { fileRejections } from './fileRejections.js';
import type { ByteRange, FileStore } from './FileStore.js';
import type { CapacityGrant, CapacityLedger } from './CapacityLedger.js';
import type { StorageStatistics } from './UsageAccounts.js';
import { verifiedBytes } from './verifiedBytes.js';

/** The uploaded part of a multipart body: its bytes, still streaming, and what the client said of them. */
export interface FilePart {
  stream: Readable;
  filename: string;
  mediaType: string;
}

/**
 * The file part of a request, read only once the write is known to be acceptable; `declaredBytes`
 * (the request's Content-Length, when it has one) bounds the file's size before any byte is read.
 */
export type FilePartSource = (() => Promise<FilePart>) & { declaredBytes?: number };

/** The store behind a storage. */
export type FileStores = (id: string, fields: StorageFields, secret: string | undefined) => FileStore;

/**
 * A file whose current state the caller read already (the route guard, for its storage's
 * permission): any `ItemRef` taken here may be one, and the state is not read again.
 */
export interface FileRead extends ItemRef {
  current: FileState;
}

/** A create or update before its bytes are known. */
type WriteHeader = (ItemTarget & { type: 'Create' }) | (ItemTarget & { type: 'Update'; rev: number });

/** The storages' running accounts (issue 34): read without any file's state. */
export interface StorageAccounts {
  /** The storage's account as of every write acknowledged before the call, and the log position it is folded to. */
  usage(project: ProjectRef, storageId: string): Promise<StorageStatistics & { position: number }>;
}

/**
 * Where the files' latest states are read: the item states port (one record per file in Redis on the
 * shared layout, held by no replica; the fold's own maps embedded).
 */
export interface FileStates {
  get(key: string): Promise<FileState | undefined>;
  getMany(keys: readonly string[]): Promise<(FileState | undefined)[]>;
  /** The log keys of the project's files, in no set order. */
  keysOf(project: ProjectRef): Promise<string[]>;
}

/** Files read per round trip when a project's files are walked. */
const PAGE = 500;

export interface FileDeps extends Omit<VersionedDeps<FileValue>, 'states'> {
  states: FileStates;
  storages: StorageService;
  stores: FileStores;
  /** Where disk storages with a capacity reserve room for an upload before its bytes stream. */
  ledger: CapacityLedger;
  accounts: StorageAccounts;
}

/**
 * Files (Delta's files API): bytes streamed to a storage with their digest computed on the way,
 * then the metadata written as an event. A write refused before the bytes arrive reads none; one
 * that fails after leaves no bytes and no event.
 */
export class FileService {
  private readonly items: VersionedCommands<FileValue, FileCommand>;

  constructor(private readonly deps: FileDeps) {
    this.items = new VersionedCommands(fileDefinition, deps);
  }

  async create(item: PathItem, storageSegment: string | undefined, part: FilePartSource, caller: Caller): Promise<FileState> {
    const ref = item.project;
    const project = this.deps.projects.active(ref);
    const id = item.id ?? `${project.base}${this.deps.clock.uuid()}`;
    const state = await this.deps.states.get(fileKey(ref, id));
    return this.write(state, { type: 'Create', ...this.items.target(ref, id, caller) }, storageSegment, part);
  }

  async update(item: ItemRef, rev: number, storageSegment: string | undefined, part: FilePartSource, caller: Caller): Promise<FileState> {
    const state = await this.located(item, true);
    return this.write(state, { type: 'Update', rev, ...this.items.target(item.project, state.id, caller) }, storageSegment, part);
  }

  tag(item: ItemRef, rev: number, tag: string, targetRev: number, caller: Caller): Promise<FileState> {
    return this.change(item, caller, (target) => ({ type: 'Tag', ...target, rev, tag, targetRev }));
  }

  deleteTag(item: ItemRef, rev: number, tag: string, caller: Caller): Promise<FileState> {
    return this.change(item, caller, (target) => ({ type: 'DeleteTag', ...target, rev, tag }));
  }

  deprecate(item: ItemRef, rev: number, caller: Caller): Promise<FileState> {
    return this.change(item, caller, (target) => ({ type: 'Deprecate', ...target, rev }));
  }

  undeprecate(item: ItemRef, rev: number, caller: Caller): Promise<FileState> {
    return this.change(item, caller, (target) => ({ type: 'Undeprecate', ...target, rev }));
  }

  /** The revision a selector names (the current one by default). */
  async fetch(item: ItemRef, selector: Selector = {}): Promise<FileState> {
    return this.items.selected(await this.located(item, false), selector);
  }

  /** The file's current state (with the project, active for a write, or the not-found rejection). */
  private async located(item: ItemRef | FileRead, write: boolean): Promise<FileState> {
    this.items.opened(item, write);
    return this.items.found(item, 'current' in item ? item.current : await this.deps.states.get(fileKey(item.project, item.id)));
  }

  /** A command on an existing file, run through the lifecycle; resolves to the file after it. */
  private async change(item: ItemRef, caller: Caller, command: (target: ItemTarget) => FileCommand): Promise<FileState> {
    const state = await this.located(item, true);
    return this.run(state, command(this.items.target(item.project, state.id, caller)));
  }

  private async run(state: FileState | undefined, cmd: FileCommand): Promise<FileState> {
    return (await this.logged(state, cmd)).state;
  }

  /** Runs the command; the file after it, and the log position of its event (none when nothing changed). */
  private async logged(state: FileState | undefined, cmd: FileCommand): Promise<{ state: FileState; seq?: number }> {
    const logged = await this.items.append(state, cmd);
    // The file after the event, folded here: read back, it would fill the shared states' cache with every file written.
    const after = this.items.found(cmd, logged ? fileDefinition.next(state, logged) : state);
    return logged ? { state: after, seq: logged.seq } : { state: after };
  }

  /** Every file of the project (current states), a page at a time (in creation order within it): none of them outlives its page here. */
  async *ofProject(ref: ProjectRef): AsyncGenerator<FileState[]> {
    const keys = await this.deps.states.keysOf(ref);
    for (let at = 0; at < keys.length; at += PAGE) {
      const states = await this.deps.states.getMany(keys.slice(at, at + PAGE));
      const found = states.filter((file): file is FileState => file !== undefined && file.project === ref);
      // In the order they were created within a page (the keys come in no set order where the states are shared).
      found.sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : 0));
      if (found.length) yield found;
    }
  }

  /**
   * The file a segment names where no route resolved it: the route guard reading its storage's
   * permission before the edge, an archive's entry. None when the segment is no id or names no file.
   */
  async find(ref: ProjectRef, segment: string): Promise<FileState | undefined> {
    const id = this.named(ref, segment);
    return id === undefined ? undefined : this.deps.states.get(fileKey(ref, id.id));
  }

  /** The file a segment names where no route resolved it (an archive's entry); undefined: no id. */
  named(ref: ProjectRef, segment: string): ItemRef | undefined {
    const id = resolveId(segment, this.deps.projects.fetch(ref));
    return id === undefined ? undefined : { project: ref, id };
  }

  /**
   * The bytes of a file revision (a range of them when asked), streamed from its storage as it was
   * at the revision the file was written with (a later change of endpoint does not re-point old
   * files), checked against the recorded size and digest as they stream.
   */
  async content(file: FileState, range?: ByteRange): Promise<Readable> {
    const { path, bytes, digest } = file.value.attributes;
    const storage = this.deps.storages.fetch({ project: file.project, id: file.value.storage.id }, { rev: file.value.storage.rev });
    let stream: Readable;
    try {
      stream = await this.store(storage).read(path, range);
    } catch (error) {
      if (error instanceof Rejection) throw error;
      throw fileRejections.fileUnreadable(file.id, (error as Error).message);
    }
    const expected = range ? { bytes: range.end - range.start + 1 } : { bytes, digest };
    return verifiedBytes(stream, expected, (details) => fileRejections.fileUnreadable(file.id, details));
  }

  /** Every revision that wrote bytes counts as one physical file (as Delta counts): the storage's running account, no file read. */
  async statistics(storageRef: ItemRef): Promise<StorageStatistics> {
    const storage = this.deps.storages.fetch(storageRef);
    const { position: _position, ...statistics } = await this.deps.accounts.usage(storageRef.project, storage.id);
    return statistics;
  }

  /** Checks the command, reads the part, streams its bytes to the storage, then appends the event. */
  private async write(state: FileState | undefined, cmd: WriteHeader, storageSegment: string | undefined, partSource: FilePartSource): Promise<FileState> {
    const storage = this.deps.storages.forFiles(cmd.project, storageSegment);
    if (storage.deprecated) throw storageRejections.isDeprecated(storage.id);
    const uuid = this.deps.clock.uuid();
    const draft = (value: FileValue) => ({ ...cmd, ...value }) as FileCommand;
    // Refused before any byte is read: an existing id, a stale revision, a deprecated file.
    const placeholder: FileValue = { attributes: { uuid, path: '', filename: '', mediaType: '', bytes: 0, digest: '' }, storage: this.storageRef(storage) };
    const precheck = fileDefinition.evaluate(state, draft(placeholder));
    if (precheck instanceof Rejection) throw precheck;
    const path = filePath(cmd.project, uuid);
    const store = this.store(storage);
    const { limit, tooLarge, grant } = await this.limit(storage, uuid, partSource.declaredBytes);
    let saved: { bytes: number; digest: string } | undefined;
    try {
      const part = await partSource();
      saved = await store.save(path, part.stream, limit, tooLarge);
      const value: FileValue = {
        attributes: {
          uuid,
          path,
          location: store.location(path),
          filename: part.filename,
          mediaType: part.mediaType,
          bytes: saved.bytes,
          digest: saved.digest,
        },
        storage: this.storageRef(storage),
      };
      const written = await this.logged(state, draft(value));
      // The grant names its file's event: it stops counting once the account has folded past it.
      await grant?.commit(saved.bytes, written.seq ?? 0);
      return written.state;
    } catch (error) {
      if (saved) await store.remove(path).catch(() => undefined);
      await grant?.release();
      throw error;
    }
  }

  /**
   * The storage's `maxFileSize`, or, on a storage with a capacity, the room reserved for this upload
   * before its bytes stream (refused at once when none is left).
   */
  private async limit(
    storage: StorageState,
    uuid: string,
    declared: number | undefined,
  ): Promise<{ limit: number; tooLarge: () => Rejection; grant?: CapacityGrant }> {
    const { maxFileSize, capacity, volume } = storage.value.fields;
    if (capacity === undefined || volume === undefined) return { limit: maxFileSize, tooLarge: () => fileRejections.fileTooLarge(maxFileSize) };
    const wanted = Math.min(maxFileSize, declared ?? maxFileSize);
    const grant = await this.deps.ledger.reserve({
      storageKey: `${storage.project}/${storage.id}`,
      volume,
      uuid,
      wanted,
      capacity,
      usage: async () => {
        const { spaceUsed, position } = await this.deps.accounts.usage(storage.project, storage.id);
        return { used: spaceUsed, position };
      },
    });
    const left = grant.bytes;
    if (left === 0) throw fileRejections.capacityExceeded(0);
    if (left < wanted) return { limit: left, tooLarge: () => fileRejections.capacityExceeded(left), grant };
    return {
      limit: wanted,
      tooLarge: () => (wanted < maxFileSize ? fileRejections.capacityExceeded(wanted) : fileRejections.fileTooLarge(maxFileSize)),
      grant,
    };
  }

  /**
   * The removal of every byte a project's files wrote (each revision's), resolved while their
   * storages are still known; run once the project's deletion is durable.
   */
  async projectBytes(ref: ProjectRef): Promise<() => Promise<void>> {
    const removals: (() => Promise<void>)[] = [];
    const seen = new Set<string>();
    for await (const page of this.ofProject(ref))
      for (const file of page)
        for (const revision of file.history) {
          const { storage, attributes } = revision.value;
          if (seen.has(attributes.uuid)) continue;
          seen.add(attributes.uuid);
          const store = this.store(this.deps.storages.fetch({ project: ref, id: storage.id }));
          removals.push(() => store.remove(attributes.path));
        }
    return async () => void (await Promise.allSettled(removals.map((remove) => remove())));
  }

  private store(storage: StorageState): FileStore {
    return this.deps.stores(storage.id, storage.value.fields, this.deps.storages.secretOf(storage));
  }

  private storageRef(storage: StorageState) {
    return { id: storage.id, type: storage.value.fields.type, rev: storage.rev };
  }
}
