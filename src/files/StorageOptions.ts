import type { StorageDefaults } from '../domain/storages/storagePayload.js';

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
