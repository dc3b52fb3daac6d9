import type { StorageState } from '../../domain/storages/Storage.js';
import type { JsonObject } from '../../kernel/json.js';
import { idSegment } from '../../kernel/Addresses.js';
import type { Addresses } from '../../kernel/Addresses.js';
import { auditFields } from './auditFields.js';
import { context, STORAGES_SCHEMA } from '../../kernel/vocabulary.js';

const storageSelf = (at: Addresses, s: Pick<StorageState, 'project' | 'id'>) => `${at.base}/v1/storages/${s.project}/${idSegment(s.id)}`;

const types = (s: StorageState) => ['Storage', s.value.fields.type];

/** The `_` fields of a storage (spec 2.2): `_algorithm`, links and the audit. */
const metadataFields = (s: StorageState, at: Addresses) => {
  const self = storageSelf(at, s);
  return {
    _algorithm: 'SHA-256',
    _self: self,
    _constrainedBy: STORAGES_SCHEMA,
    _incoming: `${self}/incoming`,
    _outgoing: `${self}/outgoing`,
    _project: s.project,
    ...auditFields(s, at),
  };
};

/** Write responses and listing entries: metadata only. */
export const storageMetadata = (s: StorageState, at: Addresses): JsonObject => ({
  '@context': [context('storages-metadata'), context('metadata')],
  '@id': s.id,
  '@type': types(s),
  ...metadataFields(s, at),
});

/** Fetch: the payload's fields with every default filled in (never a secret), then the metadata. */
export const storageBody = (s: StorageState, at: Addresses): JsonObject => {
  const { type: _type, secret: _secret, ...fields } = s.value.fields;
  return { '@context': [context('storages'), context('metadata')], '@id': s.id, '@type': types(s), ...fields, ...metadataFields(s, at) };
};
