import type { Router } from 'express';
import { callerKey } from '../../http/CallerConcurrency.js';
import { SPARQL } from '../../http/reads.js';
import { projectOf, segment } from '../../http/route.js';
import type { Endpoint, Handler, Routes } from '../../http/route.js';
import { projectEndpoint } from '../../http/projectEndpoints.js';
import { sendJsonLd as send } from '../../http/routes/itemResponses.js';
import { context } from '../../kernel/vocabulary.js';
import type { GraphAnalytics } from './GraphAnalytics.js';

/** Delta's GraphAnalyticsRoutes: `resources/read` on the project, over the store as it holds the log when the request came. */
const read = (summary: string, handle: Handler): Endpoint => projectEndpoint('resources/read', handle, { reads: SPARQL, summary });

const G = '/v1/graph-analytics/:org/:project';

export const graphAnalyticsRoutes = (routes: Routes, router: Router, analytics: GraphAnalytics): void => {
  routes.add(router, `${G}/relationships`, {
    get: read("The types of the project's current resources and the properties linking them, with counts (nodes, edges)", async (req, res, ctx) => {
      send(res, { '@context': context('relationships'), ...(await analytics.relationships(projectOf(req), callerKey(ctx.caller, req))) });
    }),
  });
  routes.add(router, `${G}/properties/:type`, {
    get: read(
      "The property paths of the project's current resources of a type, nested, with counts and the data types of their values",
      async (req, res, ctx) => {
        send(res, { '@context': context('properties'), ...(await analytics.properties(projectOf(req), segment(req, 'type'), callerKey(ctx.caller, req))) });
      },
    ),
  });
  routes.add(router, `${G}/progress`, {
    get: read("How far the project's graph analytics are: lastProcessedEventDateTime, eventsCount, resourcesCount", async (req, res) => {
      send(res, { '@context': context('statistics'), ...(await analytics.progress(projectOf(req))) });
    }),
  });
};
