import type { Router } from 'express';
import { onRoot } from '../route.js';
import type { DeclaredRoute, Routes } from '../route.js';
import { openApiDocument } from '../openapi/openApiDocument.js';
import { FETCH } from '../reads.js';

interface Deps {
  version: string;
  storeSize: () => Promise<number>;
  /** What `dependencies.store` names: the embedded Oxigraph or the external SPARQL server. */
  store: string;
  /** The embedded store's cap (writes are refused from it on); the external store has none of ours. */
  maxStoreQuads: number | undefined;
  eventLog: string;
  /** The routes served, for the OpenAPI description. */
  routes: () => readonly DeclaredRoute[];
  base: string;
  /** Events whose projection failed and were skipped (see the log for their positions and ids). */
  quarantined: () => number;
}

/** `GET /v1/version` (`version/read` on `/`): answers once the server is ready (projections restored). */
export const versionRoutes = (routes: Routes, router: Router, deps: Deps): void => {
  routes.add(router, '/v1/openapi.json', {
    get: { guard: { public: true }, reads: FETCH, body: 'none', handle: (_req, res) => void res.json(openApiDocument(deps.routes(), deps.version, deps.base)) },
  });
  routes.add(router, '/v1/version', {
    get: {
      guard: { permission: 'version/read', on: onRoot },
      reads: FETCH,
      body: 'none',
      handle: async (_req, res) => {
        res.json({
          '@context': 'https://bluebrain.github.io/nexus/contexts/version.json',
          delta: deps.version,
          dependencies: { store: deps.store, eventLog: deps.eventLog },
          plugins: {},
          environment: process.env['NODE_ENV'] ?? 'dev',
          store: { quads: await deps.storeSize(), ...(deps.maxStoreQuads === undefined ? {} : { maxQuads: deps.maxStoreQuads }) },
          projection: { quarantinedEvents: deps.quarantined() },
        });
      },
    },
  });
};
