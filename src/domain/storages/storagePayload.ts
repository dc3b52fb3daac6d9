import type { JsonObject } from '../../kernel/json.js';
import { NXV } from '../../kernel/vocabulary.js';
import { rejections } from '../rejections.js';
import type { StorageFields, StorageSettings, StorageType } from './Storage.js';
import { STORAGE_TYPES } from './Storage.js';
import { storageRejections } from './storageRejections.js';

/** The configured defaults of one storage type (spec §2.5, keys `plugins.storage.storages.{type}.default-*`). */
export interface TypeDefaults extends StorageSettings {
  enabled: boolean;
  /** Also the largest `maxFileSize` a payload may set (Delta has no separate maximum). */
  maxFileSize: number;
  secretKey?: string;
  credentials?: string;
}

export type StorageDefaults = Record<StorageType, TypeDefaults>;

/** The fields a payload may hold and where secrets are: those never leave the server in clear. */
const SECRET_FIELDS = ['secretKey', 'credentials'];
const STRING_FIELDS = ['volume', 'endpoint', 'bucket', 'region', 'accessKey', 'folder', 'readPermission', 'writePermission', ...SECRET_FIELDS];
const NUMBER_FIELDS = ['maxFileSize', 'capacity'];

/** Names of the types as the public system spells them: its object store is `S3Storage`, ours `BlobStorage`. */
const ALIASES: Record<string, string> = { S3Storage: 'BlobStorage' };

/** A type as payloads name it: `DiskStorage`, `nxv:DiskStorage` or the full IRI; `Storage` itself is implied. */
const typeName = (value: string): string => {
  const name = value.startsWith(NXV) ? value.slice(NXV.length) : value.startsWith('nxv:') ? value.slice(4) : value;
  return ALIASES[name] ?? name;
};

/** An endpoint as compared with the configured default: scheme, host, port and path, no trailing slash. */
const sameEndpoint = (a: string, b: string | undefined): boolean => {
  if (b === undefined) return false;
  const normal = (e: string) => {
    try {
      const url = new URL(e);
      return `${url.protocol}//${url.host}${url.pathname.replace(/\/+$/, '')}${url.search}`;
    } catch {
      return e;
    }
  };
  return normal(a) === normal(b);
};

/**
 * The deployment's default credentials go to the deployment's default endpoint only: a payload
 * naming another endpoint brings its own (`accessKey` and `secretKey`, or `credentials`).
 */
const checkOwnCredentials = (id: string, type: StorageType, source: JsonObject, defaults: StorageDefaults): void => {
  const endpoint = source['endpoint'];
  if (typeof endpoint !== 'string' || sameEndpoint(endpoint, defaults[type].endpoint)) return;
  const needed = type === 'BlobStorage' ? ['accessKey', 'secretKey'] : type === 'RemoteDiskStorage' ? ['credentials'] : [];
  const missing = needed.filter((name) => typeof source[name] !== 'string' || source[name] === '');
  if (missing.length) throw storageRejections.missingStorageCredentials(missing, id, endpoint);
};

/** The concrete storage type of a payload's `@type`. */
const payloadType = (source: JsonObject): string => {
  const raw = source['@type'];
  const values = typeof raw === 'string' ? [raw] : Array.isArray(raw) && raw.every((t) => typeof t === 'string') ? (raw as string[]) : undefined;
  if (!values) throw rejections.malformedContent("A storage payload needs '@type': one of 'DiskStorage', 'RemoteDiskStorage', 'BlobStorage'.");
  const named = values.map(typeName).filter((t) => t !== 'Storage');
  if (named.length !== 1) throw rejections.malformedContent(`A storage payload names exactly one storage type, got '${values.join(', ')}'.`);
  return named[0]!;
};

/** The payload as kept and shown by `/source`: as sent, without its secrets. */
export const withoutSecrets = (source: JsonObject): JsonObject => Object.fromEntries(Object.entries(source).filter(([k]) => !SECRET_FIELDS.includes(k)));

/** The secret a payload carries in clear (its `secretKey` or `credentials`), else the configured default. */
export const payloadSecret = (source: JsonObject, type: StorageType, defaults: StorageDefaults): string | undefined => {
  const given = source[type === 'BlobStorage' ? 'secretKey' : 'credentials'];
  if (typeof given === 'string') return given;
  return type === 'BlobStorage' ? defaults.BlobStorage.secretKey : type === 'RemoteDiskStorage' ? defaults.RemoteDiskStorage.credentials : undefined;
};

/**
 * The fields of a storage payload with every default filled in, checked for what a schema cannot
 * check: an enabled type, a `maxFileSize` within the configured maximum. Shapes check the rest.
 */
export const storageFields = (id: string, source: JsonObject, defaults: StorageDefaults): StorageFields => {
  const named = payloadType(source);
  const enabled = STORAGE_TYPES.filter((t) => defaults[t].enabled);
  const type = STORAGE_TYPES.find((t) => t === named);
  if (!type || !defaults[type].enabled) throw storageRejections.invalidStorageType(named, enabled);
  for (const name of STRING_FIELDS)
    if (source[name] !== undefined && typeof source[name] !== 'string') throw rejections.malformedContent(`Storage field '${name}' must be a string.`);
  for (const name of NUMBER_FIELDS)
    if (source[name] !== undefined && (typeof source[name] !== 'number' || !Number.isInteger(source[name])))
      throw rejections.malformedContent(`Storage field '${name}' must be an integer number of bytes.`);
  if (source['default'] !== undefined && typeof source['default'] !== 'boolean')
    throw rejections.malformedContent("Storage field 'default' must be a boolean.");
  checkOwnCredentials(id, type, source, defaults);
  const d = defaults[type];
  const str = (name: string) => source[name] as string | undefined;
  const maxFileSize = (source['maxFileSize'] as number | undefined) ?? d.maxFileSize;
  if (maxFileSize <= 0 || maxFileSize > d.maxFileSize) throw storageRejections.invalidMaxFileSize(id, maxFileSize, d.maxFileSize);
  const capacity = (source['capacity'] as number | undefined) ?? (type === 'DiskStorage' ? d.capacity : undefined);
  const optional = (name: string, value: string | number | undefined) => (value === undefined ? {} : { [name]: value });
  const common = {
    type,
    default: (source['default'] as boolean | undefined) ?? false,
    readPermission: str('readPermission') ?? d.readPermission,
    writePermission: str('writePermission') ?? d.writePermission,
    maxFileSize,
  };
  switch (type) {
    case 'DiskStorage':
      return { ...common, volume: str('volume') ?? d.volume ?? '/tmp', ...optional('capacity', capacity) };
    case 'BlobStorage':
      return {
        ...common,
        ...optional('endpoint', str('endpoint') ?? d.endpoint),
        bucket: str('bucket') ?? d.bucket ?? 'registry',
        ...optional('region', str('region') ?? d.region),
        ...optional('accessKey', str('accessKey') ?? d.accessKey),
      };
    case 'RemoteDiskStorage': {
      const folder = str('folder');
      if (folder === undefined) throw rejections.malformedContent("A 'RemoteDiskStorage' needs 'folder'.");
      return { ...common, ...optional('endpoint', str('endpoint') ?? d.endpoint), folder };
    }
  }
};
