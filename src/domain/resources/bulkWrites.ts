import type { Rejection } from '../../kernel/Rejection.js';
import type { Expansion } from '../../jsonld/JsonLdProcessor.js';
import type { ProjectRef } from '../../kernel/labels.js';
import { rejections } from '../rejections.js';
import type { ResourceCommand, ResourceState } from './Resource.js';
import type { Content, ResourceEventType } from './ResourceEvent.js';

/**
 * One write of a bulk import with its costly part done (expansion, schema, validation): its command
 * is decided only when its batch is written, from the item's state then, so a line sees every line
 * before it (an update at the current revision, a second create of the same id refused).
 */
export interface PreparedWrite {
  key: string;
  id: string;
  decide(state: ResourceState | undefined): ResourceCommand | Rejection;
  expansion?: Expansion;
}

/** A write of a batch once durable: the item's state after it, and whether it made the item. */
export interface Committed {
  state: ResourceState;
  created: boolean;
}

/** One revision of an export as the import replays it: the event that made it and what it needs. */
export interface ReplayedRevision {
  event: ResourceEventType;
  id: string;
  rev: number;
  /** The schema the revision was validated against (content revisions, schema changes). */
  schema: string;
  source?: Record<string, unknown>;
  tag?: string;
  targetRev?: number;
  /** The instant and subject the revision was made at and by, when the import keeps them (see `keptTarget`). */
  recorded?: { instant: string; subject: string };
}

type Target = { id: string; project: ProjectRef; instant: string; subject: string; projectSeen?: number };

/**
 * The command replaying a revision on the item as it is now; the revision must come next (its
 * `rev` one past the item's), so an import run again refuses what already landed instead of
 * adding revisions.
 */
export const replayedCommand = (
  revision: ReplayedRevision,
  state: ResourceState | undefined,
  importing: Target,
  content: Content | undefined,
  schemaProject: ProjectRef,
): ResourceCommand | Rejection => {
  const tag = revision.tag === undefined ? {} : { tag: revision.tag };
  const target = keptTarget(revision, state, importing);
  if (revision.event === 'ResourceCreated') return { type: 'Create', ...target, ...content!, ...tag };
  if (!state) return rejections.notFound(revision.id, target.project);
  if (revision.rev !== state.rev + 1) return rejections.incorrectRev(revision.rev - 1, state.rev);
  const rev = state.rev;
  switch (revision.event) {
    case 'ResourceUpdated':
      return { type: 'Update', ...target, ...content!, rev, ...tag };
    case 'ResourceRefreshed':
      return { type: 'Refresh', ...target, ...content! };
    case 'ResourceTagAdded':
      return { type: 'Tag', ...target, rev, tag: revision.tag ?? '', targetRev: revision.targetRev ?? rev };
    case 'ResourceTagDeleted':
      return { type: 'DeleteTag', ...target, rev, tag: revision.tag ?? '' };
    case 'ResourceDeprecated':
      return { type: 'Deprecate', ...target, rev };
    case 'ResourceUndeprecated':
      return { type: 'Undeprecate', ...target, rev };
    case 'ResourceSchemaUpdated':
      return { type: 'UpdateSchema', ...target, schema: revision.schema, schemaProject };
    case 'ResourceDeleted':
      return rejections.malformedContent(`revision ${revision.rev} of '${revision.id}' is a deletion, which an export never holds.`);
  }
};

/**
 * The target with the revision's recorded subject and instant, when it has them. The instant is kept
 * only when it lies between the item's last revision and now (an item's revisions never go back in
 * time nor come from the future: time travel reads them in order), else it is the import's own.
 */
const keptTarget = (revision: ReplayedRevision, state: ResourceState | undefined, target: Target): Target => {
  const recorded = revision.recorded;
  if (!recorded) return target;
  const inOrder = recorded.instant <= target.instant && (state === undefined || recorded.instant >= state.updatedAt);
  return { ...target, subject: recorded.subject, instant: inOrder ? recorded.instant : target.instant };
};

/** Event types whose revision carries a source. */
export const CONTENT_EVENTS: ReadonlySet<string> = new Set(['ResourceCreated', 'ResourceUpdated', 'ResourceRefreshed']);
