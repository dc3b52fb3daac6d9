import type { CapabilityModule } from '../Capability.js';
import type { FilePort, StoragePort } from '../filePorts.js';
import type { Platform } from '../Platform.js';
import type { StorageOptions } from '../storageOptions.js';
import type { Executor } from '../../workers/Executor.js';
import type { ShaclOperations } from '../../shacl/shaclOperations.js';
import type { FileState } from './files/File.js';
import { fileDefinition } from './files/fileDefinition.js';
import type { FileStates } from './files/FileService.js';
import { fileStatuses } from './files/fileRejections.js';
import { isUpload } from './isUpload.js';
import { filePort, storagePort } from './ports.js';
import { fileMetadata } from './render/files.js';
import { storageBody } from './render/storages.js';
import type { StorageState } from './storages/Storage.js';
import { storageDefinition } from './storages/storageDefinition.js';
import { storageStatuses } from './storages/storageRejections.js';
import { storagesAndFiles } from './wireFiles.js';
import { join } from 'node:path';
import { StorageUsage } from './StorageUsage.js';
import { RedisUsageSnapshots } from './RedisUsageSnapshots.js';
import { FileUsageSnapshots } from './FileUsageSnapshots.js';

declare module '../../events/EventLog.js' {
  interface KindNames {
    storages: true;
    files: true;
  }
}

/** What the files module is wired on: the platform without what it hands over itself, and where storage payloads are validated. */
export type FilesPlatform = Omit<Platform, 'storages' | 'files'> & { executor: Executor<ShaclOperations> };

export interface FilesSettings {
  storages: StorageOptions;
  dataDir: string;
  /** Temporary files of uploads older than this (the request timeout) are left over from a crash. */
  partMaxAgeMillis: number;
}

/**
 * Storages and files as one capability: their kinds, streams, statuses, search documents, routes
 * and multi-fetch entries. It is wired before the modules that read files (archives, bulk,
 * history), which it hands its ports (`storages`, `files`) through the platform.
 */
export const createFilesModule = (settings: FilesSettings): CapabilityModule<FilesPlatform, { storages: StoragePort; files: FilePort }> => ({
  name: 'files',
  kinds: [storageDefinition, fileDefinition],
  streams: [storageDefinition.kind, fileDefinition.kind],
  projections: [],
  statuses: { ...storageStatuses, ...fileStatuses },
  // An upload's multipart body is streamed to its storage, bounded by the storage's own limit.
  streamedBody: isUpload,
  documents: (addresses) => ({
    [storageDefinition.kind]: { document: (state: StorageState) => storageBody(state, addresses) },
    [fileDefinition.kind]: { document: (state: FileState) => fileMetadata(state, addresses), searchedMetadata: ['_filename', '_mediaType'] },
  }),
  wire: (p) => {
    const storageStates = p.states.of(storageDefinition);
    // Files grow with the data: read through the item states port (shared on Redis, held by no replica there).
    const fileStates: FileStates = {
      get: (key) => p.itemStates.get<FileState>('files', key),
      getMany: (keys) => p.itemStates.getMany<FileState>('files', keys),
      keysOf: (project) => p.itemStates.keysOf('files', project),
    };
    // The storages' running accounts (statistics, capacity): one per storage, no file's state read.
    const usage = new StorageUsage({
      feed: p.feed,
      log: p.revisions.log,
      snapshots: p.redis
        ? new RedisUsageSnapshots(p.redis.connection, p.redis.keyOf('storage-usage'))
        : new FileUsageSnapshots(join(settings.dataDir, 'projection', 'storage-usage.json')),
      logger: p.log,
    });
    const wired = storagesAndFiles({
      config: settings.storages,
      dataDir: settings.dataDir,
      storageStates,
      fileStates,
      accounts: usage,
      projects: p.projects,
      lifecycle: p.lifecycle,
      clock: p.clock,
      executor: p.executor,
      addresses: p.addresses,
      listings: p.listings,
      catalogue: p.catalogue,
      permissions: () => p.permissions(),
      log: p.log,
      partMaxAgeMillis: settings.partMaxAgeMillis,
    });
    return {
      services: { storages: storagePort(wired.storages), files: filePort(wired.files, fileStates, p.addresses) },
      routes: wired.routes,
      viewed: wired.viewed,
      counted: [storageDefinition.kind, fileDefinition.kind],
      projectCreated: wired.projectCreated,
      projectDeleting: wired.projectBytes,
      ready: async () => {
        await usage.start();
        await wired.sweepLeftovers();
      },
      close: () => usage.stop(),
    };
  },
});
