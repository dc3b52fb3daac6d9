import type { Router } from 'express';
import { rejections } from '../../domain/rejections.js';
import type { Metrics } from '../metrics.js';
import { onRoot } from '../route.js';
import type { Guard, Routes } from '../route.js';
import { NOTHING } from '../reads.js';

export type MetricsAccess = 'off' | 'open' | 'permission';

interface Deps {
  /** Whether recovery finished and the event log answers. */
  ready(): Promise<boolean>;
  metrics: Metrics;
  metricsAccess: MetricsAccess;
}

/** Liveness and readiness for load balancers and the container healthcheck, and the Prometheus metrics. */
export const operationsRoutes = (routes: Routes, router: Router, deps: Deps): void => {
  routes.add(router, '/health/live', {
    get: { guard: { public: true }, reads: NOTHING, body: 'none', handle: (_req, res) => void res.json({ status: 'up' }) },
  });
  routes.add(router, '/health/ready', {
    get: {
      guard: { public: true },
      reads: NOTHING,
      body: 'none',
      handle: async (_req, res) => {
        if (!(await deps.ready())) throw rejections.eventLogUnavailable();
        res.json({ status: 'ready' });
      },
    },
  });
  if (deps.metricsAccess === 'off') return;
  const guard: Guard = deps.metricsAccess === 'open' ? { public: true } : { permission: 'supervision/read', on: onRoot };
  routes.add(router, '/metrics', {
    get: {
      guard,
      reads: NOTHING,
      body: 'none',
      handle: async (_req, res) => {
        res.type(deps.metrics.registry.contentType).send(await deps.metrics.registry.metrics());
      },
    },
  });
};
