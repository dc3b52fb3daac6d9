import type { CapabilityModule } from '../Capability.js';
import type { Platform } from '../Platform.js';
import { AsOfGraphs } from './AsOfGraphs.js';
import { HistoryService } from './HistoryService.js';
import { itemRefs } from '../../domain/projects/itemRefs.js';
import { historyStatuses } from './historyRejections.js';
import { historyRoutes } from './historyRoutes.js';

/**
 * History, diffs, blame and time travel as one capability. No kind and no projection of its own:
 * every revision is already in the log and in its own revision graph, so each of these reads what
 * is there (the item's events by their positions, the revisions' triples).
 */
export const createHistoryModule = (): CapabilityModule<Platform, { history: HistoryService }> => ({
  name: 'history',
  kinds: [],
  streams: [],
  projections: [],
  statuses: historyStatuses,
  wire: (p) => {
    const history = new HistoryService({
      refs: itemRefs(p.projects),
      items: p.items,
      files: p.files,
      events: p.revisions.log,
      revisions: p.revisions.services,
      triples: p.revisions.toNQuads,
      acl: p.acl,
    });
    return {
      services: { history },
      routes: (routes, router) => historyRoutes(routes, router, { history, addresses: p.addresses }),
      asOfGraphs: new AsOfGraphs(p.projectItems, p.revisions.log),
    };
  },
});
