import { readFileSync } from 'node:fs';
import type { Request, Response, Router } from 'express';
import { assetPath } from '../../util/assets.js';
import type { AsOf, SparqlEndpoint, SparqlRequest } from '../../sparqlEndpoint/SparqlEndpoint.js';
import { tagProblem } from '../params.js';
import { queryPage } from '../../sparqlEndpoint/queryPage.js';
import { answerTypes } from '../../store/ProjectSparqlStore.js';
import { rejections } from '../../domain/rejections.js';
import { sparqlRejections } from '../../sparqlEndpoint/sparqlRejections.js';
import { onProject, projectOf, segment } from '../route.js';
import { callerKey } from '../CallerConcurrency.js';
import type { Context, Guard, Routes } from '../route.js';
import { FETCH, SPARQL } from '../reads.js';

interface Deps {
  endpoint: SparqlEndpoint;
}

/** The query page's files, read once from the Yasgui and Chart.js packages: served by this service, no CDN. */
const PAGE_FILES: Record<string, { type: string; path: string }> = {
  'yasgui.min.js': { type: 'text/javascript', path: assetPath('node_modules', '@zazuko', 'yasgui', 'build', 'yasgui.min.js') },
  'yasgui.min.css': { type: 'text/css', path: assetPath('node_modules', '@zazuko', 'yasgui', 'build', 'yasgui.min.css') },
  'chart.umd.min.js': { type: 'text/javascript', path: assetPath('node_modules', 'chart.js', 'dist', 'chart.umd.min.js') },
};

/** Every media type the endpoint answers in, then the page: a browser's Accept prefers the page, any other client an answer. */
const NEGOTIATED = [...new Set([...answerTypes.select, ...answerTypes.construct, 'application/json', 'text/html'])];

const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/;

/** Time travel: `at={ISO instant}` or `tag={tag}`, at most one of them, each once. */
const asOfParam = (params: URLSearchParams): { asOf?: AsOf } => {
  const [at, tag] = [params.getAll('at'), params.getAll('tag')];
  if (at.length + tag.length > 1) throw rejections.malformedQueryParam("Give at most one of the query parameters 'at' and 'tag', once.");
  if (at[0] !== undefined) {
    if (!INSTANT.test(at[0]) || Number.isNaN(Date.parse(at[0])))
      throw rejections.malformedQueryParam(`Query parameter 'at' must be an ISO instant like 2024-01-01T00:00:00Z, got '${at[0]}'.`);
    return { asOf: { at: at[0] } };
  }
  if (tag[0] !== undefined) {
    const problem = tagProblem(tag[0]);
    if (problem !== undefined) throw rejections.malformedQueryParam(`Query parameter 'tag' is invalid: ${problem}.`);
    return { asOf: { tag: tag[0] } };
  }
  return {};
};

/** The protocol's parameters, from the query string and a form body alike (names may repeat). */
const protocolRequest = (req: Request): SparqlRequest => {
  const params = new URL(req.originalUrl, 'http://localhost').searchParams;
  const body = req.body as { query?: string; update?: string; form?: URLSearchParams; unsupported?: string } | undefined;
  if (body?.unsupported !== undefined) throw sparqlRejections.unsupportedBody(body.unsupported);
  for (const [name, value] of body?.form ?? []) params.append(name, value);
  const queries = params.getAll('query');
  if (queries.length > 1) throw rejections.malformedQueryParam("Give one 'query'.");
  const query = body?.query ?? queries[0];
  return {
    ...(query === undefined ? {} : { query }),
    update: body?.update !== undefined || params.has('update'),
    defaultGraphs: params.getAll('default-graph-uri'),
    namedGraphs: params.getAll('named-graph-uri'),
    ...asOfParam(params),
  };
};

/** The SPARQL 1.1 Protocol over a project's default SPARQL view (`graph`), and the query page for browsers. */
export const sparqlRoutes = (routes: Routes, router: Router, deps: Deps): void => {
  const guard: Guard = { permission: 'resources/read', or: 'views/query', on: onProject };
  const answer = async (req: Request, res: Response, ctx: Context) => {
    const result = await deps.endpoint.query(
      projectOf(req),
      segment(req, 'viewId'),
      protocolRequest(req),
      (offered) => req.accepts(offered) || undefined,
      ctx.caller,
      callerKey(ctx.caller, req),
    );
    res.vary('Accept').status(200).type(result.mediaType).send(result.body);
  };
  routes.add(router, '/v1/views/:org/:project/:viewId/sparql', {
    get: {
      guard,
      reads: SPARQL,
      body: 'none',
      costly: true,
      handle: async (req, res, ctx) => {
        if (req.accepts(NEGOTIATED) !== 'text/html') return answer(req, res, ctx);
        const project = projectOf(req);
        // The page's files sit at /v1/query-page/, four levels above this path.
        const page = queryPage(project, deps.endpoint.prefixes(project, segment(req, 'viewId')), '../../../../query-page');
        res.vary('Accept').status(200).type('text/html').set(page.headers).send(page.html);
      },
    },
    post: { guard, reads: SPARQL, body: 'sparql', handle: answer, costly: true },
  });
  const cache = new Map<string, Buffer>();
  routes.add(router, '/v1/query-page/:file', {
    get: {
      guard: { public: true },
      reads: FETCH,
      body: 'none',
      handle: (req, res) => {
        const name = req.params['file'] as string;
        const file = Object.hasOwn(PAGE_FILES, name) ? PAGE_FILES[name] : undefined;
        if (!file) throw rejections.routeNotFound();
        let content = cache.get(name);
        if (!content) cache.set(name, (content = readFileSync(file.path)));
        res.status(200).type(file.type).set('Cache-Control', 'public, max-age=86400').send(content);
      },
    },
  });
};
