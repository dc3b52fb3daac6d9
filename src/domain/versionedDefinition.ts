import type { Kind } from '../events/EventLog.js';
import type { RenderLookups } from '../kernel/RenderLookups.js';
import { context } from '../kernel/vocabulary.js';
import type { ProjectRef } from '../kernel/labels.js';
import type { Rejection } from '../kernel/Rejection.js';
import { eventOf } from './eventOf.js';
import type { CommandDefinition, DomainEvent, KindDefinition } from './KindDefinition.js';
import type { ItemTarget } from './itemCommands.js';
import type { EventBase } from './Metadata.js';
import { revConflict } from './revConflict.js';
import type { Versioned } from './versioned.js';
import type { VersionedContent } from './versionedParts.js';
import { versionedListed, versionedRevision } from './versionedParts.js';

/** How a kind's items are refused: each kind's rejection family names these four alike. */
export interface ItemRejections {
  notFound(id: string, project: ProjectRef): Rejection;
  alreadyExists(id: string, project: ProjectRef): Rejection;
  isDeprecated(id: string): Rejection;
  /** A path segment or `@id` that does not expand to an IRI. */
  invalidId(value: string): Rejection;
}

/** How a kind's items are addressed and refused: what its service's shared steps (`VersionedItems`) apply. */
export interface ItemRules extends ItemRejections {
  key(project: ProjectRef, id: string): string;
  /** Names the kind where a payload is refused for not being a JSON object ("A resolver payload must be ..."). */
  noun: string;
}

/** An event of such a kind: the item, its project and the revision it makes. */
type ItemEvent = DomainEvent & EventBase & { id: string; project: ProjectRef };

/**
 * How such a kind's events show on the event streams (spec §6). Every one is laid out in Delta's
 * order: its contexts (the metadata's, then the kind's), its type, its id under the kind's name and
 * as `_resourceId`, the payload as sent where the event carries one, the kind's own fields,
 * `_types`, `_constrainedBy` (the kind's schema), the project, instant, uuids, revision and subject,
 * and a tag's `tag` and `targetRev`.
 */
export interface StreamedEvent<E> {
  /** The kind's JSON-LD context (views: their family's). */
  context: string | ((e: E) => string);
  /** The item's id under the kind's name (`_viewId`). */
  idField: string;
  /** The event's name on the streams when it is not its type (views: Delta's per family). */
  type?(e: E): string;
  /** Fields of the kind's own, after the head (files: `_attributes`, `_storage`). */
  own?(e: E): Record<string, unknown>;
  types(e: E): string[];
  /** Whether the event names the schema (every event when absent: Delta leaves it out of some). */
  constrained?(e: E): boolean;
}

/** A kind kept whole per revision (storages, files, resolvers, views), as the machinery and its service see it. */
export type VersionedDefinition<V, C, E extends ItemEvent> = KindDefinition<Versioned<V>> & CommandDefinition<Versioned<V>, C, E> & ItemRules;

/** What such a kind says of itself; the rest of its definition is the same for all of them. */
export interface VersionedParts<V, C, E extends ItemEvent> {
  kind: Kind;
  key(project: ProjectRef, id: string): string;
  noun: string;
  rejections: ItemRejections;
  evaluate(state: Versioned<V> | undefined, cmd: C): E | Rejection;
  /** Folds one of the kind's events. */
  fold(state: Versioned<V> | undefined, event: E): Versioned<V> | undefined;
  streamed: StreamedEvent<E>;
  /** How a revision shows in the triple store and the catalogue. */
  content: VersionedContent<V>;
}

/** An event of such a kind on the event streams, laid out as `StreamedEvent` says. */
const streamedEvent =
  <E extends ItemEvent>(streamed: StreamedEvent<E>, schema: string) =>
  (e: E, look: RenderLookups): Record<string, unknown> => {
    const uuids = look.projectUuids(e.project);
    return {
      '@context': [context('metadata'), context(typeof streamed.context === 'string' ? streamed.context : streamed.context(e))],
      '@type': streamed.type ? streamed.type(e) : e.type,
      [streamed.idField]: e.id,
      _resourceId: e.id,
      ...('source' in e ? { _source: e.source } : {}),
      ...streamed.own?.(e),
      _types: streamed.types(e),
      ...((streamed.constrained?.(e) ?? true) ? { _constrainedBy: schema } : {}),
      _project: e.project,
      _instant: e.instant,
      ...(uuids ? { _projectUuid: uuids.uuid, _organizationUuid: uuids.orgUuid } : {}),
      _rev: e.rev,
      _subject: look.addresses.subject(e.subject),
      ...('tag' in e ? { tag: e.tag } : {}),
      ...('targetRev' in e ? { targetRev: e.targetRev } : {}),
    };
  };

/**
 * The definition of a kind kept whole per revision: its items are kept under their log key, each
 * revision gets a revision graph and the item a catalogue row, and a lost race is a stale `rev` (or,
 * on a create, an id already taken).
 */
export const versionedDefinition = <V, C extends ItemTarget, E extends ItemEvent>({
  fold,
  streamed,
  content,
  rejections,
  ...parts
}: VersionedParts<V, C, E>): VersionedDefinition<V, C, E> => {
  const render = streamedEvent<E>(streamed, content.schema);
  return {
    ...parts,
    notFound: rejections.notFound,
    alreadyExists: rejections.alreadyExists,
    isDeprecated: rejections.isDeprecated,
    invalidId: rejections.invalidId,
    stateKey: (logged) => logged.key,
    keyOf: (state) => parts.key(state.project, state.id),
    next: (state, logged) => fold(state, eventOf<E>(logged)),
    conflict: revConflict<Versioned<V>, C>((cmd) => rejections.alreadyExists(cmd.id, cmd.project)),
    render: (logged, look) => render(eventOf<E>(logged), look),
    revision: versionedRevision(content),
    listed: versionedListed(content),
  };
};
