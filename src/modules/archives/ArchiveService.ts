import type { AclCheck } from '../../kernel/AclCheck.js';
import type { CheckedPermission } from '../../kernel/permissions.js';
import type { ItemRef, ItemTarget } from '../../kernel/ItemRef.js';
import type { Caller } from '../../kernel/Caller.js';
import type { Clock } from '../../kernel/Clock.js';
import type { CpuTurns } from '../../workers/CpuTurns.js';
import type { JsonObject } from '../../kernel/json.js';
import type { ProjectRef } from '../../kernel/labels.js';
import { Rejection } from '../../kernel/Rejection.js';
import { rejections } from '../../domain/rejections.js';
import type { ProjectService } from '../../domain/projects/ProjectService.js';
import type { ProjectState } from '../../domain/projects/Project.js';
import { resolveId } from '../../domain/projects/apiMappings.js';
import type { Selector } from '../../domain/resources/resourcePorts.js';
import type { FileItem, FilePort, StoragePort } from '../filePorts.js';
import type { ItemReader } from '../Platform.js';
import type { ArchiveEntry, ArchiveRecord } from './Archive.js';
import { archiveEntries, fitsTar } from './Archive.js';
import type { ArchiveMember } from './archiveWriters.js';
import { archiveRejections } from './archiveRejections.js';
import type { ArchiveStore } from './ArchiveStore.js';
import { itemId } from '../../domain/itemId.js';

export interface ArchiveDeps {
  store: ArchiveStore;
  projects: ProjectService;
  items: ItemReader;
  files: FilePort;
  storages: StoragePort;
  acl: AclCheck;
  clock: Clock;
  /** The event loop's turns shared with searches: an archive's entries are checked and rendered in slices of them. */
  turns: CpuTurns;
  /** How long an archive lives, in seconds. */
  ttlSeconds: number;
  /** `{base}/v1/files/`: where a `FileSelf` value must point. */
  filesAddress: string;
}

/** An entry checked for download: where it is, what it is, where it goes in the archive. */
type Checked =
  | { type: 'Resource'; kind: 'resources' | 'schemas'; project: ProjectRef; id: string; path: string; entry: Extract<ArchiveEntry, { type: 'Resource' }> }
  | { type: 'File'; file: FileItem; path: string };

const selectorOf = (e: { rev?: number; tag?: string }): Selector => ({
  ...(e.rev !== undefined ? { rev: e.rev } : {}),
  ...(e.tag !== undefined ? { tag: e.tag } : {}),
});

/**
 * Archives (Delta 1.10's archives API): a description kept until it expires, downloaded as a tar or
 * a zip built while it is sent. Every entry is checked (it exists, the caller may read it) before
 * the first byte goes out; `ignoreNotFound` leaves out entries that do not exist.
 */
export class ArchiveService {
  constructor(private readonly deps: ArchiveDeps) {}

  /** `owner`: who the archive counts against (the caller's key: its subject, or an anonymous caller's address). */
  async create(item: ItemTarget, payload: unknown, caller: Caller, owner: string): Promise<ArchiveRecord> {
    const ref = item.project;
    const project = this.deps.projects.active(ref);
    const id = this.idOf(project, item.id, payload);
    const { entries, source } = archiveEntries(payload);
    this.checkPaths(ref, entries);
    for (const e of entries) if (e.type === 'FileSelf') this.fileSelf(e.value);
    const now = this.deps.clock.now();
    const record: ArchiveRecord = {
      id,
      project: ref,
      resources: entries,
      source,
      createdAt: now,
      createdBy: caller.subject,
      expiresAt: new Date(Date.parse(now) + this.deps.ttlSeconds * 1000).toISOString(),
    };
    const kept = await this.deps.store.create(storeKey(ref, id), record, owner);
    if (kept === 'exists') throw archiveRejections.alreadyExists(id, ref);
    if (kept !== 'kept') {
      const now = Date.parse(this.deps.clock.now());
      throw archiveRejections.quotaReached(
        kept.over,
        kept.limit,
        kept.max,
        kept.freedAt === undefined ? undefined : Math.max(1, Math.ceil((kept.freedAt - now) / 1000)),
      );
    }
    return record;
  }

  async fetch({ project: ref, id }: ItemRef): Promise<ArchiveRecord> {
    const record = await this.deps.store.get(storeKey(ref, id));
    if (!record) throw archiveRejections.notFound(id, ref);
    return record;
  }

  secondsLeft(record: ArchiveRecord): number {
    return Math.max(0, Math.floor((Date.parse(record.expiresAt) - Date.parse(this.deps.clock.now())) / 1000));
  }

  /**
   * The archive's members, every entry checked first; each member is rendered or opened only when
   * its turn comes. Checking and rendering run in slices of the event loop's shared turns (as
   * searches do): a download of thousands of entries lets other requests through between slices.
   */
  async members(record: ArchiveRecord, caller: Caller, ignoreNotFound: boolean): Promise<AsyncIterable<ArchiveMember>> {
    const checked = await this.deps.turns.run(async (turn) => {
      const all: Checked[] = [];
      for (const entry of record.resources) {
        if (turn.due()) await turn.pause();
        try {
          all.push(await this.check(record.project, entry, caller));
        } catch (error) {
          if (ignoreNotFound && error instanceof Rejection && error.type === 'ResourceNotFound') continue;
          throw error;
        }
      }
      return all;
    });
    const paths = checked.map((c) => c.path);
    const duplicates = duplicatesOf(paths);
    const invalids = paths.filter((p) => !fitsTar(p));
    if (duplicates.length || invalids.length) throw archiveRejections.invalidResourceCollection(duplicates, invalids, []);
    const mtime = new Date(record.createdAt);
    const member = (c: Checked) => (c.type === 'File' ? this.fileMember(c.file, c.path, mtime) : this.resourceMember(c, mtime));
    const turns = this.deps.turns;
    return (async function* () {
      let next = 0;
      while (next < checked.length) {
        // A slice renders what it can (a bounded batch: rendered members wait in memory to be sent), then hands the loop over.
        const batch = await turns.run(async (turn) => {
          const out: ArchiveMember[] = [];
          let bytes = 0;
          while (next < checked.length && !turn.due() && bytes < BATCH_BYTES) {
            const c = checked[next++]!;
            const m = await member(c);
            if (c.type === 'Resource') bytes += m.size;
            out.push(m);
          }
          return out;
        });
        yield* batch;
        await new Promise((resolve) => setImmediate(resolve));
      }
    })();
  }

  private fileMember(file: FileItem, path: string, mtime: Date): ArchiveMember {
    return { path, size: file.value.attributes.bytes, mtime, bytes: () => this.deps.files.content(file) };
  }

  /** A resource's JSON is small: rendered when its turn comes, so its size is known for its header. */
  private async resourceMember(c: Extract<Checked, { type: 'Resource' }>, mtime: Date): Promise<ArchiveMember> {
    const { kind, project, id, entry } = c;
    const sel = selectorOf(entry);
    const json =
      entry.format === 'compacted'
        ? await this.deps.items.body(kind, project, id, sel)
        : await this.deps.items.source(kind, project, id, sel, entry.format === 'annotated-source');
    const bytes = Buffer.from(JSON.stringify(json, null, 2));
    return { path: c.path, size: bytes.length, mtime, bytes: () => [bytes] };
  }

  private async check(archiveProject: ProjectRef, entry: ArchiveEntry, caller: Caller): Promise<Checked> {
    if (entry.type === 'FileSelf') {
      const { project, segment } = this.fileSelf(entry.value);
      return this.checkFile(project, segment, {}, entry.path, caller);
    }
    const project = entry.project ?? archiveProject;
    if (entry.type === 'File') return this.checkFile(project, entry.resourceId, selectorOf(entry), entry.path, caller);
    // Permission first: whether a project or a resource exists is told only to who may read it.
    await this.deps.acl.authorize(caller, 'resources/read', `/${project}`);
    const id = resolveId(entry.resourceId, this.deps.projects.fetch(project));
    if (id === undefined) throw rejections.invalidResourceId(entry.resourceId);
    const found = await this.deps.items.find(project, id);
    const rev = entry.tag !== undefined ? found?.state.tags[entry.tag] : (entry.rev ?? found?.state.rev);
    if (!found || rev === undefined || rev > found.state.rev) throw archiveRejections.entryNotFound(describe(id, entry), project);
    return { type: 'Resource', kind: found.kind, project, id, path: entry.path ?? defaultResourcePath(project, id), entry };
  }

  private async checkFile(project: ProjectRef, segment: string, selector: Selector, path: string | undefined, caller: Caller): Promise<Checked> {
    const current = await this.currentFile(project, segment);
    if (!current) {
      // A file's own permission is its storage's, unknown without the file: who may not read the
      // project is refused alike whether the file (or the project) exists or not.
      await this.deps.acl.authorize(caller, 'resources/read', `/${project}`);
      if (resolveId(segment, this.deps.projects.fetch(project)) === undefined) throw rejections.invalidResourceId(segment);
      throw archiveRejections.entryNotFound(describe(segment, selector), project);
    }
    const readPermission = this.deps.storages.readPermission(project, current.value.storage.id);
    await this.deps.acl.authorize(caller, readPermission as CheckedPermission, `/${project}`);
    let file: FileItem;
    try {
      file = await this.deps.files.fetch(project, segment, selector);
    } catch (error) {
      if (error instanceof Rejection && (error.type === 'RevisionNotFound' || error.type === 'TagNotFound'))
        throw archiveRejections.entryNotFound(describe(current.id, selector), project);
      throw error;
    }
    return { type: 'File', file, path: path ?? `${project}/${file.value.attributes.filename}` };
  }

  /** The file's current state; none when it, or its project, does not exist (or the id is no id). */
  private async currentFile(project: ProjectRef, segment: string): Promise<FileItem | undefined> {
    try {
      return await this.deps.files.find(project, segment);
    } catch (error) {
      if (error instanceof Rejection) return undefined;
      throw error;
    }
  }

  /** `{base}/v1/files/{org}/{project}/{id}`: a file of this service. */
  private fileSelf(value: string): { project: ProjectRef; segment: string } {
    if (!value.startsWith(this.deps.filesAddress)) throw archiveRejections.invalidFileSelf(value);
    const [org, label, segment, ...rest] = value.slice(this.deps.filesAddress.length).split('?')[0]!.split('/');
    if (!org || !label || !segment || rest.length) throw archiveRejections.invalidFileSelf(value);
    try {
      return { project: `${org}/${label}`, segment: decodeURIComponent(segment) };
    } catch {
      throw archiveRejections.invalidFileSelf(value);
    }
  }

  /** Paths known when the archive is made: no duplicates, each fits a tar header; a resource's default path too. */
  private checkPaths(ref: ProjectRef, entries: ArchiveEntry[]): void {
    const paths: string[] = [];
    const longIds: string[] = [];
    for (const e of entries) {
      if (e.path !== undefined) paths.push(e.path);
      else if (e.type === 'Resource') {
        const path = defaultResourcePath(e.project ?? ref, e.resourceId);
        if (fitsTar(path)) paths.push(path);
        else longIds.push(e.resourceId);
      }
    }
    const duplicates = duplicatesOf(paths);
    const invalids = entries.flatMap((e) => (e.path !== undefined && !fitsTar(e.path) ? [e.path] : []));
    if (duplicates.length || invalids.length || longIds.length) throw archiveRejections.invalidResourceCollection(duplicates, invalids, longIds);
  }

  private idOf(project: ProjectState, pathId: string | undefined, payload: unknown): string {
    const source = payload && typeof payload === 'object' && !Array.isArray(payload) ? (payload as JsonObject) : {};
    return itemId(project, pathId, source, archiveRejections.invalidArchiveId, () => this.deps.clock.uuid(), archiveRejections.decodingFailed);
  }
}

/** Rendered members a download holds at once, at most (plus the one that passes it). */
const BATCH_BYTES = 1024 * 1024;

/** The paths named more than once: in one pass (an archive may have thousands). */
const duplicatesOf = (paths: readonly string[]): string[] => {
  const seen = new Set<string>();
  const twice = new Set<string>();
  for (const p of paths) (seen.has(p) ? twice : seen).add(p);
  return [...twice];
};

const storeKey = (ref: ProjectRef, id: string) => `${ref}/${id}`;

/** Delta's default: `{project}/{resourceId}.json`, the id percent-encoded into one file name. */
const defaultResourcePath = (project: ProjectRef, id: string) => `${project}/${encodeURIComponent(id)}.json`;

const describe = (id: string, s: Selector) => (s.rev !== undefined ? `${id}?rev=${s.rev}` : s.tag !== undefined ? `${id}?tag=${s.tag}` : id);
