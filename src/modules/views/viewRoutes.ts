import type { Request, Response, Router } from 'express';
import type { KindQueries } from '../../catalogue/KindQueries.js';
import type { Addresses } from '../../kernel/Addresses.js';
import type { ProjectService } from '../../domain/projects/ProjectService.js';
import { resolveId } from '../../domain/projects/apiMappings.js';
import { listingRequest, nextAddress } from '../../http/listingParams.js';
import { requiredRev, selector, single } from '../../http/params.js';
import { pageBody } from '../../http/render/listing.js';
import { onProject, projectOf, segment } from '../../http/route.js';
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
import { LISTING, SEARCH } from '../../http/reads.js';

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

/** Views (Delta's views API): lifecycle, listing, `_search`, statistics and offsets; SPARQL queries go through the project's endpoint. */
export const viewRoutes = (routes: Routes, router: Router, { views, queries, indexes, listing, projects, addresses }: Deps): void => {
  const id = (req: Request) => segment(req, 'id');
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
    post: write('Create a view (ElasticSearchView, SparqlView, AggregateElasticSearchView, AggregateSparqlView)', async (req, res, ctx) => {
      written(res, 201)(await views.create(projectOf(req), undefined, req.body, ctx.caller));
    }),
  });
  const tag: Handler = async (req, res, ctx) => {
    const rev = requiredRev(req.query);
    const body = tagBody(req.body);
    written(res, 201)(await views.tag(projectOf(req), id(req), rev, body.tag, body.rev, ctx.caller));
  };
  routes.add(router, S, {
    get: read('Fetch a view (?rev or ?tag)', (req, res) => send(res, viewBody(views.fetch(projectOf(req), id(req), selector(req.query)), addresses))),
    put: write('Create a view with this id, or update it (?rev)', async (req, res, ctx) => {
      if (single(req.query, 'rev') === undefined) return written(res, 201)(await views.create(projectOf(req), id(req), req.body, ctx.caller));
      written(res, 200)(await views.update(projectOf(req), id(req), requiredRev(req.query), req.body, ctx.caller));
    }),
    delete: write(
      'Deprecate a view (?rev)',
      async (req, res, ctx) => {
        written(res, 200)(await views.deprecate(projectOf(req), id(req), requiredRev(req.query), ctx.caller));
      },
      'none',
    ),
    // @bbp/nexus-sdk 1.3 (`View.tag`) posts the tag to the view itself rather than to `/tags`.
    post: write('Tag a revision of a view (?rev), where @bbp/nexus-sdk 1.3 sends it', tag),
  });
  routes.add(router, `${S}/undeprecate`, {
    put: write(
      'Undeprecate a view (?rev)',
      async (req, res, ctx) => {
        written(res, 200)(await views.undeprecate(projectOf(req), id(req), requiredRev(req.query), ctx.caller));
      },
      'none',
    ),
  });
  routes.add(router, `${S}/source`, {
    get: read('The view payload as sent', (req, res) => send(res, views.fetch(projectOf(req), id(req), selector(req.query)).value.source)),
  });
  routes.add(router, `${S}/tags`, {
    get: read('Tags of a view', (req, res) => send(res, tagsBody(views.fetch(projectOf(req), id(req), selector(req.query)).tags))),
    post: write('Tag a revision of a view (?rev)', tag),
  });
  routes.add(router, `${S}/_search`, {
    post: {
      // The view's own `permission` (views/query unless it says otherwise); an aggregate's members are checked one by one.
      guard: { permission: 'views/query', on: onProject, resolve: (req) => permissionOf(req) },
      reads: SEARCH,
      body: 'json',
      costly: true,
      summary: "Search a view's documents with the Elasticsearch query DSL (aggregates: their members')",
      handle: async (req, res, ctx) => void res.json(await queries.search(projectOf(req), id(req), req.body ?? {}, ctx.caller)),
    },
  });
  routes.add(router, `${S}/statistics`, {
    get: read("Indexing statistics of a view's projection", async (req, res) => {
      const view = views.located(projectOf(req), id(req), false);
      send(res, await statistics(view, indexes));
    }),
  });
  routes.add(router, `${S}/offset`, {
    get: read("The offset of a view's projection in the log", (req, res) => {
      const view = views.located(projectOf(req), id(req), false);
      const at = isDefaultView(view.id) ? indexes.defaultPosition : indexes.progress(view.project, view.id)?.position;
      send(res, offsetBody(at));
    }),
    delete: write(
      "Restart a view's projection from the start of the log",
      (req, res) => {
        const view = views.located(projectOf(req), id(req), true);
        if (!isDefaultView(view.id) && !view.deprecated) indexes.restart(view);
        send(res, offsetBody(undefined));
      },
      'none',
      false,
    ),
  });

  /** A view's query permission, read before the request is authorized (undefined: the declared one). */
  function permissionOf(req: Request): string | undefined {
    try {
      const project = projects.fetch(projectOf(req));
      const viewId = resolveId(id(req), project);
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
