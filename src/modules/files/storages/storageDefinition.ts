import { rejections } from '../../../domain/rejections.js';
import { STORAGES_SCHEMA } from '../../../kernel/vocabulary.js';
import { storageKey } from './storageKey.js';
import type { StorageCommand, StorageEvent, StorageValue } from './Storage.js';
import { evaluateStorage, nextStorage } from './Storage.js';
import { storageExpanded, storageTypes } from './storageExpanded.js';
import { storageRejections } from './storageRejections.js';
import { versionedDefinition } from '../../../domain/versionedDefinition.js';
import { fieldsContent } from '../../../domain/versionedParts.js';

/**
 * Storages: kept whole per revision in their state, a revision graph per revision (secrets never in
 * it), a catalogue row per storage; events rendered as Delta renders them, `_source` without secrets.
 */
export const storageDefinition = versionedDefinition<StorageValue, StorageCommand, StorageEvent>({
  kind: 'storages',
  key: storageKey,
  noun: 'storage',
  rejections: { ...storageRejections, invalidId: rejections.invalidResourceId },
  evaluate: evaluateStorage,
  fold: nextStorage,
  streamed: {
    context: 'storages',
    idField: '_storageId',
    types: (e) => storageTypes({ type: 'fields' in e ? e.fields.type : e.storageType }),
    // Delta's storage tag event names no schema.
    constrained: (e) => e.type !== 'StorageTagAdded',
  },
  content: fieldsContent({ expanded: storageExpanded, types: storageTypes, schema: STORAGES_SCHEMA }),
});
