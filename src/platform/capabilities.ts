import type { Config } from '../config/Config.js';
import type { CapabilityModule } from '../modules/Capability.js';
import type { Platform } from '../modules/Platform.js';
import { createResolversModule } from '../resolvers/index.js';
import { createArchivesModule } from '../modules/archives/index.js';
import { createViewsModule } from '../modules/views/index.js';
import { createIamModule } from '../modules/iam/index.js';
import { createHistoryModule } from '../modules/history/index.js';
import { createBulkModule } from '../modules/bulk/index.js';
import { createGraphAnalyticsModule } from '../modules/graphAnalytics/index.js';
import { createSchemaJobsModule } from '../modules/schemaJobs/index.js';
import { createFilesModule } from '../modules/files/index.js';
import { httpLimits } from '../config/Config.js';
import { storageConfig } from '../config/storageConfig.js';
import { ConfigError } from '../kernel/ConfigError.js';

/**
 * Every capability module, registered once: a new capability is one line here. The composition
 * root registers their kinds, streams, projections and rejection statuses, then wires them.
 */
export const capabilities = (config: Config, extra: readonly CapabilityModule<Platform, unknown>[] = []) => {
  const iam = createIamModule({ bootstrapIdentity: config.bootstrapIdentity ?? 'anonymous', providerTimeoutMillis: config.providerTimeoutMillis ?? 5_000 });
  const resolvers = createResolversModule();
  // Wired before the modules that read files: it hands them its ports through the platform.
  const files = createFilesModule({
    // Defaults resolved here, where the configuration is read: the same as an empty `plugins.storage.storages`.
    storages:
      config.storages ??
      storageConfig(
        () => undefined,
        (name, problem) => new ConfigError(name, problem),
      ),
    dataDir: config.dataDir,
    partMaxAgeMillis: httpLimits(config).requestTimeoutMillis,
  });
  const others: CapabilityModule<Platform, unknown>[] = [
    createArchivesModule({
      ttlSeconds: config.archiveTtlSeconds ?? 18_000,
      caps: {
        perCaller: { count: config.archivesPerCaller ?? 100, bytes: config.archiveBytesPerCaller ?? 16 * 1024 * 1024 },
        perProject: { count: config.archivesPerProject ?? 1_000, bytes: config.archiveBytesPerProject ?? 64 * 1024 * 1024 },
      },
    }),
    createViewsModule({ searchBudgetMillis: config.searchTimeoutMillis ?? 2_000, sparqlViewsPerProject: config.sparqlViewsPerProject ?? 10 }),
    createHistoryModule(),
    createBulkModule({ maxLineBytes: config.maxPayloadBytes, window: 256, batch: 128 }),
    createGraphAnalyticsModule(),
    createSchemaJobsModule(),
    ...extra,
  ];
  // In the order the projector folds their kinds: storages and files right after the core's.
  const all: readonly CapabilityModule<never, unknown>[] = [files, iam, resolvers, ...others];
  return { iam, files, resolvers, others, all };
};
