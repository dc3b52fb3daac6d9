import { createHash } from 'node:crypto';
import type { Audit } from '../Metadata.js';
import { created, touched } from '../Metadata.js';
import type { ProjectRef } from '../../kernel/labels.js';
import { rejections } from '../rejections.js';
import type { Rejection } from '../../kernel/Rejection.js';
import { missingTargetRev } from '../versioned.js';
import type { Content, ResourceEvent } from './ResourceEvent.js';
import { isContentEvent } from './ResourceEvent.js';
import type { Link } from './links.js';
import { extractLinks } from './links.js';

export interface ResourceState extends Audit {
  id: string;
  project: ProjectRef;
  schema: string;
  schemaProject: ProjectRef;
  types: string[];
  tags: Record<string, number>;
  /** Digest of the current source and schema: an update that changes neither makes no revision. */
  digest: string;
  /** Log position of every event of this resource, oldest first: revisions are read back from the log. */
  seqs: number[];
  /** Log position of the event holding the current content (source and expanded form). */
  contentSeq: number;
  links: Link[];
}

interface Target {
  id: string;
  project: ProjectRef;
  instant: string;
  subject: string;
  /** The project's incarnation as the write saw it when it started (`Placement.projectSeen`); the event does not repeat it. */
  projectSeen?: number;
}

export type ResourceCommand =
  | (Target & Content & { type: 'Create'; tag?: string })
  | (Target & Content & { type: 'Update'; rev: number; tag?: string })
  | (Target & Content & { type: 'Refresh' })
  | (Target & { type: 'Tag'; rev: number; tag: string; targetRev: number })
  | (Target & { type: 'DeleteTag'; rev: number; tag: string })
  | (Target & { type: 'Deprecate'; rev: number })
  | (Target & { type: 'Undeprecate'; rev: number })
  | (Target & { type: 'UpdateSchema'; schema: string; schemaProject: ProjectRef })
  | (Target & { type: 'Delete' });

/** `null`: the command is valid but changes nothing (an identical update, a refresh with no effect). */
export type Decision = ResourceEvent | Rejection | null;

type Digested = Pick<Content, 'source' | 'schema' | 'expanded' | 'imports'>;

/**
 * An update's digest is taken when it is evaluated and again when its event is folded; both see
 * the same content objects, so the second is remembered (keyed by the expanded form, checked
 * against the other parts) instead of serialising ~10 KB again.
 */
const digests = new WeakMap<object, { of: Digested; digest: string }>();

const contentDigest = (c: Digested): string => {
  const kept = digests.get(c.expanded);
  if (kept && kept.of.source === c.source && kept.of.schema === c.schema && kept.of.imports === c.imports) return kept.digest;
  const digest = createHash('sha1')
    // Imports count only when there are some, so digests of revisions without them never change.
    .update(JSON.stringify(c.imports?.length ? [c.schema, c.source, c.expanded, c.imports] : [c.schema, c.source, c.expanded]))
    .digest('base64');
  digests.set(c.expanded, { of: { source: c.source, schema: c.schema, expanded: c.expanded, imports: c.imports }, digest });
  return digest;
};

export const evaluateResource = (state: ResourceState | undefined, cmd: ResourceCommand): Decision => {
  const base = { id: cmd.id, project: cmd.project, instant: cmd.instant, subject: cmd.subject };
  if (cmd.type === 'Create') {
    if (state) return rejections.alreadyExists(cmd.id, cmd.project);
    return { ...base, ...content(cmd), type: 'ResourceCreated', rev: 1, ...optionalTag(cmd.tag) };
  }
  if (!state) return rejections.notFound(cmd.id, cmd.project);
  if (cmd.type === 'Delete') return { ...base, type: 'ResourceDeleted', rev: state.rev + 1 };
  if (cmd.type === 'Refresh' || cmd.type === 'UpdateSchema') {
    if (state.deprecated) return rejections.isDeprecated(cmd.id);
  } else {
    if (cmd.rev !== state.rev) return rejections.incorrectRev(cmd.rev, state.rev);
    if (cmd.type === 'Undeprecate') {
      return state.deprecated ? { ...base, type: 'ResourceUndeprecated', rev: state.rev + 1, types: state.types } : rejections.isNotDeprecated(cmd.id);
    }
    if (state.deprecated) return rejections.isDeprecated(cmd.id);
  }
  const rev = state.rev + 1;
  switch (cmd.type) {
    case 'Update': {
      if (contentDigest(cmd) !== state.digest) return { ...base, ...content(cmd), type: 'ResourceUpdated', rev, ...optionalTag(cmd.tag) };
      // Identical payload: no new revision, but a requested tag still names the current one.
      if (cmd.tag === undefined || state.tags[cmd.tag] === state.rev) return null;
      return { ...base, type: 'ResourceTagAdded', rev: state.rev, tag: cmd.tag, targetRev: state.rev, types: state.types };
    }
    case 'Refresh':
      return contentDigest(cmd) === state.digest ? null : { ...base, ...content(cmd), type: 'ResourceRefreshed', rev };
    case 'Tag':
      return missingTargetRev(state, cmd.targetRev) ?? { ...base, type: 'ResourceTagAdded', rev, tag: cmd.tag, targetRev: cmd.targetRev, types: state.types };
    case 'DeleteTag':
      if (!(cmd.tag in state.tags)) return rejections.tagNotFound(cmd.tag);
      return { ...base, type: 'ResourceTagDeleted', rev, tag: cmd.tag, types: state.types };
    case 'Deprecate':
      return { ...base, type: 'ResourceDeprecated', rev, types: state.types };
    case 'UpdateSchema':
      if (cmd.schema === state.schema) return null;
      return { ...base, type: 'ResourceSchemaUpdated', rev, schema: cmd.schema, schemaProject: cmd.schemaProject, types: state.types };
  }
};

/** `seq` is the event's position in the log, recorded so any revision can be read back. */
export const nextResource = (state: ResourceState | undefined, event: ResourceEvent, seq: number): ResourceState | undefined => {
  if (event.type === 'ResourceCreated') {
    return {
      ...created(event),
      id: event.id,
      project: event.project,
      schema: event.schema,
      schemaProject: event.schemaProject,
      types: event.types,
      tags: event.tag === undefined ? {} : { [event.tag]: 1 },
      digest: contentDigest(event),
      seqs: [seq],
      contentSeq: seq,
      links: extractLinks(event.expanded, event.id),
    };
  }
  if (!state || event.type === 'ResourceDeleted') return undefined;
  const seqs = [...state.seqs, seq];
  if (isContentEvent(event)) {
    const tags = event.type === 'ResourceUpdated' && event.tag !== undefined ? { ...state.tags, [event.tag]: event.rev } : state.tags;
    return touched(state, event, {
      schema: event.schema,
      schemaProject: event.schemaProject,
      types: event.types,
      tags,
      digest: contentDigest(event),
      seqs,
      contentSeq: seq,
      links: extractLinks(event.expanded, event.id),
    });
  }
  switch (event.type) {
    case 'ResourceTagAdded':
      return touched(state, event, { tags: { ...state.tags, [event.tag]: event.targetRev }, seqs });
    case 'ResourceTagDeleted': {
      const { [event.tag]: _removed, ...tags } = state.tags;
      return touched(state, event, { tags, seqs });
    }
    case 'ResourceDeprecated':
      return touched(state, event, { deprecated: true, seqs });
    case 'ResourceUndeprecated':
      return touched(state, event, { deprecated: false, seqs });
    case 'ResourceSchemaUpdated':
      return touched(state, event, { schema: event.schema, schemaProject: event.schemaProject, seqs });
  }
};

const content = (c: Content): Content => ({
  schema: c.schema,
  schemaProject: c.schemaProject,
  types: c.types,
  source: c.source,
  expanded: c.expanded,
  remoteContexts: c.remoteContexts,
  ...(c.imports ? { imports: c.imports } : {}),
});

const optionalTag = (tag: string | undefined) => (tag === undefined ? {} : { tag });
