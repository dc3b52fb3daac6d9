import type { Audit, EventBase } from './Metadata.js';
import { created, touched } from './Metadata.js';
import type { ProjectRef } from '../kernel/labels.js';
import type { Rejection } from '../kernel/Rejection.js';
import { rejections } from './rejections.js';

/** One revision of a small item kept whole in its state: fetches by `rev` or `tag` read it back without the log. */
export interface RevisionRecord<V> {
  rev: number;
  value: V;
  deprecated: boolean;
  updatedAt: string;
  updatedBy: string;
  /** The type of the event that made this revision (history's actions); absent on records folded before it was kept. */
  event?: string;
}

/** The state of a kind whose every revision is small enough to keep in memory (storages, files' metadata). */
export interface Versioned<V> extends Audit {
  id: string;
  project: ProjectRef;
  value: V;
  tags: Record<string, number>;
  /** Every revision, oldest first (`history[rev - 1]`). */
  history: RevisionRecord<V>[];
}

/** What an event of any of these kinds carries besides the base: its type, kept on the revision it makes. */
type Typed = EventBase & { type?: string };

const record = <V>(s: Versioned<V>, e: Typed): RevisionRecord<V> => ({
  rev: s.rev,
  value: s.value,
  deprecated: s.deprecated,
  updatedAt: s.updatedAt,
  updatedBy: s.updatedBy,
  ...(e.type === undefined ? {} : { event: e.type }),
});

export const firstRevision = <V>(e: Typed & { id: string; project: ProjectRef }, value: V): Versioned<V> => {
  const state: Versioned<V> = { ...created(e), id: e.id, project: e.project, value, tags: {}, history: [] };
  return { ...state, history: [record(state, e)] };
};

/** The next revision: `patch` changes the value, the deprecation flag or the tags. */
export const nextRevision = <V>(s: Versioned<V>, e: Typed, patch: Partial<Pick<Versioned<V>, 'value' | 'deprecated' | 'tags'>>): Versioned<V> => {
  const next = touched<Versioned<V>>(s, e, patch);
  return { ...next, history: [...s.history, record(next, e)] };
};

/** The item as it was at revision `rev` (tags stay the current ones); undefined when there is no such revision. */
export const atRevision = <V>(s: Versioned<V>, rev: number): Versioned<V> | undefined => {
  const r = s.history[rev - 1];
  if (!r) return undefined;
  return { ...s, rev: r.rev, value: r.value, deprecated: r.deprecated, updatedAt: r.updatedAt, updatedBy: r.updatedBy };
};

/** The next revision when a tag is added: the same value, the tag naming `targetRev`. */
export const tagged = <V>(s: Versioned<V>, e: Typed & { tag: string; targetRev: number }): Versioned<V> =>
  nextRevision(s, e, { tags: { ...s.tags, [e.tag]: e.targetRev } });

/** A tag may only name a revision the item has (undefined: it does). */
export const missingTargetRev = (s: { rev: number }, targetRev: number): Rejection | undefined =>
  targetRev < 1 || targetRev > s.rev ? rejections.revisionNotFound(targetRev, s.rev) : undefined;
