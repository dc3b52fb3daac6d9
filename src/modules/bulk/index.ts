import type { CapabilityModule } from '../Capability.js';
import type { Platform } from '../Platform.js';
import { fileDefinition } from '../../domain/files/fileDefinition.js';
import { bulkRoutes } from './bulkRoutes.js';
import { BulkService } from './BulkService.js';
import type { ImportBounds } from './BulkImport.js';

import { isBulkImport } from './bulkRoutes.js';

export interface BulkSettings extends ImportBounds {
  /** A line's size limit (the body limit of a single create). */
  maxLineBytes: number;
}

/** Bulk import and export as one capability: no kind of its own, its writes are the resources' and schemas' events. */
export const createBulkModule = (settings: BulkSettings): CapabilityModule<Platform, { bulk: BulkService }> => ({
  name: 'bulk',
  kinds: [],
  streams: [],
  projections: [],
  statuses: {},
  // An import's NDJSON body is streamed, each line held to the single create's limit.
  streamedBody: isBulkImport,
  wire: (p) => {
    const { services, states, log, toNQuads } = p.revisions;
    const bulk = new BulkService({
      services,
      projects: p.projects,
      acl: p.acl,
      storages: p.storages,
      sources: {
        states,
        files: p.states.of(fileDefinition),
        read: (after, limit) => log.read(after, limit),
        get: (seq) => log.get(seq),
        toNQuads,
        addresses: p.addresses,
      },
      maxLineBytes: settings.maxLineBytes,
      bounds: { window: settings.window, batch: settings.batch },
    });
    return { services: { bulk }, routes: (routes, router) => bulkRoutes(routes, router, { bulk, addresses: p.addresses }) };
  },
});
