import type { Router } from 'express';
import { projectEndpoints } from '../../http/projectEndpoints.js';
import { projectOf, segment } from '../../http/route.js';
import type { Routes } from '../../http/route.js';
import type { ViewIndexingStatus } from './viewIndexingStatus.js';

/** Delta: `authorizeRead` of its indexing routes, `resources/read` on the project. */
const { read } = projectEndpoints('views/write');

/** Delta 1.12's indexing status of one item in one view (default or user-defined), as plain JSON. */
export const viewStatusRoute = (routes: Routes, router: Router, status: ViewIndexingStatus): void => {
  routes.add(router, '/v1/views/:org/:project/:id/status/:resourceId', {
    get: read("Whether a view holds an item's latest change: Pending, Completed or Discarded", async (req, res) => {
      res.json({ status: await status.status(projectOf(req), segment(req, 'id'), segment(req, 'resourceId')) });
    }),
  });
};
