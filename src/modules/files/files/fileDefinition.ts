import type { JsonObject } from '../../../kernel/json.js';
import { rejections } from '../../../domain/rejections.js';
import { FILES_SCHEMA, NXV, XSD } from '../../../kernel/vocabulary.js';
import { versionedDefinition } from '../../../domain/versionedDefinition.js';
import type { FileCommand, FileEvent, FileValue } from './File.js';
import { evaluateFile, nextFile } from './File.js';
import { fileRejections } from './fileRejections.js';
import { fileKey } from './fileKey.js';

export const FILE_TYPE = `${NXV}File`;

/** The file attributes as the API shows them (`_bytes`, `_digest`...), the path left out. */
export const attributesJson = (value: FileValue) => ({
  _bytes: value.attributes.bytes,
  _digest: { _algorithm: 'SHA-256', _value: value.attributes.digest },
  _filename: value.attributes.filename,
  _mediaType: value.attributes.mediaType,
  _origin: 'Client',
  _uuid: value.attributes.uuid,
  ...(value.attributes.location === undefined ? {} : { _location: value.attributes.location }),
});

/** A file revision's metadata as expanded JSON-LD: what its revision graph holds, with a link to its storage. */
export const fileExpanded = (id: string, value: FileValue): JsonObject[] => [
  {
    '@id': id,
    '@type': [FILE_TYPE],
    [`${NXV}bytes`]: [{ '@value': value.attributes.bytes, '@type': `${XSD}long` }],
    [`${NXV}digest`]: [{ [`${NXV}algorithm`]: [{ '@value': 'SHA-256' }], [`${NXV}value`]: [{ '@value': value.attributes.digest }] }],
    [`${NXV}filename`]: [{ '@value': value.attributes.filename }],
    [`${NXV}mediaType`]: [{ '@value': value.attributes.mediaType }],
    [`${NXV}storage`]: [{ '@id': value.storage.id }],
    [`${NXV}uuid`]: [{ '@value': value.attributes.uuid }],
  },
];

/** Files: metadata kept whole per revision, a revision graph per revision, a catalogue row per file. */
export const fileDefinition = versionedDefinition<FileValue, FileCommand, FileEvent>({
  kind: 'files',
  key: fileKey,
  noun: 'file',
  rejections: { ...fileRejections, invalidId: rejections.invalidResourceId },
  evaluate: evaluateFile,
  fold: nextFile,
  streamed: {
    context: 'files',
    idField: '_fileId',
    own: (e) => ('attributes' in e ? { _attributes: attributesJson(e), _storage: { '@id': e.storage.id, '@type': e.storage.type, _rev: e.storage.rev } } : {}),
    types: () => [FILE_TYPE],
    // Delta's file events name no schema.
    constrained: () => false,
  },
  content: {
    expanded: fileExpanded,
    source: (value) => ({ ...attributesJson(value) }),
    types: () => [FILE_TYPE],
    schema: FILES_SCHEMA,
  },
});
