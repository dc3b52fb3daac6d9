import type { CapabilityModule } from '../Capability.js';
import type { Platform } from '../Platform.js';
import { archiveRoutes } from './archiveRoutes.js';
import { archiveStatuses } from './archiveRejections.js';
import { ArchiveService } from './ArchiveService.js';
import { MemoryArchiveStore, RedisArchiveStore } from './ArchiveStore.js';
import type { ArchiveCaps } from './ArchiveStore.js';

export interface ArchiveSettings {
  /** Seconds an archive lives (Delta: 5 hours). */
  ttlSeconds: number;
  /** What one caller and one project may hold at once. */
  caps: ArchiveCaps;
}

/**
 * Archives as one capability. No kind: Delta keeps them ephemeral, out of the event log; they live
 * in Redis when the event log does (every replica sees them), else in this process's memory.
 */
export const createArchivesModule = (settings: ArchiveSettings): CapabilityModule<Platform, { archives: ArchiveService }> => ({
  name: 'archives',
  kinds: [],
  streams: [],
  projections: [],
  statuses: archiveStatuses,
  wire: (p) => {
    const store = p.redis ? new RedisArchiveStore(p.redis.connection, p.redis.keyOf('archives'), settings.caps) : new MemoryArchiveStore(settings.caps);
    const archives = new ArchiveService({
      store,
      projects: p.projects,
      items: p.items,
      files: p.files,
      storages: p.storages,
      acl: p.acl,
      clock: p.clock,
      turns: p.turns,
      ttlSeconds: settings.ttlSeconds,
      filesAddress: `${p.addresses.base}/v1/files/`,
    });
    return {
      services: { archives },
      routes: (routes, router) => archiveRoutes(routes, router, { archives, addresses: p.addresses }),
      projectDeleted: (ref) => store.removeProject(ref),
      close: () => store.close(),
    };
  },
});
