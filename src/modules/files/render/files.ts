import type { FileState } from '../files/File.js';
import { attributesJson } from '../files/fileDefinition.js';
import type { JsonObject } from '../../../kernel/json.js';
import { idSegment } from '../../../kernel/Addresses.js';
import type { Addresses } from '../../../kernel/Addresses.js';
import { auditFields } from '../../../http/render/auditFields.js';
import { context, FILES_SCHEMA } from '../../../kernel/vocabulary.js';

/** A file's metadata (wire-storages-files.md "Metadata"): write responses, listing entries and fetches with a JSON-LD `Accept`. */
export const fileMetadata = (f: FileState, at: Addresses): JsonObject => {
  const self = `${at.base}/v1/files/${f.project}/${idSegment(f.id)}`;
  return {
    '@context': [context('files'), context('metadata')],
    '@id': f.id,
    '@type': 'File',
    ...attributesJson(f.value),
    _storage: { '@id': f.value.storage.id, '@type': f.value.storage.type, _rev: f.value.storage.rev },
    _self: self,
    _constrainedBy: FILES_SCHEMA,
    _incoming: `${self}/incoming`,
    _outgoing: `${self}/outgoing`,
    _project: f.project,
    ...auditFields(f, at),
  };
};
