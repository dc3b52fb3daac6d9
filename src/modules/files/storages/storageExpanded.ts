import type { JsonObject } from '../../../kernel/json.js';
import { NXV, XSD } from '../../../kernel/vocabulary.js';
import type { StorageFields } from './Storage.js';

/** The types of a storage as IRIs: `Storage` and its concrete type. */
export const storageTypes = (fields: Pick<StorageFields, 'type'>): string[] => [`${NXV}Storage`, `${NXV}${fields.type}`];

/**
 * A storage revision in expanded JSON-LD, the terms of the storages context: what its revision graph
 * holds, so listings and SPARQL see storages like any item. Secrets are never part of it.
 */
export const storageExpanded = (id: string, fields: StorageFields): JsonObject[] => {
  const node: JsonObject = { '@id': id, '@type': storageTypes(fields) };
  const put = (name: string, value: unknown) => {
    if (value === undefined) return;
    node[`${NXV}${name}`] = [
      typeof value === 'number' ? { '@value': value, '@type': `${XSD}long` } : typeof value === 'boolean' ? { '@value': value } : { '@value': value },
    ];
  };
  put('default', fields.default);
  put('readPermission', fields.readPermission);
  put('writePermission', fields.writePermission);
  put('maxFileSize', fields.maxFileSize);
  put('volume', fields.volume);
  put('capacity', fields.capacity);
  put('endpoint', fields.endpoint);
  put('bucket', fields.bucket);
  put('region', fields.region);
  put('accessKey', fields.accessKey);
  put('folder', fields.folder);
  put('algorithm', 'SHA-256');
  return [node];
};
