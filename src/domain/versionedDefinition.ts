import type { Kind, LogEvent } from '../events/EventLog.js';
import type { RenderLookups } from '../kernel/RenderLookups.js';
import { context } from '../kernel/vocabulary.js';
import type { ProjectRef } from '../kernel/labels.js';
import type { Rejection } from '../kernel/Rejection.js';
import type { CommandDefinition, DomainEvent, KindDefinition } from './KindDefinition.js';
import type { ItemTarget } from './itemCommands.js';
import type { EventBase } from './Metadata.js';
import { rejections } from './rejections.js';
import type { Versioned } from './versioned.js';
import type { VersionedContent } from './versionedParts.js';
import { versionedListed, versionedRevision } from './versionedParts.js';

/** How a kind's items are addressed and refused: what its service's shared steps (`VersionedItems`) apply. */
export interface ItemRules {
  key(project: ProjectRef, id: string): string;
  notFound(id: string, project: ProjectRef): Rejection;
  alreadyExists(id: string, project: ProjectRef): Rejection;
  isDeprecated(id: string): Rejection;
  /** A path segment or `@id` that does not expand to an IRI. */
  invalidId(value: string): Rejection;
  /** Names the kind where a payload is refused for not being a JSON object ("A resolver payload must be ..."). */
  noun: string;
}

/** An event of such a kind: the item, its project and the revision it makes. */
type ItemEvent = DomainEvent & EventBase & { id: string; project: ProjectRef };

/** A kind kept whole per revision (storages, files, resolvers, views), as the machinery and its service see it. */
export type VersionedDefinition<V, C, E extends ItemEvent> = KindDefinition<Versioned<V>> & CommandDefinition<Versioned<V>, C, E> & ItemRules;

/** What such a kind says of itself; the rest of its definition is the same for all of them. */
export interface VersionedParts<V, C, E extends ItemEvent> extends ItemRules {
  kind: Kind;
  evaluate(state: Versioned<V> | undefined, cmd: C): E | Rejection;
  /** Folds one of the kind's events. */
  fold(state: Versioned<V> | undefined, event: E): Versioned<V> | undefined;
  /** The event on the event streams (spec §6), `streamedTail` among its fields. */
  renderEvent(event: E, look: RenderLookups): Record<string, unknown>;
  /** How a revision shows in the triple store and the catalogue. */
  content: VersionedContent<V>;
}

/**
 * The definition of a kind kept whole per revision: its items are kept under their log key, each
 * revision gets a revision graph and the item a catalogue row, and a lost race is a stale `rev` (or,
 * on a create, an id already taken).
 */
export const versionedDefinition = <V, C extends ItemTarget, E extends ItemEvent>({
  fold,
  renderEvent,
  content,
  ...parts
}: VersionedParts<V, C, E>): VersionedDefinition<V, C, E> => {
  const eventOf = (logged: LogEvent) => logged.event as unknown as E;
  return {
    ...parts,
    stateKey: (logged) => logged.key,
    keyOf: (state) => parts.key(state.project, state.id),
    next: (state, logged) => fold(state, eventOf(logged)),
    conflict: (state, cmd, actual) =>
      state ? rejections.incorrectRev('rev' in cmd && typeof cmd.rev === 'number' ? cmd.rev : state.rev, actual) : parts.alreadyExists(cmd.id, cmd.project),
    render: (logged, look) => renderEvent(eventOf(logged), look),
    revision: versionedRevision(content),
    listed: versionedListed(content),
  };
};

/**
 * The fields every streamed event of such a kind carries before its own, in Delta's order: its
 * contexts (the metadata's, then the kind's), its type, its id under the kind's name (`_viewId`)
 * and as `_resourceId`, and the payload as sent where the event carries one.
 */
export const streamedHead = (e: ItemEvent & { source?: unknown }, kindContext: string, idField: string, type: string = e.type): Record<string, unknown> => ({
  '@context': [context('metadata'), context(kindContext)],
  '@type': type,
  [idField]: e.id,
  _resourceId: e.id,
  ...('source' in e ? { _source: e.source } : {}),
});

/** The fields every streamed event of such a kind carries after its own, in Delta's order. */
export const streamedTail = (e: ItemEvent, look: RenderLookups): Record<string, unknown> => {
  const uuids = look.projectUuids(e.project);
  return {
    _project: e.project,
    _instant: e.instant,
    ...(uuids ? { _projectUuid: uuids.uuid, _organizationUuid: uuids.orgUuid } : {}),
    _rev: e.rev,
    _subject: look.addresses.subject(e.subject),
  };
};
