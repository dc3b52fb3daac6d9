/**
 * What configures the files module (`plugins.storage.storages.*`): the configuration reads it
 * (`config/storageConfig.ts`), the module takes it. Here, on the SDK floor, so that neither imports the other.
 */
export type StorageType = 'DiskStorage' | 'RemoteDiskStorage' | 'BlobStorage';

/** What a storage's payload and the configured defaults of its type both set. */
export interface StorageSettings {
  readPermission: string;
  writePermission: string;
  maxFileSize: number;
  volume?: string;
  capacity?: number;
  endpoint?: string;
  bucket?: string;
  region?: string;
  accessKey?: string;
}

/** The configured defaults of one storage type (spec §2.5, keys `plugins.storage.storages.{type}.default-*`). */
export interface TypeDefaults extends StorageSettings {
  enabled: boolean;
  /** Also the largest `maxFileSize` a payload may set (Delta has no separate maximum). */
  maxFileSize: number;
  secretKey?: string;
  credentials?: string;
}

export type StorageDefaults = Record<StorageType, TypeDefaults>;

/** Storages and files: the defaults of each storage type (spec §2.5) and what secrets are sealed with. */
export interface StorageOptions {
  defaults: StorageDefaults;
  /** Folders disk volumes must lie in (default: the default volume). */
  allowedVolumes: string[];
  /** Password the storages' secrets are encrypted with (AES-256-GCM); default: a random key kept in the data directory. */
  password?: string;
  /**
   * Endpoints (`scheme://host[:port]`, host `*` or `*.domain` for many) a storage of each remote type may
   * name besides its type's default endpoint. A literal host is trusted as listed; a host matched by a
   * wildcard must not resolve to a loopback, link-local or private address.
   */
  allowedEndpoints: { BlobStorage: string[]; RemoteDiskStorage: string[] };
  /** Bound of reaching a storage service: connecting and, for requests without a streamed body, its answer's headers. */
  connectTimeoutMillis: number;
  /** Bound of one whole request to a storage service, bytes included. */
  transferTimeoutMillis: number;
}
