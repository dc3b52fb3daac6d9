import type { Router } from 'express';
import { route } from '../route.js';

interface Deps {
  version: string;
  storeSize: () => Promise<number>;
  maxStoreQuads: number;
  eventLog: string;
}

/** `GET /v1/version`: answers once the server is ready (projections restored). */
export const versionRoutes = (router: Router, deps: Deps): void => {
  route(router, '/v1/version', {
    get: async (_req, res) => {
      res.json({
        '@context': 'https://bluebrain.github.io/nexus/contexts/version.json',
        delta: deps.version,
        dependencies: { store: 'oxigraph (embedded)', eventLog: deps.eventLog },
        plugins: {},
        environment: process.env['NODE_ENV'] ?? 'dev',
        store: { quads: await deps.storeSize(), maxQuads: deps.maxStoreQuads },
      });
    },
  });
};
