import type { CapabilityModule } from '../Capability.js';
import type { Platform } from '../Platform.js';
import { GraphAnalytics } from './GraphAnalytics.js';
import { graphAnalyticsStatuses } from './graphAnalyticsRejections.js';
import { graphAnalyticsRoutes } from './graphAnalyticsRoutes.js';

/**
 * Graph analytics (Delta's graph-analytics plugin) as one capability. No kind and no projection of
 * its own: its answers are aggregations over the project's default SPARQL dataset, which the store
 * keeps current in both its forms (embedded, external).
 */
export const createGraphAnalyticsModule = (): CapabilityModule<Platform, { analytics: GraphAnalytics }> => ({
  name: 'graphAnalytics',
  kinds: [],
  streams: [],
  projections: [],
  statuses: graphAnalyticsStatuses,
  wire: (p) => {
    const analytics = new GraphAnalytics({
      projects: p.projects,
      store: p.sparql.store,
      items: p.projectItems,
      storePosition: () => p.indexPositions.sparql(),
    });
    return { services: { analytics }, routes: (routes, router) => graphAnalyticsRoutes(routes, router, analytics) };
  },
});
