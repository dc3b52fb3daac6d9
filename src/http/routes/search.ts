import type { Request, Response, Router } from 'express';
import { rejections } from '../../domain/rejections.js';
import type { ProjectRef } from '../../kernel/labels.js';
import { context } from '../../kernel/vocabulary.js';
import type { SearchService } from '../../search/SearchService.js';
import { many } from '../params.js';
import { onProject, onRoot, projectOf } from '../route.js';
import type { Context, Endpoint, Routes } from '../route.js';
import { SEARCH } from '../reads.js';

interface Deps {
  search: SearchService;
  /** ProjectNotFound unless the project exists. */
  checkProject(ref: ProjectRef): void;
  /** Every projection runner of this replica with the log head, shown beside the project's search offset. */
  projections?: () => Promise<{ head: number; runners: readonly { name: string; position: number; failures: number; quarantined: number }[] }>;
}

const NXV = 'https://bluebrain.github.io/nexus/vocabulary/';
const PROJECT = /^[a-zA-Z0-9_-]{1,64}\/[a-zA-Z0-9_-]{1,64}$/;

/** No body searches everything, as Elasticsearch's `_search` without one does. */
const searchBody = (req: Request): unknown => req.body ?? {};

/** Searches read only the projects where the caller holds `views/query` (spec 4.6, 5). */
const query = (handle: (req: Request, res: Response, ctx: Context) => Promise<void>): Endpoint => ({
  guard: { permission: 'views/query', within: onRoot },
  reads: SEARCH,
  body: 'json',
  handle,
  costly: true,
});

/** Spec 4.6: the search query API, suites, the fields configuration and each project's indexing progress. */
export const searchRoutes = (routes: Routes, router: Router, { search, checkProject, projections }: Deps): void => {
  routes.add(router, '/v1/search/query', {
    post: query(async (req, res, ctx) => void res.json(await search.query(searchBody(req), ctx.access))),
  });
  routes.add(router, '/v1/search/query/suite/:name', {
    post: query(async (req, res, ctx) => {
      const added = many(req.query, 'addProject');
      const bad = added.find((p) => !PROJECT.test(p));
      if (bad !== undefined) throw rejections.malformedQueryParam(`Query parameter 'addProject' must be 'org/project', got '${bad}'.`);
      res.json(await search.querySuite(req.params['name'] as string, added, searchBody(req), ctx.access));
    }),
  });
  // The public system's documentation says `suite`, its code `suites`: both are served.
  for (const path of ['/v1/search/suite/:name', '/v1/search/suites/:name'])
    routes.add(router, path, {
      get: {
        guard: { permission: 'views/query', within: onRoot },
        reads: SEARCH,
        body: 'none',
        handle: (req, res, ctx) => {
          const suite = search.suiteFor(req.params['name'] as string, ctx.access);
          res.json({ '@context': 'https://bluebrain.github.io/nexus/contexts/suites.json', name: suite.name, projects: suite.projects });
        },
      },
    });
  routes.add(router, '/v1/search/config', {
    get: {
      guard: { permission: 'views/query', within: onRoot },
      reads: SEARCH,
      body: 'none',
      handle: (_req, res, ctx) => void res.type('application/json').send(search.config(ctx.access)),
    },
  });
  routes.add(router, '/v1/views/:org/:project/search/offset', {
    get: {
      guard: { permission: 'views/query', on: onProject },
      reads: SEARCH,
      body: 'none',
      handle: async (req, res) => {
        const ref = projectOf(req);
        checkProject(ref);
        const at = search.offset(ref);
        // Then this replica's projection runners, each at its position in the whole log, with its lag behind the head.
        const progress = projections ? await projections() : { head: 0, runners: [] };
        const runners = progress.runners.map((r) => ({
          sourceId: `${NXV}eventLog`,
          projectionId: `${NXV}${r.name}Projection`,
          offset: r.position === 0 ? { '@type': 'Start' } : { '@type': 'At', value: r.position },
          _lag: Math.max(0, progress.head - r.position),
          _failures: r.failures,
          _quarantined: r.quarantined,
        }));
        res.type('application/ld+json').send(
          JSON.stringify({
            '@context': [context('metadata'), context('search'), context('offset')],
            _total: 1 + runners.length,
            _results: [
              {
                sourceId: `${NXV}searchSource`,
                projectionId: `${NXV}searchProjection`,
                offset: at === undefined ? { '@type': 'Start' } : { '@type': 'At', value: at },
              },
              ...runners,
            ],
          }),
        );
      },
    },
  });
};
