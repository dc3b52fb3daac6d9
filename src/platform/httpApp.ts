import express from 'express';
import type { Logger } from 'pino';
import { readFileSync } from 'node:fs';
import type { Config } from '../config/Config.js';
import { MultiFetch } from '../domain/resources/MultiFetch.js';
import { itemRefs } from '../domain/projects/itemRefs.js';
import type { EventLog } from '../events/EventLog.js';
import type { RedisEventLog } from '../events/RedisEventLog.js';
import { htmlRedirect } from '../frontend/htmlRedirect.js';
import { frontendRoutes } from '../frontend/frontendRoutes.js';
import { authenticate } from '../http/authenticate.js';
import type { Authenticator } from '../http/authenticate.js';
import { bodyReaders } from '../http/bodyReader.js';
import { CallerConcurrency } from '../http/CallerConcurrency.js';
import { claimConnection } from '../http/claimConnection.js';
import { ConnectionShares } from '../http/ConnectionShares.js';
import { httpLimits } from '../config/Config.js';
import { compressedAnswers } from '../http/compressedAnswers.js';
import { consistentReads } from '../http/consistentReads.js';
import { corsHeaders } from '../http/corsHeaders.js';
import { InProcessShares } from '../http/CostlyShares.js';
import { errorMiddleware, notFound } from '../http/errorMiddleware.js';
import { requestLogging } from '../http/logging.js';
import type { Metrics } from '../http/metrics.js';
import { plainQuery } from '../http/plainQuery.js';
import { RedisCostlyShares } from '../http/RedisCostlyShares.js';
import { Routes } from '../http/route.js';
import { eventRoutes } from '../http/routes/events.js';
import { multiFetchRoutes } from '../http/routes/multiFetch.js';
import { operationsRoutes } from '../http/routes/operations.js';
import { orgAndProjectRoutes } from '../http/routes/orgsAndProjects.js';
import { resourceRoutes } from '../http/routes/resources.js';
import { schemaRoutes } from '../http/routes/schemas.js';
import { searchRoutes } from '../http/routes/search.js';
import { sparqlRoutes } from '../http/routes/sparql.js';
import { trackerRoutes } from '../http/routes/tracker.js';
import { versionRoutes } from '../http/routes/version.js';
import type { JsonLdProcessor } from '../jsonld/JsonLdProcessor.js';
import type { AclCheck } from '../kernel/AclCheck.js';
import type { Addresses } from '../kernel/Addresses.js';
import type { Log } from '../kernel/Log.js';
import type { WiredCapability } from '../modules/Capability.js';
import { SparqlEndpoint } from '../sparqlEndpoint/SparqlEndpoint.js';
import type { Kind } from '../events/EventLog.js';
import { RedisTokenStore } from '../tracker/RedisTokenStore.js';
import { TrackerService } from '../tracker/TrackerService.js';
import { trackerParts } from '../tracker/trackerParts.js';
import { assetPath } from '../util/assets.js';
import type { CoreKinds } from './coreKinds.js';
import type { CoreServices } from './coreServices.js';
import type { TripleStore } from './openTripleStore.js';
import type { Projections } from './projections.js';
import { projectStatistics } from '../domain/projects/projectStatistics.js';
import { listedPages } from '../projection/ProjectItemStates.js';

export interface HttpParts {
  config: Config;
  logger: Logger;
  logs: Log;
  metrics: Metrics;
  addresses: Addresses;
  log: EventLog;
  logName: string;
  redis: RedisEventLog | undefined;
  store: TripleStore;
  jsonld: JsonLdProcessor;
  kinds: CoreKinds;
  projections: Projections;
  core: CoreServices;
  access: { check: AclCheck; authenticator: Authenticator; openIdConfig(label: string): unknown; routes: WiredCapability<unknown>['routes'] };
  capabilities: readonly WiredCapability<unknown>[];
  /** Kinds with their own `/v1/{kind}/events` streams, the capabilities' included. */
  streamKinds: readonly Kind[];
  /** The HTTP status of each rejection type the capabilities raise. */
  statuses: Record<string, number>;
}

/** The HTTP assembly: the route table (the core's routes, then each capability's) behind the middleware every request passes. */
export const httpApp = ({ config, logs, addresses, log, projections, core, kinds, jsonld, access, ...p }: HttpParts) => {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  // `req.ip` is the client's address: the socket's, or what a configured proxy's X-Forwarded-For names.
  if (config.trustedProxies?.length) app.set('trust proxy', config.trustedProxies);
  const trustProxy = app.get('trust proxy fn') as (address: string, hop: number) => boolean;
  const connections = new ConnectionShares(httpLimits(config), (address) => trustProxy(address, 0));
  const router = express.Router();
  // Replicas on one Redis count a caller's costly requests together: its share is the same whichever replicas they reach.
  const perCaller = config.costlyPerCaller ?? 4;
  const costlyShares = p.redis ? new RedisCostlyShares(p.redis.connection, p.redis.keyOf('costly'), perCaller, logs) : new InProcessShares(perCaller);
  const routes = new Routes(access.check, bodyReaders({ json: config.maxPayloadBytes }), new CallerConcurrency(costlyShares), {
    items: itemRefs(core.projects),
    // `indexing=async`: the write is acknowledged once its state is readable; the projections follow.
    indexing: (mode, write) => (mode === 'async' ? core.requestIndexing.run('async', write) : write()),
  });
  /** A capability documents its own routes: each one it adds declares its OpenAPI summary (the shared table is the core's). */
  const summarised = (add: () => void) => {
    const before = routes.routes().length;
    add();
    const missing = routes
      .routes()
      .slice(before)
      .filter((r) => r.summary === undefined);
    if (missing.length) throw new Error(`a capability declares no summary for ${missing.map((r) => `${r.method.toUpperCase()} ${r.path}`).join(', ')}`);
  };
  const version = (JSON.parse(readFileSync(assetPath('package.json'), 'utf8')) as { version: string }).version;
  versionRoutes(routes, router, {
    version,
    storeSize: () => p.store.quads().catch(() => Number.NaN),
    store: config.sparqlStore ? 'sparql 1.1 (external)' : 'oxigraph (embedded)',
    maxStoreQuads: config.sparqlStore ? undefined : config.maxStoreQuads,
    eventLog: p.logName,
    quarantined: () => projections.projector.quarantined,
    routes: () => routes.routes(),
    base: addresses.base,
  });
  summarised(() => access.routes(routes, router));
  operationsRoutes(routes, router, {
    metrics: p.metrics,
    metricsAccess: config.metrics ?? 'permission',
    ready: async () => {
      try {
        await log.lastSeq();
        return true;
      } catch {
        return false;
      }
    },
  });
  // A project's statistics count its resources, schemas and the capabilities' items (storages, files), as Delta counts them.
  const counted = new Set(['resources', 'schemas', ...p.capabilities.flatMap((m) => m.counted ?? [])]);
  orgAndProjectRoutes(routes, router, {
    orgs: core.orgs,
    projects: core.projects,
    addresses,
    statistics: (ref) => projectStatistics(listedPages(projections.projectItems.of(ref, counted))),
  });
  // Before the resource routes: `/v1/resources/{org}/events` must not read as a project named `events`.
  eventRoutes(routes, router, {
    streams: projections.streams,
    orgExists: (label) => core.kinds.orgs.has(label),
    projectExists: (ref) => core.kinds.projects.has(ref),
    streamKinds: [...p.streamKinds],
  });
  resourceRoutes(routes, router, { resources: core.resources, queries: core.queries, jsonld, addresses });
  schemaRoutes(routes, router, { schemas: core.schemas, queries: core.schemaQueries, jsonld, addresses });
  if (core.search)
    searchRoutes(routes, router, {
      search: core.search,
      checkProject: (ref) => void core.projects.fetch(ref),
      projections: async () => ({ head: await log.lastSeq(), runners: projections.statuses() }),
    });
  const { resources, schemas } = kinds;
  multiFetchRoutes(routes, router, {
    multiFetch: new MultiFetch(
      [
        { kind: resources.kind.name, service: core.resources },
        { kind: schemas.kind.name, service: core.schemas },
      ],
      p.capabilities.flatMap((m) => m.viewed ?? []),
      itemRefs(core.projects),
    ),
    renderers: { [resources.kind.name]: resources.renderers, [schemas.kind.name]: schemas.renderers },
    jsonld,
    addresses,
    maxEntries: config.multiFetchMax ?? 1_000,
    turns: core.turns,
  });
  for (const m of p.capabilities) summarised(() => m.routes(routes, router));
  // Replicas share the users' tracker tokens through Redis.
  const redis = p.redis;
  const sharedTokens = redis && ((key: Buffer) => new RedisTokenStore(redis.connection, redis.keyOf('tracker-tokens'), key, logs));
  trackerRoutes(routes, router, { tracker: new TrackerService(trackerParts(config.tracker, config.dataDir, logs, sharedTokens)) });
  sparqlRoutes(routes, router, {
    endpoint: new SparqlEndpoint(
      core.projects,
      p.store.datasets,
      p.capabilities.find((m) => m.sparqlViews)?.sparqlViews,
      p.capabilities.find((m) => m.asOfGraphs)?.asOfGraphs,
    ),
  });
  frontendRoutes(routes, router, { base: addresses.base, frontend: config.frontend, openIdConfig: access.openIdConfig as never });
  app.use(requestLogging(p.logger));
  if ((config.metrics ?? 'permission') !== 'off') app.use(p.metrics.middleware());
  app.use(corsHeaders(config.corsOrigins));
  app.use(compressedAnswers());
  app.use(plainQuery);
  // What the request's route declared to read, then the wait for it.
  app.use(routes.readsLookup(), consistentReads(projections.barrier, projections.followers));
  app.use(authenticate(access.authenticator));
  app.use(claimConnection(connections));
  app.use(htmlRedirect(config.frontend, addresses.base));
  app.use(router);
  app.use(notFound);
  app.use(errorMiddleware(logs, p.statuses));
  return { app, routes: routes.routes(), connections };
};
