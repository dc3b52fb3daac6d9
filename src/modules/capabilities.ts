import type { Config } from '../config/Config.js';
import type { CapabilityModule } from './Capability.js';
import type { Platform } from './Platform.js';
import { createResolversModule } from './resolvers/index.js';
import { createArchivesModule } from './archives/index.js';
import { createViewsModule } from './views/index.js';
import { createHistoryModule } from './history/index.js';
import { createGraphAnalyticsModule } from './graphAnalytics/index.js';
import { createSchemaJobsModule } from './schemaJobs/index.js';

/**
 * Every capability module, registered once: a new capability is one line here. The composition
 * root registers their kinds, streams, projections and rejection statuses, then wires them.
 */
export const capabilities = (config: Config) => {
  const resolvers = createResolversModule();
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
    createGraphAnalyticsModule(),
    createSchemaJobsModule(),
  ];
  return { resolvers, others, all: [resolvers, ...others] };
};
