import type { LogEvent } from '../../events/EventLog.js';
import type { CommandDefinition, KindDefinition } from '../KindDefinition.js';
import { rejections } from '../rejections.js';
import { context, STORAGES_SCHEMA } from '../../kernel/vocabulary.js';
import { storageKey } from './storageKey.js';
import type { StorageCommand, StorageEvent, StorageState, StorageValue } from './Storage.js';
import { evaluateStorage, nextStorage } from './Storage.js';
import { storageExpanded, storageTypes } from './storageExpanded.js';
import { storageRejections } from './storageRejections.js';
import { versionedListed, versionedRevision } from '../versionedParts.js';
import type { VersionedContent } from '../versionedParts.js';

const eventOf = (logged: LogEvent) => logged.event as unknown as StorageEvent;

const content: VersionedContent<StorageValue> = {
  expanded: (id, value) => storageExpanded(id, value.fields),
  source: (value) => value.source,
  types: (value) => storageTypes(value.fields),
  schema: STORAGES_SCHEMA,
};

/**
 * Storages: kept whole per revision in their state, a revision graph per revision (secrets never in
 * it), a catalogue row per storage; events rendered as Delta renders them, `_source` without secrets.
 */
export const storageDefinition: KindDefinition<StorageState> & CommandDefinition<StorageState, StorageCommand, StorageEvent> = {
  kind: 'storages',
  stateKey: (logged) => logged.key,
  keyOf: (state) => storageKey(state.project, state.id),
  next: (state, logged) => nextStorage(state, eventOf(logged)),
  evaluate: evaluateStorage,
  conflict: (state, cmd, actual) =>
    state ? rejections.incorrectRev('rev' in cmd ? cmd.rev : state.rev, actual) : storageRejections.storageAlreadyExists(cmd.id, cmd.project),
  render: (logged, look) => {
    const e = eventOf(logged);
    const uuids = look.projectUuids(e.project);
    const type = 'fields' in e ? e.fields.type : e.storageType;
    return {
      '@context': [context('metadata'), context('storages')],
      '@type': e.type,
      _storageId: e.id,
      _resourceId: e.id,
      ...('source' in e ? { _source: e.source } : {}),
      _types: storageTypes({ type }),
      ...(e.type === 'StorageTagAdded' ? {} : { _constrainedBy: STORAGES_SCHEMA }),
      _project: e.project,
      _instant: e.instant,
      ...(uuids ? { _projectUuid: uuids.uuid, _organizationUuid: uuids.orgUuid } : {}),
      _rev: e.rev,
      _subject: look.addresses.subject(e.subject),
      ...(e.type === 'StorageTagAdded' ? { tag: e.tag, targetRev: e.targetRev } : {}),
    };
  },
  revision: versionedRevision(content),
  listed: versionedListed(content),
};
