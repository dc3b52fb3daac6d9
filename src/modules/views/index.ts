import { KindQueries } from '../../catalogue/KindQueries.js';
import type { Caller } from '../../kernel/Caller.js';
import type { ProjectRef } from '../../kernel/labels.js';
import type { CapabilityModule } from '../Capability.js';
import type { Platform } from '../Platform.js';
import type { ViewState } from './View.js';
import { viewDefinition, viewKey } from './viewDefinition.js';
import { ViewIndexes } from './ViewIndexes.js';
import { ViewQueries } from './ViewQueries.js';
import { viewRoutes } from './viewRoutes.js';
import { viewMetadata } from './viewMetadata.js';
import { ViewGraphWriter } from './ViewGraphWriter.js';
import { viewStatuses } from './viewRejections.js';
import { ViewService } from './ViewService.js';
import { ViewIndexingStatus } from './viewIndexingStatus.js';
import { viewStatusRoute } from './viewStatusRoute.js';

export interface ViewServices {
  views: ViewService;
  queries: ViewQueries;
  indexes: ViewIndexes;
}

/**
 * Views as one capability: their kind, streams, statuses, lifecycle, the indexes of user-defined
 * views (a projection each, created at run time), `_search`, and the datasets the SPARQL endpoint
 * queries for them. The default views of a project are created with it and answered by the
 * project's search and SPARQL endpoint.
 */
export const createViewsModule = (options: { searchBudgetMillis: number; sparqlViewsPerProject?: number }): CapabilityModule<Platform, ViewServices> => ({
  name: 'views',
  kinds: [viewDefinition],
  streams: ['views'],
  projections: [],
  statuses: viewStatuses,
  // With the external store, the lease holder writes the views' graphs after each batch.
  storeWriter: (d) =>
    new ViewGraphWriter({
      store: d.store,
      states: d.states,
      items: d.items,
      metadataOf: viewMetadata(d.addresses),
      epoch: d.epoch,
      renew: d.renew,
      log: d.log,
    }),
  wire: (p) => {
    const states = p.states.of(viewDefinition) as ReadonlyMap<string, ViewState>;
    const views = new ViewService({
      states,
      projects: p.projects,
      lifecycle: p.lifecycle,
      clock: p.clock,
      permissions: p.permissions,
      ...(options.sparqlViewsPerProject === undefined ? {} : { sparqlViewsPerProject: options.sparqlViewsPerProject }),
    });
    const indexes = new ViewIndexes({
      items: p.projectItems,
      feed: p.feed,
      log: p.log,
      views: () => states.values(),
      metadataOf: viewMetadata(p.addresses),
      graphs: p.sparql,
      documentOf: async (kind, listed, tag) => {
        if (kind !== 'resources' && kind !== 'schemas') return undefined;
        return p.items.body(kind, listed.project, listed.id, tag === undefined ? {} : { tag });
      },
    });
    const queries = new ViewQueries({
      views,
      indexes,
      acl: p.acl,
      ...(p.defaultSearch ? { search: p.defaultSearch } : {}),
      searchBudgetMillis: options.searchBudgetMillis,
      turns: p.turns,
    });
    const listing = new KindQueries('views', states, viewKey, p.listings, p.catalogue);
    const indexingStatus = new ViewIndexingStatus({
      items: p.projectItems,
      feed: p.feed,
      projects: p.projects,
      located: (project, segment) => views.located(views.named(project, segment), false),
      position: (project, id) => indexes.progress(project, id)?.position,
      defaults: p.indexPositions,
    });
    return {
      services: { views, queries, indexes },
      routes: (routes, router) => {
        viewRoutes(routes, router, { views, queries, indexes, listing, projects: p.projects, addresses: p.addresses });
        viewStatusRoute(routes, router, indexingStatus);
      },
      projectCreated: (ref: ProjectRef, caller: Caller) => views.createDefaults(ref, caller),
      sparqlViews: { datasets: (project, viewId, caller) => queries.datasets(project, viewId, caller) },
      close: () => indexes.close(),
    };
  },
});
