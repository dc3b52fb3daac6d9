import type { StorageOptions } from '../files/StorageOptions.js';

const TEN_GIB = 10 * 1024 * 1024 * 1024;

/** The `plugins.storage.storages.*` keys of the JSON config file (nested objects), with the spec's defaults. */
export const storageConfig = (file: (key: string) => string | undefined, invalid: (setting: string, problem: string) => Error): StorageOptions => {
  const key = (k: string) => `plugins.storage.storages.${k}`;
  const text = (k: string) => file(key(k));
  const bytes = (k: string, fallback?: number): number | undefined => {
    const raw = text(k);
    if (raw === undefined) return fallback;
    if (!/^\d+$/.test(raw) || Number(raw) <= 0 || !Number.isSafeInteger(Number(raw)))
      throw invalid(key(k), `expected a positive number of bytes, got '${raw}'`);
    return Number(raw);
  };
  const flag = (k: string): boolean => {
    const raw = text(k);
    if (raw === undefined) return false;
    if (raw !== 'true' && raw !== 'false') throw invalid(key(k), `expected true or false, got '${raw}'`);
    return raw === 'true';
  };
  const millis = (k: string, fallback: number): number => {
    const raw = text(k);
    if (raw === undefined) return fallback;
    if (!/^\d+$/.test(raw) || Number(raw) < 10 || Number(raw) > 86_400_000)
      throw invalid(key(k), `expected a number of milliseconds (10 to 86400000), got '${raw}'`);
    return Number(raw);
  };
  const endpoints = (k: string): string[] => {
    const raw = text(k);
    if (raw === undefined) return [];
    const list = stringList(raw);
    const bad = list.find((e) => !ENDPOINT_PATTERN.test(e));
    if (bad !== undefined) throw invalid(key(k), `expected endpoints as scheme://host[:port] (host '*' or '*.domain' for many), got '${bad}'`);
    return list;
  };
  const optional = (name: string, value: string | number | undefined) => (value === undefined ? {} : { [name]: value });
  const volume = text('disk.default-volume') ?? '/tmp';
  const allowed = text('disk.allowed-volumes');
  const password = text('password');
  return {
    defaults: {
      DiskStorage: {
        enabled: true,
        volume,
        readPermission: text('disk.default-read-permission') ?? 'resources/read',
        writePermission: text('disk.default-write-permission') ?? 'files/write',
        maxFileSize: bytes('disk.default-max-file-size', TEN_GIB)!,
        ...optional('capacity', bytes('disk.default-capacity')),
      },
      BlobStorage: {
        enabled: flag('blob.enabled'),
        readPermission: text('blob.default-read-permission') ?? 'resources/read',
        writePermission: text('blob.default-write-permission') ?? 'files/write',
        maxFileSize: bytes('blob.default-max-file-size', TEN_GIB)!,
        bucket: text('blob.default-bucket') ?? 'registry',
        ...optional('endpoint', text('blob.default-endpoint')),
        ...optional('region', text('blob.default-region')),
        ...optional('accessKey', text('blob.default-access-key')),
        ...optional('secretKey', text('blob.default-secret-key')),
      },
      RemoteDiskStorage: {
        enabled: flag('remote-disk.enabled'),
        readPermission: text('remote-disk.default-read-permission') ?? 'resources/read',
        writePermission: text('remote-disk.default-write-permission') ?? 'files/write',
        maxFileSize: bytes('remote-disk.default-max-file-size', TEN_GIB)!,
        ...optional('endpoint', text('remote-disk.default-endpoint')),
        ...optional('credentials', text('remote-disk.default-credentials')),
      },
    },
    allowedVolumes: allowed === undefined ? [volume] : stringList(allowed),
    allowedEndpoints: { BlobStorage: endpoints('blob.allowed-endpoints'), RemoteDiskStorage: endpoints('remote-disk.allowed-endpoints') },
    connectTimeoutMillis: millis('connect-timeout-millis', 5_000),
    transferTimeoutMillis: millis('transfer-timeout-millis', 3_600_000),
    ...(password === undefined ? {} : { password }),
  };
};

const ENDPOINT_PATTERN = /^https?:\/\/(\*|(\*\.)?[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(:\d{1,5})?\/?$/;

/** A JSON array in the file reads back as its JSON text; a plain value may list entries separated by commas. */
const stringList = (raw: string): string[] => {
  const trimmed = raw.trim();
  if (trimmed.startsWith('[')) {
    const parsed: unknown = JSON.parse(trimmed);
    if (Array.isArray(parsed)) return parsed.map((v) => String(v).trim()).filter(Boolean);
  }
  return raw
    .split(',')
    .map((v) => v.trim())
    .filter(Boolean);
};
