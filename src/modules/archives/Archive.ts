import type { JsonObject } from '../../kernel/json.js';
import { isLabel } from '../../kernel/labels.js';
import type { ProjectRef } from '../../kernel/labels.js';
import type { SubjectPath } from '../../kernel/Subject.js';
import { archiveRejections } from './archiveRejections.js';

/** How a resource is written into an archive (Delta's `format`; `originalSource: true` is `source`). */
export type ResourceFormat = 'source' | 'annotated-source' | 'compacted';
const FORMATS: readonly string[] = ['source', 'annotated-source', 'compacted'];
/** Delta's other formats, which this service does not write into archives. */
const UNSUPPORTED = ['expanded', 'n-triples', 'dot'];

export type ArchiveEntry =
  | { type: 'Resource'; resourceId: string; project?: ProjectRef; path?: string; format: ResourceFormat; rev?: number; tag?: string }
  | { type: 'File'; resourceId: string; project?: ProjectRef; path?: string; rev?: number; tag?: string }
  | { type: 'FileSelf'; value: string; path?: string };

/** An archive as kept until it expires: its entries as sent (ids not yet resolved), who made it, when it goes. */
export interface ArchiveRecord {
  id: string;
  project: ProjectRef;
  resources: ArchiveEntry[];
  /** The payload's `resources` as sent: the description shows them. */
  source: JsonObject[];
  createdAt: string;
  createdBy: SubjectPath;
  expiresAt: string;
}

const fail = (reason: string): never => {
  throw archiveRejections.decodingFailed(reason);
};

const optional = <T>(o: JsonObject, field: string, check: (v: unknown) => v is T, what: string): T | undefined => {
  const v = o[field];
  if (v === undefined) return undefined;
  return check(v) ? v : fail(`'${field}' must be ${what}.`);
};
const isString = (v: unknown): v is string => typeof v === 'string' && v !== '';
const isRev = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v > 0;
const isBool = (v: unknown): v is boolean => typeof v === 'boolean';

const projectOf = (o: JsonObject): ProjectRef | undefined => {
  const p = optional(o, 'project', isString, 'a project reference');
  if (p === undefined) return undefined;
  const [org, label, ...rest] = p.split('/');
  return rest.length || !org || !label || !isLabel(org) || !isLabel(label) ? fail(`'${p}' is not a project reference 'org/project'.`) : p;
};

const entryOf = (raw: unknown): ArchiveEntry => {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return fail("Each entry of 'resources' must be an object.");
  const o = raw as JsonObject;
  const path = optional(o, 'path', isString, 'a path');
  const at = { ...(path !== undefined ? { path } : {}) };
  const type = o['@type'];
  if (type === 'FileSelf')
    return { type, value: optional(o, 'value', isString, 'the address of a file') ?? fail("A 'FileSelf' entry needs its 'value'."), ...at };
  if (type !== 'Resource' && type !== 'File') return fail("Each entry's '@type' must be 'Resource', 'File' or 'FileSelf'.");
  const resourceId = optional(o, 'resourceId', isString, 'an id') ?? fail(`A '${type}' entry needs its 'resourceId'.`);
  const project = projectOf(o);
  const rev = optional(o, 'rev', isRev, 'a positive integer');
  const tag = optional(o, 'tag', isString, 'a tag');
  if (rev !== undefined && tag !== undefined) fail("'rev' and 'tag' cannot both be set.");
  const common = { resourceId, ...at, ...(project ? { project } : {}), ...(rev !== undefined ? { rev } : {}), ...(tag !== undefined ? { tag } : {}) };
  if (type === 'File') {
    if (o['originalSource'] !== undefined || o['format'] !== undefined) fail("'originalSource' and 'format' apply to 'Resource' entries only.");
    return { type, ...common };
  }
  const originalSource = optional(o, 'originalSource', isBool, 'a boolean');
  const format = optional(o, 'format', isString, 'a format');
  if (originalSource !== undefined && format !== undefined) fail("'originalSource' and 'format' cannot both be set.");
  if (format !== undefined && UNSUPPORTED.includes(format))
    fail(`The format '${format}' is not written into archives by this service; use one of ${FORMATS.join(', ')}.`);
  if (format !== undefined && !FORMATS.includes(format)) fail(`Unknown format '${format}'.`);
  return { type, ...common, format: (format as ResourceFormat | undefined) ?? (originalSource ? 'source' : 'compacted') };
};

/** The entries of an archive payload (`{"resources": [...]}`), decoded as Delta decodes them. */
export const archiveEntries = (payload: unknown): { entries: ArchiveEntry[]; source: JsonObject[] } => {
  if (!payload || typeof payload !== 'object' || Array.isArray(payload)) return fail('An archive payload must be a JSON object.');
  const resources = (payload as JsonObject)['resources'];
  if (!Array.isArray(resources) || resources.length === 0) return fail("An archive payload needs a non-empty 'resources' list.");
  return { entries: resources.map(entryOf), source: resources as JsonObject[] };
};

/**
 * A member path extraction tools write where it says, inside their target: relative (no leading
 * `/`, no drive letter such as `C:`), segments neither empty, `.` nor `..`, no `\` (a separator to
 * Windows tools), only printable characters (a NUL ends a tar name early: `..\u0000` would be read
 * as `..`; control, format and unassigned characters and separators of lines are refused).
 */
const safePath = (path: string): boolean =>
  !UNPRINTABLE.test(path) && !path.includes('\\') && !/^[a-zA-Z]:/.test(path) && path.split('/').every((s) => s !== '' && s !== '.' && s !== '..');
const UNPRINTABLE = /[\p{C}\p{Zl}\p{Zp}]/u;

/** A tar (ustar) path: a name under 100 bytes and a prefix under 155, as Delta checks; and a safe one. */
export const fitsTar = (path: string): boolean => {
  const cut = path.lastIndexOf('/');
  const name = path.slice(cut + 1);
  const prefix = cut < 0 ? '' : path.slice(0, cut);
  return Buffer.byteLength(name) < 100 && Buffer.byteLength(prefix) < 155 && safePath(path);
};
