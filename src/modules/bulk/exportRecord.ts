import type { ReplayedRevision } from '../../domain/resources/bulkWrites.js';
import type { ResourceEventType } from '../../domain/resources/ResourceEvent.js';
import type { JsonObject } from '../../kernel/json.js';
import type { ProjectRef } from '../../kernel/labels.js';
import { rejections } from '../../domain/rejections.js';

/** The kinds an export holds revisions of; files are listed with their metadata and a download address. */
export type ExportedKind = 'resources' | 'schemas';

/**
 * One line of an export: an item at one revision. Its fields are the metadata names of the API
 * (`_`-prefixed, which a payload may not use at its root), so an import tells a line of an export
 * from a payload without being told.
 */
export interface ExportRecord {
  _kind: ExportedKind;
  '@id': string;
  _rev: number;
  /** The event that made the revision. */
  _event: ResourceEventType;
  _schema: string;
  _schemaProject: ProjectRef;
  _types: string[];
  _tags: Record<string, number>;
  _deprecated: boolean;
  _createdAt: string;
  _createdBy: string;
  _updatedAt: string;
  _updatedBy: string;
  /** The tag a tag revision added or removed (or a create or update set). */
  _tag?: string;
  _targetRev?: number;
  /** The payload exactly as sent, on the revisions that changed it. */
  _source?: JsonObject;
}

const KINDS: ReadonlySet<string> = new Set(['resources', 'schemas']);
const EVENTS: ReadonlySet<string> = new Set<ResourceEventType>([
  'ResourceCreated',
  'ResourceUpdated',
  'ResourceRefreshed',
  'ResourceTagAdded',
  'ResourceTagDeleted',
  'ResourceDeprecated',
  'ResourceUndeprecated',
  'ResourceSchemaUpdated',
]);

/** Whether a parsed line is a line of an export rather than a payload. */
export const isExportRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && '_kind' in value && '_event' in value;

/** A subject's address (`{base}/v1/anonymous`, `{base}/v1/realms/{realm}/users/{subject}`) as the path events keep, whatever the base. */
const SUBJECT = /^https?:\/\/.*?\/v1\/(anonymous|realms\/[^/]+\/users\/.+)$/;

/** The instant and subject a line records for its revision, when both are well formed (an instant as `Date#toISOString` writes it). */
const recordedOf = (at: unknown, by: unknown): { instant: string; subject: string } | undefined => {
  if (typeof at !== 'string' || typeof by !== 'string') return undefined;
  const time = Date.parse(at);
  const subject = SUBJECT.exec(by)?.[1];
  if (Number.isNaN(time) || subject === undefined) return undefined;
  return { instant: new Date(time).toISOString(), subject };
};

/** A line of an export as the revision to replay, or the refusal of a line that only looks like one. */
export const replayedOf = (value: Record<string, unknown>): { kind: ExportedKind; revision: ReplayedRevision } => {
  const {
    _kind: kind,
    '@id': id,
    _rev: rev,
    _event: event,
    _schema: schema,
    _source: source,
    _tag: tag,
    _targetRev: targetRev,
    _updatedAt,
    _updatedBy,
  } = value;
  const malformed = (what: string) => rejections.malformedContent(`This line of an export ${what}.`);
  if (kind === 'files')
    throw malformed("is a file's: an import replays 'resources' and 'schemas'; a file's bytes are downloaded from its '_download' and uploaded");
  if (typeof kind !== 'string' || !KINDS.has(kind)) throw malformed(`names the kind '${String(kind)}'; an import replays 'resources' and 'schemas'`);
  if (typeof id !== 'string') throw malformed("has no '@id'");
  if (typeof rev !== 'number' || !Number.isInteger(rev) || rev < 1) throw malformed("has no '_rev' (a positive integer)");
  if (typeof event !== 'string' || !EVENTS.has(event)) throw malformed(`has the event '${String(event)}', which an import cannot replay`);
  if (typeof schema !== 'string') throw malformed("has no '_schema'");
  if (source !== undefined && (typeof source !== 'object' || source === null || Array.isArray(source)))
    throw malformed("has a '_source' that is not an object");
  if (tag !== undefined && typeof tag !== 'string') throw malformed("has a '_tag' that is not a string");
  if (targetRev !== undefined && typeof targetRev !== 'number') throw malformed("has a '_targetRev' that is not a number");
  if (['ResourceCreated', 'ResourceUpdated', 'ResourceRefreshed'].includes(event) && source === undefined) throw malformed(`of a ${event} has no '_source'`);
  const recorded = recordedOf(_updatedAt, _updatedBy);
  return {
    kind: kind as ExportedKind,
    revision: {
      event: event as ResourceEventType,
      id,
      rev,
      schema,
      ...(source === undefined ? {} : { source: source as JsonObject }),
      ...(tag === undefined ? {} : { tag }),
      ...(targetRev === undefined ? {} : { targetRev }),
      ...(recorded === undefined ? {} : { recorded }),
    },
  };
};
