import type express from 'express';
import type { IncomingMessage } from 'node:http';
import { availableParallelism } from 'node:os';
import type { Config } from './config/Config.js';
import { timedEventLog } from './events/timedEventLog.js';
import type { ConnectionShares } from './http/ConnectionShares.js';
import { createLogger, pinoLog } from './http/logging.js';
import type { DeclaredRoute } from './http/route.js';
import { loadBundledContexts } from './jsonld/bundledContexts.js';
import { JsonLdProcessor } from './jsonld/JsonLdProcessor.js';
import { Addresses } from './kernel/Addresses.js';
import type { Clock } from './kernel/Clock.js';
import { systemClock } from './kernel/Clock.js';
import type { Log } from './kernel/Log.js';
import type { CapabilityModule } from './modules/Capability.js';
import type { Platform } from './modules/Platform.js';
import { capabilities } from './platform/capabilities.js';
import { coreKinds, sharedKinds } from './platform/coreKinds.js';
import { coreServices } from './platform/coreServices.js';
import { cpuOperations, cpuWorkerScript } from './platform/cpuOperations.js';
import type { CpuOperations } from './platform/cpuOperations.js';
import { httpApp } from './platform/httpApp.js';
import { modulePlatform } from './platform/modulePlatform.js';
import { openLog } from './platform/openLog.js';
import { openTripleStore } from './platform/openTripleStore.js';
import { registryMetrics } from './platform/registryMetrics.js';
import { startProjections } from './platform/projections.js';
import { States } from './projection/States.js';
import { stateLookups } from './streams/stateLookups.js';
import { inlineExecutor } from './workers/Executor.js';
import { WorkerPool } from './workers/WorkerPool.js';

export interface Registry {
  app: express.Express;
  /** Where the service reports start-up, recovery and refusals. */
  log: Log;
  /** Ends every open event stream (the first step of a shutdown). */
  endStreams(): void;
  /** The largest body a request may announce (checked before `100 Continue`). */
  bodyLimit(req: IncomingMessage): number;
  /** Whether a request's body is streamed through (file uploads): timed by its pauses, not its length. */
  streamedBody(req: IncomingMessage): boolean;
  /** Every route with what it declares (permission, ACL path, body kind). */
  routes: readonly DeclaredRoute[];
  /** Whether anonymous callers may do everything (the start-up line says so). */
  openToAnonymous(): boolean;
  /** Drains: stops following the log, takes a final snapshot, closes files and connections. */
  close(): Promise<void>;
  /** The open connections and each client's share of them: the HTTP server admits connections, the app counts their callers. */
  connections: ConnectionShares;
}

/** What a tool running a registry without serving it watches (the store migration's progress bar). */
export interface RegistryHooks {
  /** Called before the log is replayed, with how far the external store is projected and where the log ends. */
  storeProgress?: (progress: () => Promise<{ position: number; head: number }>) => void;
  /** Capabilities besides the registered ones (a test's toy capability). */
  capabilities?: readonly CapabilityModule<Platform, unknown>[];
}

/** The composition root: configuration → platform → capabilities → HTTP, in plain code. */
export const createRegistry = async (config: Config, clock: Clock = systemClock, hooks: RegistryHooks = {}): Promise<Registry> => {
  const addresses = new Addresses(config.baseUrl, config.projectPrefix);
  const logger = createLogger(config.logLevel ?? 'info');
  const logs = pinoLog(logger);
  const metrics = registryMetrics(config, () => ({ log, store, executor, projections })); // read at each scrape

  // The platform: the log, the triple store, the CPU workers, JSON-LD.
  const opened = await openLog(config, logs);
  const log = timedEventLog(opened.log, (seconds) => metrics.appends.observe(seconds));
  const store = openTripleStore(config, (line) => logs.warn(line));
  // JSON-LD and SHACL run in worker threads with a time budget: no request holds the event loop.
  const executor =
    config.workers === 0
      ? inlineExecutor(cpuOperations())
      : new WorkerPool<CpuOperations>(cpuWorkerScript, config.workers ?? availableParallelism(), config.workBudgetMillis ?? 10_000, (line) => logs.warn(line));
  // The embedded store judges storability with refusedLine, which a write's worker runs for it.
  const jsonld = new JsonLdProcessor(loadBundledContexts(), executor, store.name === 'embedded');

  // Every kind is registered once, the core's and each capability's; the projector, snapshots and event streams loop over them.
  const kinds = coreKinds(addresses);
  const modules = capabilities(config, hooks.capabilities);
  const shared = sharedKinds(opened.redis !== undefined, store.recorded !== undefined);
  const states = new States([...kinds.definitions, ...modules.all.flatMap((m) => m.kinds)], shared);
  const projections = await startProjections({
    config,
    log,
    redis: opened.redis,
    logs,
    store,
    jsonld,
    states,
    addresses,
    lookups: (items) => stateLookups(states.of(kinds.projects), items, addresses),
    documents: { ...kinds.documents, states: Object.assign({}, kinds.documents.states, ...modules.all.map((m) => m.documents?.(addresses))) },
    extra: modules.all.flatMap((m) => m.projections.map((projection) => ({ name: m.name, projection }))),
    storeWriters: modules.all.flatMap(({ storeWriter }) => (storeWriter ? [storeWriter] : [])),
    ...(hooks.storeProgress ? { storeProgress: hooks.storeProgress } : {}),
  });
  const counts = kinds.definitions.map((d) => (states.holds(d) ? `${states.of(d).size} ${d.kind}` : `${d.kind} (shared)`)).join(', ');
  logs.info(`restored ${counts} up to event ${projections.projector.position}`, {
    restoredMillis: projections.restoredMillis,
    position: projections.projector.position,
  });

  // The core's services, then the capabilities wired on them.
  const permissions = () => modules.iam.permissions(states);
  const core = await coreServices({
    config,
    clock,
    addresses,
    logs,
    log,
    states,
    store,
    jsonld,
    executor,
    projections,
    kinds,
    resolution: () => resolvers.services.resolution,
    permissions,
    capabilities: () => wired,
  });
  const access = modules.iam.wire({ states, lifecycle: core.lifecycle, clock, addresses, projects: () => core.kinds.projects.keys() }).services;
  const base = modulePlatform({
    core,
    projections,
    store,
    states,
    acl: access.check,
    permissions,
    clock,
    addresses,
    logs,
    log,
    jsonld,
    redis: opened.redis,
  });
  // Files first: they hand the modules that read files their ports. Then resolvers: the core's schema resolution consults them.
  const files = modules.files.wire({ ...base, executor });
  const platform = { ...base, ...files.services };
  const resolvers = modules.resolvers.wire(platform);
  const wired = [files, resolvers, ...modules.others.map((m) => m.wire(platform))];
  for (const m of wired) await m.ready?.();

  // HTTP: the core's routes and each capability's, behind the middleware every request passes.
  const { app, routes, connections } = httpApp({
    config,
    logger,
    logs,
    metrics,
    addresses,
    log,
    logName: opened.name,
    redis: opened.redis,
    store,
    jsonld,
    kinds,
    projections,
    core,
    access,
    capabilities: wired,
    streamKinds: [...kinds.streams, ...modules.all.flatMap((m) => m.streams)],
    statuses: Object.assign({}, ...modules.all.map((m) => m.statuses)) as Record<string, number>,
  });

  const streamed = (req: IncomingMessage) => modules.all.some((m) => m.streamedBody?.(req) === true);
  const registry: Registry = {
    app,
    routes,
    log: logs,
    endStreams: () => projections.streams.closeAll(),
    connections,
    openToAnonymous: access.openToAnonymous,
    // Streamed bodies (a capability's: file uploads, bulk imports) are bounded by their own limits while streaming.
    bodyLimit: (req) => (streamed(req) ? Number.MAX_SAFE_INTEGER : config.maxPayloadBytes),
    streamedBody: streamed,
    close: async () => {
      await projections.stop();
      // Modules first: the views drop their graphs from the SPARQL store before it closes.
      for (const m of wired) await m.close?.();
      await log.close();
      projections.projector.snapshot();
      await store.graphStore.close();
      projections.textIndex?.close();
      await executor.close();
      await store.datasets.close();
    },
  };
  // Before the service listens: a deployment that provisions never serves its fresh, open root ACL.
  if (config.provisioning)
    await modules.iam.provision(config.provisioning, access, logs).catch(async (error: unknown) => {
      await registry.close();
      throw error;
    });
  return registry;
};
