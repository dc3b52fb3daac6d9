import type { Request, Router } from 'express';
import type { KindQueries } from '../../catalogue/KindQueries.js';
import type { Addresses } from '../../kernel/Addresses.js';
import type { ProjectService } from '../../domain/projects/ProjectService.js';
import { resolveId } from '../../domain/projects/apiMappings.js';
import { requiredRev } from '../../http/params.js';
import { itemOf, onProject, projectOf, segment } from '../../http/route.js';
import type { Routes } from '../../http/route.js';
import { sendJsonLd as send } from '../../http/routes/itemResponses.js';
import { context } from '../../kernel/vocabulary.js';
import type { ViewState } from './View.js';
import type { ViewService } from './ViewService.js';
import type { ViewIndexes } from './ViewIndexes.js';
import type { ViewQueries } from './ViewQueries.js';
import { viewBody, viewMetadata } from './viewJson.js';
import { isDefaultView } from './viewDefinition.js';
import type { IndexCounts } from './ViewIndex.js';
import { FETCH, SEARCH } from '../../http/reads.js';
import type { ItemPath } from '../../http/requestEdge.js';
import { VIEW_SEGMENTS } from './ViewService.js';
import { versionedRoutes } from '../../http/routes/versionedRoutes.js';

interface Deps {
  views: ViewService;
  queries: ViewQueries;
  indexes: ViewIndexes;
  listing: KindQueries<ViewState>;
  projects: ProjectService;
  addresses: Addresses;
}

const T = '/v1/views/:org/:project';
const S = `${T}/:id`;

/** Delta: views are read with `resources/read` and written with `views/write` on the project. */
/** The view of `S` (`graph`: the default SPARQL view). */
const ITEM: ItemPath = { id: 'id', rules: VIEW_SEGMENTS };

/** Views (Delta's views API): lifecycle, listing, `_search`, statistics and offsets; SPARQL queries go through the project's endpoint. */
export const viewRoutes = (routes: Routes, router: Router, { views, queries, indexes, listing, projects, addresses }: Deps): void => {
  // Delta: views are read with `resources/read` and written with `views/write` on the project.
  const { read, write, written } = versionedRoutes(routes, router, {
    path: T,
    kind: 'views',
    noun: 'a view',
    types: 'ElasticSearchView, SparqlView, AggregateElasticSearchView, AggregateSparqlView',
    writePermission: 'views/write',
    item: ITEM,
    service: views,
    listing,
    projects,
    addresses,
    body: viewBody,
    metadata: viewMetadata,
  });
  routes.add(router, `${S}/undeprecate`, {
    put: write(
      'Undeprecate a view (?rev)',
      async (req, res, ctx) => {
        written(res, 200)(await views.undeprecate(itemOf(ctx), requiredRev(req.query), ctx.caller));
      },
      'none',
      true,
      ITEM,
    ),
  });
  routes.add(router, `${S}/_search`, {
    post: {
      // The view's own `permission` (views/query unless it says otherwise); an aggregate's members are checked one by one.
      guard: { permission: 'views/query', on: onProject, resolve: (req) => permissionOf(req) },
      reads: SEARCH,
      body: 'json',
      costly: true,
      item: ITEM,
      summary: "Search a view's documents with the Elasticsearch query DSL (aggregates: their members')",
      handle: async (req, res, ctx) => void res.json(await queries.search(itemOf(ctx), req.body ?? {}, ctx.caller)),
    },
  });
  routes.add(router, `${S}/statistics`, {
    get: read(
      "Indexing statistics of a view's projection",
      async (_req, res, ctx) => {
        const view = views.located(itemOf(ctx), false);
        send(res, await statistics(view, indexes));
      },
      FETCH,
      ITEM,
    ),
  });
  routes.add(router, `${S}/offset`, {
    get: read(
      "The offset of a view's projection in the log",
      (_req, res, ctx) => {
        const view = views.located(itemOf(ctx), false);
        const at = isDefaultView(view.id) ? indexes.defaultPosition : indexes.progress(view.project, view.id)?.position;
        send(res, offsetBody(at));
      },
      FETCH,
      ITEM,
    ),
    delete: write(
      "Restart a view's projection from the start of the log",
      (_req, res, ctx) => {
        const view = views.located(itemOf(ctx), true);
        if (!isDefaultView(view.id) && !view.deprecated) indexes.restart(view);
        send(res, offsetBody(undefined));
      },
      'none',
      false,
      ITEM,
    ),
  });

  /** A view's query permission, read before the request is authorized (undefined: the declared one). */
  function permissionOf(req: Request): string | undefined {
    try {
      const project = projects.fetch(projectOf(req));
      const viewId = resolveId(segment(req, 'id'), project);
      return viewId === undefined ? undefined : views.find(projectOf(req), viewId)?.value.fields.filters?.permission;
    } catch {
      return undefined;
    }
  }
};

const offsetBody = (at: number | undefined) => ({
  '@context': context('offset'),
  ...(at === undefined || at === 0 ? { '@type': 'Start' } : { '@type': 'At', value: at }),
});

/**
 * Delta's ViewStatistics. A user-defined view's from its runner: what it applied since it started
 * and what is left before the log head; a default view's from the project's events, every one of
 * them evaluated (the default views index every item of the project).
 */
const statistics = async (view: ViewState, indexes: ViewIndexes) => {
  let c: IndexCounts | undefined;
  let remaining = 0;
  if (isDefaultView(view.id)) {
    const project = await indexes.events.of(view.project);
    remaining = indexes.remaining(view.project, indexes.defaultPosition);
    const at = project.lastInstant;
    c = { processed: project.events, evaluated: project.events, discarded: 0, failed: 0, ...(at ? { lastEventInstant: at, lastProcessedInstant: at } : {}) };
  } else {
    const progress = indexes.progress(view.project, view.id);
    c = progress?.index.counts;
    remaining = progress?.remaining ?? 0;
  }
  const processed = c?.processed ?? 0;
  return {
    '@context': context('statistics'),
    '@type': 'ViewStatistics',
    delayInSeconds: 0,
    discardedEvents: c?.discarded ?? 0,
    evaluatedEvents: c?.evaluated ?? 0,
    failedEvents: c?.failed ?? 0,
    ...(c?.lastEventInstant ? { lastEventDateTime: c.lastEventInstant, lastProcessedEventDateTime: c.lastProcessedInstant } : {}),
    processedEvents: processed,
    remainingEvents: remaining,
    totalEvents: processed + remaining,
  };
};
