import type { Kind, LogEvent } from '../events/EventLog.js';
import type { RenderLookups } from '../kernel/RenderLookups.js';
import type { ProjectRef } from '../kernel/labels.js';
import type { Rejection } from '../kernel/Rejection.js';
import type { Link } from './resources/links.js';
import type { JsonObject } from './resources/ResourceEvent.js';
import type { SubjectPath } from '../kernel/Subject.js';

/** A kind's event as the log carries it. */
export interface DomainEvent {
  type: string;
  instant: string;
}

/** What listings show of an item: the catalogue row of a listable kind. */
export interface Listed {
  project: ProjectRef;
  id: string;
  rev: number;
  deprecated: boolean;
  types: string[];
  /** The schema itself, never a pinned revision: listings filter by schema. */
  schema: string;
  createdAt: string;
  createdBy: SubjectPath;
  updatedAt: string;
  updatedBy: SubjectPath;
  links: Link[];
}

/** What a revision adds to the triple store: its own content, or the previous revision's again. */
export type RevisionContent = { expanded: JsonObject[]; source: JsonObject } | 'unchanged';

/**
 * A kind of item as the generic machinery sees it: the projector folds its events into its states,
 * snapshots keep them, the event streams render them, the catalogue lists them. Registered once in
 * the composition root; adding a kind is its definition plus that line.
 */
export interface KindDefinition<S = unknown> {
  /** The log's name of the kind, also the name of its states in snapshots. */
  readonly kind: Kind;
  /** Where an item's state is kept: the key of the event's item, and of a state restored from a snapshot. */
  stateKey(logged: LogEvent): string;
  keyOf(state: S): string;
  /** Folds one logged event; undefined when the item is gone (permanent deletion). */
  next(state: S | undefined, logged: LogEvent): S | undefined;
  /** The payload of the event on the event streams (spec §6). */
  render(logged: LogEvent, look: RenderLookups): Record<string, unknown>;
  /** Kinds kept in the triple store: what the revision an event makes holds (undefined: no new revision). */
  revision?(previous: S | undefined, next: S, logged: LogEvent): RevisionContent | undefined;
  /** Listable kinds: the catalogue row of a state. */
  listed?(state: S): Listed;
  /**
   * Kinds not listed whose items belong to a project all the same (the ACL on its path): the
   * project and the item's log key, so the project's deletion removes them with it, as Delta's
   * deletion tasks purge them.
   */
  contained?(state: S): { project: ProjectRef; key: string } | undefined;
}

/** A kind that accepts commands: evaluation, and the rejection a lost race in the log becomes. */
export interface CommandDefinition<S, C, E extends DomainEvent & { rev: number }> {
  readonly kind: Kind;
  /** `null`: valid, but nothing changes. */
  evaluate(state: S | undefined, cmd: C): E | Rejection | null;
  /** Another writer appended first: the log holds `actualRev`. */
  conflict(state: S | undefined, cmd: C, actualRev: number): Rejection;
  /** The event under the name the log records it (a kind may log its own names for shared events). */
  logged?(event: E): DomainEvent;
  /** The item's revision after the event, when it is not the event's `rev` (0: the item is gone). */
  revAfter?(event: E): number;
}
