import type { StorageFields } from './storages/Storage.js';
import { DiskFileStore } from './DiskFileStore.js';
import type { FileStore } from './files/FileStore.js';
import { RemoteDiskFileStore } from './RemoteDiskFileStore.js';
import type { RemoteTimeouts } from './RemoteDiskFileStore.js';
import { S3FileStore } from './S3FileStore.js';
import type { EndpointPolicy } from './EndpointPolicy.js';
import { GuardedFileStore } from './GuardedFileStore.js';

export interface FileStoreSettings {
  /** Folders disk volumes must lie in. */
  allowedVolumes: readonly string[];
  /** Bounds of requests to an object store or the remote disk service. */
  timeouts: RemoteTimeouts;
  /** Which endpoints the remote types may reach. */
  endpoints: EndpointPolicy;
}

/** The store behind a storage's fields (its secret in clear, for the time of one request). */
export const fileStoreOf = (settings: FileStoreSettings) => {
  const s3 = new Map<string, S3FileStore>();
  return (id: string, fields: StorageFields, secret: string | undefined): FileStore => {
    switch (fields.type) {
      case 'DiskStorage':
        return new DiskFileStore(id, fields.volume ?? '/tmp', settings.allowedVolumes);
      case 'BlobStorage': {
        // One client per configuration: clients keep their connections alive.
        const key = JSON.stringify([id, fields.endpoint, fields.region, fields.accessKey, secret, fields.bucket]);
        let store = s3.get(key);
        if (!store) {
          store = new S3FileStore(
            id,
            {
              bucket: fields.bucket ?? 'registry',
              ...(fields.endpoint ? { endpoint: fields.endpoint } : {}),
              ...(fields.region ? { region: fields.region } : {}),
              ...(fields.accessKey !== undefined ? { accessKey: fields.accessKey } : {}),
              ...(secret !== undefined ? { secretKey: secret } : {}),
            },
            settings.timeouts,
          );
          s3.set(key, store);
        }
        return new GuardedFileStore(store, settings.endpoints, id, 'BlobStorage', fields.endpoint);
      }
      case 'RemoteDiskStorage':
        return new GuardedFileStore(
          new RemoteDiskFileStore(id, fields.endpoint ?? '', fields.folder ?? '', secret, settings.timeouts),
          settings.endpoints,
          id,
          'RemoteDiskStorage',
          fields.endpoint ?? '',
        );
    }
  };
};
