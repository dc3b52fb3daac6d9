import { rejections } from '../../../domain/rejections.js';
import { context, STORAGES_SCHEMA } from '../../../kernel/vocabulary.js';
import { storageKey } from './storageKey.js';
import type { StorageCommand, StorageEvent, StorageValue } from './Storage.js';
import { evaluateStorage, nextStorage } from './Storage.js';
import { storageExpanded, storageTypes } from './storageExpanded.js';
import { storageRejections } from './storageRejections.js';
import { streamedHead, streamedTail, versionedDefinition } from '../../../domain/versionedDefinition.js';
import type { VersionedContent } from '../../../domain/versionedParts.js';

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
export const storageDefinition = versionedDefinition<StorageValue, StorageCommand, StorageEvent>({
  kind: 'storages',
  key: storageKey,
  noun: 'storage',
  notFound: storageRejections.storageNotFound,
  alreadyExists: storageRejections.storageAlreadyExists,
  isDeprecated: storageRejections.storageIsDeprecated,
  invalidId: rejections.invalidResourceId,
  evaluate: evaluateStorage,
  fold: nextStorage,
  renderEvent: (e, look) => ({
    ...streamedHead(e, 'storages', '_storageId'),
    _types: storageTypes({ type: 'fields' in e ? e.fields.type : e.storageType }),
    ...(e.type === 'StorageTagAdded' ? {} : { _constrainedBy: STORAGES_SCHEMA }),
    ...streamedTail(e, look),
    ...(e.type === 'StorageTagAdded' ? { tag: e.tag, targetRev: e.targetRev } : {}),
  }),
  content,
});
