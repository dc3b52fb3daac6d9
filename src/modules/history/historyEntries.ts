import type { ProjectRef } from '../../kernel/labels.js';
import type { SubjectPath } from '../../kernel/Subject.js';
import type { RevisionRecord } from '../../domain/versioned.js';

/** What a revision did, by Delta's names (EventMetric.scala), `SchemaUpdated` for a change of schema. */
export type Action = 'Created' | 'Updated' | 'Tagged' | 'TagDeleted' | 'Deprecated' | 'Undeprecated' | 'SchemaUpdated' | 'Refreshed';

/** One revision in a history (Delta's `GET /v1/history/resources/...` entry). */
export interface HistoryEntry {
  '@id': string;
  '@type': string[];
  action: Action[];
  organization: string;
  project: ProjectRef;
  rev: number;
  instant: string;
  subject: DeltaSubject;
}

/** A subject as Delta's history shows it (`Identity.Database.subjectCodec`). */
export type DeltaSubject = { '@type': 'Anonymous' } | { '@type': 'User'; realm: string; subject: string };

export const deltaSubject = (path: SubjectPath): DeltaSubject => {
  const user = /^realms\/([^/]+)\/users\/(.+)$/.exec(path);
  if (user) return { '@type': 'User', realm: user[1]!, subject: user[2]! };
  return { '@type': 'Anonymous' };
};

/** An event of the resource lifecycle (resources, schemas; the log's `Schema*` names read as `Resource*`). */
export interface LifecycleEvent {
  type: string;
  rev: number;
  instant: string;
  subject: SubjectPath;
  types?: string[];
  tag?: string;
}

const BY_NAME: Record<string, Action> = {
  Created: 'Created',
  Updated: 'Updated',
  Refreshed: 'Refreshed',
  TagAdded: 'Tagged',
  TagDeleted: 'TagDeleted',
  Deprecated: 'Deprecated',
  Undeprecated: 'Undeprecated',
  SchemaUpdated: 'SchemaUpdated',
};

/**
 * The actions of an event of the kinds with a history, by its type after the kind's prefix
 * (`ResourceTagAdded`, `SchemaUpdated`, `FileTagAdded`; a resource's change of schema is `ResourceSchemaUpdated`);
 * a create or an update that tags its revision is both. Undefined for an event that makes no
 * revision of the item (a deletion marker).
 */
export const actionsOf = (type: string, tag?: string): Action[] | undefined => {
  const name = type.replace(/^(Resource|Schema|File)/, '');
  const action = Object.hasOwn(BY_NAME, name) ? BY_NAME[name] : undefined;
  if (action === undefined) return undefined;
  return tag !== undefined && (action === 'Created' || action === 'Updated') ? [action, 'Tagged'] : [action];
};

/** The history of an item of the resource lifecycle from its events, oldest first. */
export const lifecycleHistory = (id: string, project: ProjectRef, events: readonly LifecycleEvent[]): HistoryEntry[] => {
  const entries: HistoryEntry[] = [];
  let types: string[] = [];
  for (const e of events) {
    const action = actionsOf(e.type, e.type.endsWith('TagAdded') ? undefined : e.tag);
    if (!action) continue;
    types = e.types ?? types;
    entries.push(entry(id, project, types, action, e));
  }
  return entries;
};

/**
 * The history of an item kept whole per revision (files) from its revision records. A record folded
 * before the event type was kept is told by what changed; a tag's addition and deletion change
 * nothing else, and are both shown as `Tagged` there.
 */
export const recordHistory = <V>(id: string, project: ProjectRef, types: string[], records: readonly RevisionRecord<V>[]): HistoryEntry[] =>
  records.map((r, i) => {
    const before = records[i - 1];
    const action =
      (r.event !== undefined ? actionsOf(r.event) : undefined) ??
      (!before
        ? ['Created']
        : before.deprecated !== r.deprecated
          ? [r.deprecated ? 'Deprecated' : 'Undeprecated']
          : before.value !== r.value
            ? ['Updated']
            : ['Tagged']);
    return entry(id, project, types, action as Action[], { rev: r.rev, instant: r.updatedAt, subject: r.updatedBy });
  });

const entry = (
  id: string,
  project: ProjectRef,
  types: string[],
  action: Action[],
  e: { rev: number; instant: string; subject: SubjectPath },
): HistoryEntry => ({
  '@id': id,
  '@type': types,
  action,
  organization: project.split('/')[0]!,
  project,
  rev: e.rev,
  instant: e.instant,
  subject: deltaSubject(e.subject),
});
