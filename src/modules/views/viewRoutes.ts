import type { Request, Response, Router } from 'express';
import type { KindQueries } from '../../catalogue/KindQueries.js';
import type { Addresses } from '../../kernel/Addresses.js';
import type { ProjectService } from '../../domain/projects/ProjectService.js';
import { resolveId } from '../../domain/projects/apiMappings.js';
import { listingRequest, nextAddress } from '../../http/listingParams.js';
import { requiredRev, selector, single } from '../../http/params.js';
import { pageBody } from '../../http/render/listing.js';
import { itemOf, onProject, projectOf, segment } from '../../http/route.js';
import { projectEndpoints } from '../../http/projectEndpoints.js';
import type { Context, Handler, Routes } from '../../http/route.js';
import { tagBody } from '../../http/routes/tagBody.js';
import { sendJsonLd as send, tagsBody } from '../../http/routes/itemResponses.js';
import { context } from '../../kernel/vocabulary.js';
import type { ViewState } from './View.js';
import type { ViewService } from './ViewService.js';
import type { ViewIndexes } from './ViewIndexes.js';
import type { ViewQueries } from './ViewQueries.js';
import { viewBody, viewMetadata } from './viewJson.js';
import { isDefaultView } from './viewDefinition.js';
import type { IndexCounts } from './ViewIndex.js';
import { FETCH, LISTING, SEARCH } from '../../http/reads.js';
import type { ItemPath } from '../../http/requestEdge.js';
import { VIEW_SEGMENTS } from './ViewService.js';

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
const { read, write } = projectEndpoints('views/write');
/** The view of `S` (`graph`: the default SPARQL view), and a POST's (none: the payload's `@id` or a new one). */
const ITEM: ItemPath = { id: 'id', rules: VIEW_SEGMENTS };
const NEW: ItemPath = { rules: VIEW_SEGMENTS };

/** Views (Delta's views API): lifecycle, listing, `_search`, statistics and offsets; SPARQL queries go through the project's endpoint. */
export const viewRoutes = (routes: Routes, router: Router, { views, queries, indexes, listing, projects, addresses }: Deps): void => {
  const written = (res: Response, status: number) => (s: ViewState) => send(res, viewMetadata(s, addresses), status);
  const list = async (req: Request, res: Response, ctx: Context) => {
    projects.fetch(projectOf(req));
    const page = await listing.list(listingRequest(req, { kind: 'views', project: projectOf(req) }, ctx.access));
    send(
      res,
      pageBody(page, (s) => viewMetadata(s, addresses), page.next && nextAddress(addresses, req, page.next)),
    );
  };

  routes.add(router, T, {
    get: read('List views of a project', list, LISTING),
    post: write(
      'Create a view (ElasticSearchView, SparqlView, AggregateElasticSearchView, AggregateSparqlView)',
      async (req, res, ctx) => {
        written(res, 201)(await views.create(ctx.item!, req.body, ctx.caller));
      },
      'json',
      true,
      NEW,
    ),
  });
  const tag: Handler = async (req, res, ctx) => {
    const rev = requiredRev(req.query);
    const body = tagBody(req.body);
    written(res, 201)(await views.tag(itemOf(ctx), rev, body.tag, body.rev, ctx.caller));
  };
  routes.add(router, S, {
    get: read('Fetch a view (?rev or ?tag)', (req, res, ctx) => send(res, viewBody(views.fetch(itemOf(ctx), selector(req.query)), addresses)), FETCH, ITEM),
    put: write(
      'Create a view with this id, or update it (?rev)',
      async (req, res, ctx) => {
        if (single(req.query, 'rev') === undefined) return written(res, 201)(await views.create(itemOf(ctx), req.body, ctx.caller));
        written(res, 200)(await views.update(itemOf(ctx), requiredRev(req.query), req.body, ctx.caller));
      },
      'json',
      true,
      ITEM,
    ),
    delete: write(
      'Deprecate a view (?rev)',
      async (req, res, ctx) => {
        written(res, 200)(await views.deprecate(itemOf(ctx), requiredRev(req.query), ctx.caller));
      },
      'none',
      true,
      ITEM,
    ),
    // @bbp/nexus-sdk 1.3 (`View.tag`) posts the tag to the view itself rather than to `/tags`.
    post: write('Tag a revision of a view (?rev), where @bbp/nexus-sdk 1.3 sends it', tag, 'json', true, ITEM),
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
  routes.add(router, `${S}/source`, {
    get: read('The view payload as sent', (req, res, ctx) => send(res, views.fetch(itemOf(ctx), selector(req.query)).value.source), FETCH, ITEM),
  });
  routes.add(router, `${S}/tags`, {
    get: read('Tags of a view', (req, res, ctx) => send(res, tagsBody(views.fetch(itemOf(ctx), selector(req.query)).tags)), FETCH, ITEM),
    post: write('Tag a revision of a view (?rev)', tag, 'json', true, ITEM),
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
      (_req, res, ctx) => {
        const view = views.located(itemOf(ctx), false);
        send(res, statistics(view, indexes));
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
const statistics = (view: ViewState, indexes: ViewIndexes) => {
  let c: IndexCounts | undefined;
  let remaining = 0;
  if (isDefaultView(view.id)) {
    const project = indexes.events.of(view.project);
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
