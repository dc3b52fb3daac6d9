import type { Router } from 'express';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { assetPath } from '../../util/assets.js';
import type { StorageOptions } from '../storageOptions.js';
import type { Caller } from '../../kernel/Caller.js';
import type { Clock } from '../../kernel/Clock.js';
import type { Addresses } from '../../kernel/Addresses.js';
import type { Lifecycle } from '../../domain/Lifecycle.js';
import type { ProjectService } from '../../domain/projects/ProjectService.js';
import type { ProjectRef } from '../../kernel/labels.js';
import type { FileState } from './files/File.js';
import { FileService } from './files/FileService.js';
import type { FileStates, StorageAccounts } from './files/FileService.js';
import { fileKey } from './files/fileKey.js';
import type { StorageState } from './storages/Storage.js';
import { StorageService } from './storages/StorageService.js';
import { storageKey } from './storages/storageKey.js';
import { storageRejections } from './storages/storageRejections.js';
import type { Listings } from '../../catalogue/Listings.js';
import type { CatalogueQueries } from '../../catalogue/CatalogueQueries.js';
import { KindQueries } from '../../catalogue/KindQueries.js';
import type { Executor } from '../../workers/Executor.js';
import type { ShaclOperations } from '../../shacl/shaclOperations.js';
import type { Routes } from '../../http/route.js';
import { storageRoutes } from './routes/storages.js';
import { fileRoutes } from './routes/files.js';
import { AesSecretBox } from './AesSecretBox.js';
import type { ViewedKind } from '../../domain/resources/MultiFetch.js';
import { storageBody, storageMetadata } from './render/storages.js';
import { fileMetadata } from './render/files.js';
import { storageExpanded } from './storages/storageExpanded.js';
import { attributesJson, fileExpanded } from './files/fileDefinition.js';
import { fileStoreOf } from './fileStores.js';
import { EndpointPolicy } from './EndpointPolicy.js';
import { VolumeCapacityLedger } from './VolumeCapacityLedger.js';
import { sweepPartFiles } from './sweepPartFiles.js';
import type { Log } from '../../kernel/Log.js';

/** The configured password, else a random one kept (owner-only) in the data directory so restarts can open old secrets. */
const secretPassword = (config: StorageOptions, dataDir: string): string => {
  if (config.password !== undefined) return config.password;
  const path = join(dataDir, 'storage-secrets.key');
  if (existsSync(path)) return readFileSync(path, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const key = randomBytes(32).toString('base64url');
  writeFileSync(path, key, { mode: 0o600 });
  return key;
};

export interface FilesDeps {
  config: StorageOptions;
  dataDir: string;
  storageStates: Map<string, StorageState>;
  /** Read through the item states port: held by no replica on the shared layout. */
  fileStates: FileStates;
  /** The storages' running accounts: statistics and capacity read them, never the files. */
  accounts: StorageAccounts;
  projects: ProjectService;
  lifecycle: Lifecycle;
  clock: Clock;
  /** Where a payload is checked against the storages shape, with a time budget, off the event loop. */
  executor: Executor<ShaclOperations>;
  addresses: Addresses;
  listings: Listings;
  catalogue: CatalogueQueries;
  permissions(): readonly string[];
  log: Log;
  /** Temporary files of uploads older than this (the request timeout: an upload pausing that long is cut off) are left over. */
  partMaxAgeMillis: number;
}

/** Storages and files put together: their services, stores, queries and routes. */
export const storagesAndFiles = (deps: FilesDeps) => {
  const config = deps.config;
  const endpoints = new EndpointPolicy(config.allowedEndpoints, {
    BlobStorage: config.defaults.BlobStorage.endpoint,
    RemoteDiskStorage: config.defaults.RemoteDiskStorage.endpoint,
  });
  const stores = fileStoreOf({
    allowedVolumes: config.allowedVolumes,
    timeouts: { connectMillis: config.connectTimeoutMillis, transferMillis: config.transferTimeoutMillis },
    endpoints,
  });
  const shapes = { key: 'storages', format: 'Turtle' as const, text: readFileSync(assetPath('shapes', 'storages.ttl'), 'utf8') };
  const storages = new StorageService({
    states: deps.storageStates,
    projects: deps.projects,
    lifecycle: deps.lifecycle,
    clock: deps.clock,
    defaults: config.defaults,
    secrets: new AesSecretBox(secretPassword(config, deps.dataDir)),
    access: (id, fields, secret) => stores(id, fields, secret).check(),
    validate: async (id, expanded) => {
      const report = await deps.executor.run('validate', { shapes, data: { expanded } });
      if (!report.conforms) throw storageRejections.invalidStoragePayload(id, report.json);
    },
    permissions: deps.permissions,
  });
  const files = new FileService({
    states: deps.fileStates,
    projects: deps.projects,
    storages,
    stores,
    lifecycle: deps.lifecycle,
    clock: deps.clock,
    ledger: new VolumeCapacityLedger(),
    accounts: deps.accounts,
  });
  const storageQueries = new KindQueries('storages', deps.storageStates, storageKey, deps.listings, deps.catalogue);
  const fileQueries = new KindQueries('files', deps.fileStates, fileKey, deps.listings, deps.catalogue);
  // Multi-fetch reads storages and files' metadata in every format from these views.
  const viewed: ViewedKind[] = [
    {
      kind: 'storages',
      fetch: (item, selector) => {
        const s = storages.fetch(item, selector);
        return {
          id: s.id,
          source: s.value.source,
          body: storageBody(s, deps.addresses),
          annotated: { ...storageMetadata(s, deps.addresses), ...s.value.source },
          expanded: storageExpanded(s.id, s.value.fields),
        };
      },
    },
    {
      kind: 'files',
      fetch: async (item, selector) => {
        const f = await files.fetch(item, selector);
        const body = fileMetadata(f, deps.addresses);
        return { id: f.id, source: { '@id': f.id, '@type': 'File', ...attributesJson(f.value) }, body, annotated: body, expanded: fileExpanded(f.id, f.value) };
      },
    },
  ];
  return {
    storages,
    files,
    viewed,
    /** At start-up: temporary files of uploads that never finished (a crash) are removed, and logged. */
    sweepLeftovers: async () => {
      const places = [...deps.storageStates.values()].flatMap((s) =>
        s.history.flatMap((r) =>
          r.value.fields.type === 'DiskStorage' && r.value.fields.volume ? [{ volume: r.value.fields.volume, project: s.project }] : [],
        ),
      );
      const removed = await sweepPartFiles(places, deps.partMaxAgeMillis);
      if (removed.length) deps.log.warn(`removed ${removed.length} temporary file(s) of uploads that never finished`, { paths: removed.slice(0, 100) });
    },
    /** Each new project gets its default disk storage right after it is created. */
    projectCreated: async (ref: ProjectRef, caller: Caller) => void (await storages.createDefault(ref, caller)),
    /** A project's deletion removes the bytes of its files too. */
    projectBytes: (ref: ProjectRef) => files.projectBytes(ref),
    routes: (routes: Routes, router: Router) => {
      storageRoutes(routes, router, { storages, files, queries: storageQueries, addresses: deps.addresses });
      fileRoutes(routes, router, { files, storages, queries: fileQueries, addresses: deps.addresses });
    },
  };
};
