import type { AclCheck } from '../../kernel/AclCheck.js';
import type { CheckedPermission } from '../../kernel/permissions.js';
import type { FileState } from '../../domain/files/File.js';
import type { StorageService } from '../../domain/storages/StorageService.js';
import { Rejection } from '../../kernel/Rejection.js';
import type { ProjectService } from '../../domain/projects/ProjectService.js';
import type { ResourceService } from '../../domain/resources/ResourceService.js';
import type { Caller } from '../../kernel/Caller.js';
import type { ProjectRef } from '../../kernel/labels.js';
import type { LineOutcome, LineWriter, ImportBounds } from './BulkImport.js';
import { runImport } from './BulkImport.js';
import type { ExportedKind } from './exportRecord.js';
import { isExportRecord, replayedOf } from './exportRecord.js';
import { ndjsonLines } from './ndjsonLines.js';
import type { ExportSources } from './projectExport.js';
import { exportQuads, exportRecords } from './projectExport.js';

export interface ImportOptions {
  /** The schema segment every payload line is validated against (`_`: none, or an updated item's own). */
  schema: string;
  /** Lines naming an item that exists update it at its current revision. */
  upsert: boolean;
  tag: string | undefined;
  caller: Caller;
}

/** A streamed body: its chunks, and whether it arrived whole (a dropped connection leaves it incomplete). */
export type StreamedBody = AsyncIterable<Buffer> & { readonly complete: boolean };

export interface BulkDeps {
  services: Record<ExportedKind, ResourceService>;
  projects: ProjectService;
  acl: AclCheck;
  storages: Pick<StorageService, 'fetch'>;
  sources: ExportSources;
  /** A line's size limit: a single create's body limit. */
  maxLineBytes: number;
  bounds: ImportBounds;
}

/**
 * What lets an import keep the instants and subjects an export recorded, rather than its own: the
 * power to say who did what and when belongs to the operator, who holds `permissions/write` on `/`.
 */
const KEEPS_HISTORY: CheckedPermission = 'permissions/write';

/** Whether the caller holds a permission on a path (a refusal is an answer, not an error). */
const allowedTo = (acl: AclCheck, caller: Caller, permission: CheckedPermission, path: string): Promise<boolean> =>
  acl.authorize(caller, permission, path).then(
    () => true,
    (error: unknown) => {
      if (error instanceof Rejection && error.type === 'AuthorizationFailed') return false;
      throw error;
    },
  );

/** Bulk imports into a project and its exports. */
export class BulkService {
  constructor(private readonly deps: BulkDeps) {}

  /** Refuses an import into a project that does not exist or is deprecated before any line is read. */
  checkWritable(ref: ProjectRef): void {
    this.deps.projects.active(ref);
  }

  /**
   * Imports the body's lines: payloads as creates (or updates, `upsert`), lines of an export as the
   * revisions they record (schemas need `schemas/write` too). `answer` gets the outcomes in order.
   */
  async import(ref: ProjectRef, options: ImportOptions, body: StreamedBody, answer: (outcomes: LineOutcome[]) => Promise<void>, stopped: () => boolean) {
    const { services, acl, maxLineBytes, bounds } = this.deps;
    let schemasAllowed: Promise<void> | undefined;
    let keepsHistory: Promise<boolean> | undefined;
    const writer: LineWriter = {
      prepare: async (value) => {
        if (!isExportRecord(value))
          return { kind: 'resources', ...(await services.resources.prepareWrite(ref, options.schema, value, options.tag, options.caller, options.upsert)) };
        const { kind, revision: replayed } = replayedOf(value);
        if (kind === 'schemas') await (schemasAllowed ??= acl.authorize(options.caller, 'schemas/write', `/${ref}`));
        const { recorded, ...own } = replayed;
        const revision = recorded && (await (keepsHistory ??= allowedTo(acl, options.caller, KEEPS_HISTORY, '/'))) ? { ...own, recorded } : own;
        return { kind, ...(await services[kind].prepareReplay(ref, revision, options.caller)) };
      },
      commit: (kind, writes) => services[kind].commitBatch(writes),
    };
    await runImport(
      ndjsonLines(body, maxLineBytes, () => body.complete),
      writer,
      { ...bounds, maxLineBytes },
      answer,
      stopped,
    );
  }

  /**
   * The project's history as NDJSON records (files' metadata among them, those whose storage lets
   * the caller read them) or as N-Quads; the project is checked before anything streams.
   */
  export(ref: ProjectRef, format: 'records' | 'quads', caller: Caller): AsyncGenerator<string> {
    this.deps.projects.fetch(ref);
    return format === 'records' ? exportRecords(ref, this.deps.sources, this.fileReader(ref, caller)) : exportQuads(ref, this.deps.sources);
  }

  /** Whether the caller may read a file of the project: its storage's read permission, asked once a storage. */
  private fileReader(ref: ProjectRef, caller: Caller): (file: FileState) => Promise<boolean> {
    const asked = new Map<string, Promise<boolean>>();
    return (file) => {
      const permission = this.deps.storages.fetch(ref, file.value.storage.id).value.fields.readPermission as CheckedPermission;
      let allowed = asked.get(permission);
      if (!allowed) {
        allowed = allowedTo(this.deps.acl, caller, permission, `/${ref}`);
        asked.set(permission, allowed);
      }
      return allowed;
    };
  }
}
