import express from 'express';
import type { IncomingMessage } from 'node:http';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { assetPath } from './assets.js';
import type { Config } from './config/Config.js';
import { defaultStreamsPerCaller, FEED_MAX_CHANGES, httpLimits } from './config/Config.js';
import { ConnectionShares } from './http/ConnectionShares.js';
import { claimConnection } from './http/claimConnection.js';
import { Addresses } from './kernel/Addresses.js';
import { MultiFetch } from './domain/resources/MultiFetch.js';
import { multiFetchRoutes } from './http/routes/multiFetch.js';
import { annotatedSource, resourceBody, resourceMetadata } from './http/render/resources.js';
import { annotatedSchema, schemaBody, schemaMetadata } from './http/render/schemas.js';
import { corsHeaders } from './http/corsHeaders.js';
import { compressedAnswers } from './http/compressedAnswers.js';
import { Metrics } from './http/metrics.js';
import { operationsRoutes } from './http/routes/operations.js';
import { timedEventLog } from './events/timedEventLog.js';
import type { Log } from './kernel/Log.js';
import { createLogger, pinoLog, requestLogging } from './http/logging.js';
import { resourceKey, schemaKey } from './kernel/logKeys.js';
import { DEFAULT_STORAGE } from './kernel/vocabulary.js';
import { storableRevision } from './projection/storableRevision.js';
import { availableParallelism } from 'node:os';
import { inlineExecutor } from './workers/Executor.js';
import { WorkerPool } from './workers/WorkerPool.js';
import { CpuTurns } from './workers/CpuTurns.js';
import { CallerConcurrency } from './http/CallerConcurrency.js';
import { InProcessShares } from './http/CostlyShares.js';
import { RedisCostlyShares } from './http/RedisCostlyShares.js';
import { systemClock } from './kernel/Clock.js';
import type { Clock } from './kernel/Clock.js';
import { EventWriter } from './domain/EventWriter.js';
import type { Indexing } from './domain/EventWriter.js';
import { AsyncLocalStorage } from 'node:async_hooks';
import { ReadBarrier } from './projection/ReadBarrier.js';
import { consistentReads } from './http/consistentReads.js';
import { ChangeFeed } from './projection/ChangeFeed.js';
import { LogReplay } from './projection/LogReplay.js';
import { ProjectionRunner } from './projection/ProjectionRunner.js';
import type { RunnerOptions } from './projection/ProjectionRunner.js';
import { FileProjectionCheckpoints } from './projection/FileProjectionCheckpoints.js';
import { OrgService } from './domain/orgs/OrgService.js';
import { ProjectService } from './domain/projects/ProjectService.js';
import { ResourceService } from './domain/resources/ResourceService.js';
import { ResourceQueries } from './catalogue/ResourceQueries.js';
import { Listings } from './catalogue/Listings.js';
import { listingScopes } from './catalogue/scopes.js';
import { CatalogueQueries } from './catalogue/CatalogueQueries.js';
import { CatalogueIndex } from './catalogue/CatalogueIndex.js';
import { PayloadSortIndexes } from './catalogue/PayloadSortIndexes.js';
import { RevisionReader } from './domain/resources/RevisionReader.js';
import { SCHEMA_KIND } from './domain/schemas/schemaKind.js';
import { SchemaImports } from './shacl/SchemaImports.js';
import { SchemaPayloads } from './shacl/SchemaPayloads.js';
import { ShaclSchemas } from './shacl/ShaclSchemas.js';
import { pinnedRevisionTriples } from './shacl/pinnedRevisionTriples.js';
import { schemaRoutes } from './http/routes/schemas.js';
import type { EventLog } from './events/EventLog.js';
import { JournalEventLog } from './events/JournalEventLog.js';
import { redisTargetOf } from './events/redisTarget.js';
import { RedisEventLog } from './events/RedisEventLog.js';
import { EventStreams } from './events/sse/EventStreams.js';
import { stateLookups } from './events/sse/stateLookups.js';
import { eventRoutes } from './http/routes/events.js';
import { accessControl, accessControlKinds } from './auth/wireAccessControl.js';
import { authenticate } from './http/authenticate.js';
import { bodyReaders } from './http/bodyReader.js';
import { Routes } from './http/route.js';
import { plainQuery } from './http/plainQuery.js';
import type { DeclaredRoute } from './http/route.js';
import { errorMiddleware, notFound } from './http/errorMiddleware.js';
import { orgAndProjectRoutes } from './http/routes/orgsAndProjects.js';
import { resourceRoutes } from './http/routes/resources.js';
import { versionRoutes } from './http/routes/version.js';
import { loadBundledContexts } from './jsonld/bundledContexts.js';
import { JsonLdProcessor } from './jsonld/JsonLdProcessor.js';
import { Projector } from './projection/Projector.js';
import { Snapshots } from './projection/Snapshots.js';
import { States } from './projection/States.js';
import { projectItemKeys } from './projection/projectItemKeys.js';
import { openTripleStore } from './store/openTripleStore.js';
import { itemReader } from './modules/itemReader.js';
import { RevisionProjection } from './projection/RevisionProjection.js';
import { wireStoreWriter } from './wireStoreWriter.js';
import type { Projection } from './projection/Projection.js';
import { CatalogueProjection } from './catalogue/CatalogueProjection.js';
import { Lifecycle } from './domain/Lifecycle.js';
import { orgDefinition } from './domain/orgs/orgDefinition.js';
import { projectDefinition } from './domain/projects/projectDefinition.js';
import { itemDefinition } from './domain/resources/itemDefinition.js';
import { RESOURCE_KIND } from './domain/resources/ItemKind.js';
import { trackerRoutes } from './http/routes/tracker.js';
import { TrackerService } from './tracker/TrackerService.js';
import { trackerParts } from './tracker/trackerParts.js';
import { RedisTokenStore } from './tracker/RedisTokenStore.js';
import { TextIndex } from './search/TextIndex.js';
import { TextProjection } from './search/TextProjection.js';
import { storageBody } from './http/render/storages.js';
import { fileMetadata } from './http/render/files.js';
import type { StorageState } from './domain/storages/Storage.js';
import type { FileState } from './domain/files/File.js';
import type { ResourceState } from './domain/resources/Resource.js';
import type { JsonObject } from './kernel/json.js';
import { inProcessEngine, SearchService } from './search/SearchService.js';
import { EmbeddedTextMatcher } from './search/EmbeddedTextMatcher.js';
import { storeSearch } from './search/store/storeSearch.js';
import { SearchedDocuments } from './search/SearchedDocuments.js';
import type { ProjectRef } from './kernel/labels.js';
import { noTextIndex } from './catalogue/textRanking.js';
import { searchRoutes } from './http/routes/search.js';
import { storageDefinition } from './domain/storages/storageDefinition.js';
import { fileDefinition } from './domain/files/fileDefinition.js';
import { storagesAndFiles } from './files/wireFiles.js';
import { PERMISSIONS_KEY } from './kernel/logKeys.js';
import { SparqlReplicaProjection } from './projection/SparqlReplicaProjection.js';
import { SparqlEndpoint } from './sparqlEndpoint/SparqlEndpoint.js';
import { sparqlRoutes } from './http/routes/sparql.js';
import { STREAM_KINDS } from './events/sse/EventScope.js';
import { capabilities } from './modules/capabilities.js';
import { frontendRoutes } from './frontend/frontendRoutes.js';
import { htmlRedirect } from './frontend/htmlRedirect.js';
import type { Platform } from './modules/Platform.js';
import { ResolvingSchemas } from './modules/resolvers/ResolvingSchemas.js';
import { resolveElsewhere } from './modules/resolvers/resolveElsewhere.js';
import { ProjectContexts } from './domain/resources/ProjectContexts.js';

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

const openLog = async (config: Config, logs: Log): Promise<{ log: EventLog; name: string; redis?: RedisEventLog }> => {
  const target = redisTargetOf(config);
  if (target) {
    const redis = await RedisEventLog.open(target, config.redisPrefix ?? 'registry', undefined, logs);
    return { log: redis, name: 'redis', redis };
  }
  return { log: await JournalEventLog.open(join(config.dataDir, 'journal', 'events.log'), logs), name: 'journal' };
};

/** The composition root: configuration → clients → services → routes, in plain code. */
/** What a tool running a registry without serving it watches (the store migration's progress bar). */
export interface RegistryHooks {
  /** Called before the log is replayed, with how far the external store is projected and where the log ends. */
  storeProgress?: (progress: () => Promise<{ position: number; head: number }>) => void;
}

export const createRegistry = async (config: Config, clock: Clock = systemClock, hooks: RegistryHooks = {}): Promise<Registry> => {
  const addresses = new Addresses(config.baseUrl);
  const logger = createLogger(config.logLevel ?? 'info');
  const logs = pinoLog(logger);
  // MAX_STORE_QUADS caps the embedded store only: an external server is sized by its operators.
  const embeddedCap = config.sparqlStore ? undefined : config.maxStoreQuads;
  // Sources are read at each scrape, from the parts built below.
  const metrics = new Metrics({
    logHead: () => log.lastSeq(),
    projected: () => projector.position,
    // Unknown (NaN) while the store's count fails: the other metrics still answer.
    storeQuads: () => storeQuads().catch(() => Number.NaN),
    maxStoreQuads: embeddedCap,
    openStreams: () => streams.openStreams,
    workerQueue: () => (executor instanceof WorkerPool ? executor.queued : 0),
    heldChanges: () => feed.length,
    quarantined: () => projector.quarantined,
    projections: () => metricsProjections(),
  });
  const opened = await openLog(config, logs);
  const log = timedEventLog(opened.log, (seconds) => metrics.appends.observe(seconds));
  const logName = opened.name;
  const {
    graphStore,
    datasets: sparqlDatasets,
    name: storeName,
    recorded: storeRecorded,
    quads: storeQuads,
  } = openTripleStore(config, (line) => logs.warn(line));
  const catalogueIndex = new CatalogueIndex();
  const payloadSorts = new PayloadSortIndexes(graphStore, catalogueIndex);
  // JSON-LD and SHACL run in worker threads with a time budget: no request holds the event loop.
  const executor =
    config.workers === 0
      ? inlineExecutor()
      : new WorkerPool(config.workers ?? availableParallelism(), config.workBudgetMillis ?? 10_000, (line) => logs.warn(line));
  // The embedded store judges storability with refusedLine, which a write's worker runs for it.
  const jsonld = new JsonLdProcessor(loadBundledContexts(), executor, storeName === 'embedded');
  // Every kind is registered here once; the projector, snapshots and event streams loop over them.
  const modules = capabilities(config);
  const resourceKind = itemDefinition(RESOURCE_KIND);
  const schemaKind = itemDefinition(SCHEMA_KIND);
  const accessSettings = { bootstrapIdentity: config.bootstrapIdentity ?? 'anonymous', providerTimeoutMillis: config.providerTimeoutMillis ?? 5_000 };
  const iam = accessControlKinds(accessSettings);
  const states = new States([
    orgDefinition,
    projectDefinition,
    resourceKind,
    schemaKind,
    iam.realms,
    iam.acls,
    iam.permissions,
    storageDefinition,
    fileDefinition,
    ...modules.all.flatMap((m) => m.kinds),
  ]);
  const kinds = { orgs: states.of(orgDefinition), projects: states.of(projectDefinition), resources: states.of(resourceKind), schemas: states.of(schemaKind) };
  // A store shared by every replica is written by one of them, the lease holder (below): the fold only derives.
  const revisions = new RevisionProjection(graphStore, jsonld, storeRecorded === undefined);
  const catalogueProjection = new CatalogueProjection(graphStore, catalogueIndex, payloadSorts, states.terms, addresses.subjects, storeRecorded === undefined);
  const streams = new EventStreams(log, states, stateLookups(kinds.projects, kinds.resources, addresses), (seq) => projector.catchUp(seq), {
    keepAliveMillis: config.sseKeepAliveMillis ?? 20_000,
    perCaller: config.sseStreamsPerCaller ?? defaultStreamsPerCaller(httpLimits(config).maxConnectionsPerClient),
    log: logs,
  });
  // Pruned events must not outlive a permanent deletion in the streams' memory.
  const forgetPruned: Projection = { apply: async (change) => void (change.next === undefined && streams.forget()) };
  // Full text (listings' `q`, the search API): with the external store it runs there, on what its
  // projections write into it, and nothing of it is kept here; embedded, in its own file, indexed
  // again from the log when missing.
  const textPath = join(config.dataDir, 'projection', 'text.sqlite');
  const textFresh = !existsSync(textPath);
  const payloadDocuments = {
    resources: (state: ResourceState, payload: JsonObject) => resourceBody(state, payload, addresses),
    schemas: (state: ResourceState, payload: JsonObject) => schemaBody(state, payload, addresses),
  };
  const stateDocuments = {
    storages: { document: (state: StorageState) => storageBody(state, addresses) },
    files: { document: (state: FileState) => fileMetadata(state, addresses), searchedMetadata: ['_filename', '_mediaType'] },
  };
  const searchOnStore =
    config.textIndex !== false && config.sparqlStore
      ? storeSearch(config.sparqlStore, payloadDocuments.resources, log, config.searchTimeoutMillis ?? 2_000, {
          payloadKinds: Object.keys(payloadDocuments),
          stateDocuments,
        })
      : undefined;
  const textIndex = config.textIndex === false || searchOnStore ? undefined : TextIndex.open(textPath);
  const textProjections: Projection[] = textIndex ? [new TextProjection(textIndex, payloadDocuments, log, logs, stateDocuments)] : [];
  // Each projection runs on its own position from the changes the states' fold hands on: one that
  // is slow or failing holds up neither writes nor the others, and reads wait only for those they read.
  // A window of the latest changes: a runner behind it reads its changes again from the log.
  const feed = new ChangeFeed(config.feedMaxChanges ?? FEED_MAX_CHANGES, new LogReplay(log, states, revisions));
  // Durable projections record their positions (the text index in the data directory, beside its
  // file); the catalogue's indexes, the streams' memory and the embedded SPARQL replica live in
  // memory and are rebuilt from the states at every start.
  const checkpoints = new FileProjectionCheckpoints(join(config.dataDir, 'projection', 'checkpoints.json'));
  const runnerOptions = { maxAttempts: 5, backoffMillis: 100, log: logs };
  const resumable: { runner: ProjectionRunner; projection: Projection }[] = [];
  const runner = (name: string, projection: Projection, durable?: Pick<RunnerOptions, 'checkpoints' | 'flush' | 'fresh'>) => {
    const made = new ProjectionRunner(name, (change) => projection.apply(change), feed, { ...runnerOptions, ...durable });
    resumable.push({ runner: made, projection });
    return made;
  };
  const catalogueRunner = runner('catalogue', catalogueProjection);
  const textRunners = [...textProjections.map((projection) => runner('text', projection, { checkpoints, fresh: textFresh, flush: () => textIndex?.commit() }))];
  const moduleRunners = modules.all.flatMap((m) => m.projections.map((projection) => runner(m.name, projection)));
  // The embedded SPARQL replica is this process's own, in memory; the external store is shared:
  // exactly one replica writes its revision graphs and datasets, from the position recorded in it.
  const sparqlReplica = new SparqlReplicaProjection(sparqlDatasets);
  const storeWriter = wireStoreWriter({
    leaseMillis: config.storeLeaseMillis ?? 10_000,
    redis: opened.redis,
    recorded: storeRecorded,
    graphStore,
    datasets: sparqlDatasets,
    jsonld,
    catalogue: catalogueProjection,
    searchOnStore,
    states,
    addresses,
    feed,
    log: logs,
  });
  const storeRunner = storeWriter?.runner;
  const viewGraphs = storeWriter?.viewGraphs;
  const sparqlRunner = storeRunner ?? runner('sparql', sparqlReplica);
  // Every replica tells how far each project's search is on the store (`search/offset`) once the
  // store's position covers a change: it follows the store, so writes never wait for it.
  const searchOffsets =
    searchOnStore &&
    storeRunner &&
    runner('searchOffsets', {
      apply: async (change) => {
        await storeRunner.reach(change.logged.seq);
        searchOnStore.textProjection.note(change);
      },
    });
  const runners = [
    catalogueRunner,
    ...textRunners,
    runner('streams', forgetPruned),
    ...(storeRunner ? [] : [sparqlRunner as ProjectionRunner]),
    ...moduleRunners,
  ];
  const projector = new Projector(log, states, revisions, feed, new Snapshots(join(config.dataDir, 'projection', 'snapshot.json'), logs), graphStore, {
    snapshotEvents: config.snapshotEvents,
    snapshotMillis: config.snapshotMillis,
    log: logs,
    restored: async (position, logEnd, restoredStates) => {
      feed.clear(position);
      for (const { runner: r, projection } of resumable) await r.resume(position, logEnd, async () => projection.restore?.(restoredStates));
      await storeRunner?.start(position);
      if (storeRunner) hooks.storeProgress?.(async () => ({ position: storeRunner.position, head: await log.lastSeq() }));
    },
  });
  const restored = await projector.restore();
  logs.info(`restored ${kinds.resources.size} resources, ${kinds.schemas.size} schemas up to event ${projector.position}`, {
    restoredMillis: restored,
    position: projector.position,
  });
  const following = projector.follow();
  const metricsProjections = () => [
    { name: 'states', position: projector.position, failures: 0, quarantined: projector.quarantined },
    ...runners.map((r) => r.status()),
    ...(searchOffsets ? [searchOffsets.status()] : []),
    ...(storeRunner ? [storeRunner.status()] : []),
  ];

  // Replicas answer as one: every request waits until what it reads from reached the log head as of its arrival.
  const barrier = new ReadBarrier(() => log.lastSeq(), { waitMillis: config.readBarrierMillis ?? 5_000 });
  const requestIndexing = new AsyncLocalStorage<Indexing>();
  const writer = new EventWriter(log, {
    states: (seq) => projector.catchUp(seq),
    projections: async (seq) => void (await Promise.all(runners.map((r) => r.settle(seq)))),
    latest: async () => projector.catchUp(await log.lastSeq()),
    indexing: () => requestIndexing.getStore() ?? 'sync',
  });
  const lifecycle = new Lifecycle(writer, (draft) => {
    const definition = states.definitionOf(draft.kind);
    return definition && states.of(definition).get(definition.stateKey({ ...draft, seq: 0 }));
  });
  const access = accessControl(iam, states, { lifecycle, clock, addresses, projects: () => kinds.projects.keys(), settings: accessSettings });
  const orgs = new OrgService(kinds.orgs, lifecycle, clock);
  const capacity = () => graphStore.ensureRoom();
  // The default storage of a new project is created by the storages, wired below.
  const projects = new ProjectService(
    kinds.projects,
    orgs,
    lifecycle,
    clock,
    addresses,
    async (ref, caller) => {
      await storagesFiles.projectCreated(ref, caller);
      for (const m of wired) await m.projectCreated?.(ref, caller);
    },
    {
      keys: (ref) => projectItemKeys(states, ref),
      bytes: (ref) => storagesFiles.projectBytes(ref),
      prune: (key, seq) => writer.prune(key, seq),
      forget: async (ref) => {
        for (const m of wired) await m.projectDeleted?.(ref);
      },
    },
  );
  const reader = new RevisionReader(log);
  // Schemas and their imports are read back from the pinned revisions in the log.
  const revisionTriples = pinnedRevisionTriples(kinds, reader, jsonld);
  // Schemas, imports and contexts of other projects are found through the project's resolvers (wired with the modules below).
  const elsewhere = resolveElsewhere(() => resolvers.services.resolution);
  const imports = new SchemaImports(kinds.schemas, kinds.resources, revisionTriples, elsewhere);
  const contexts = new ProjectContexts(kinds.resources, reader, elsewhere);
  const shacl = new ResolvingSchemas(new ShaclSchemas(kinds.schemas, reader, revisionTriples, imports, executor), () => resolvers.services.resolution);
  const storable = storableRevision(jsonld, graphStore);
  // An id is unique in a project across kinds; the default storage's id is reserved.
  const taken = (others: ReadonlyMap<string, unknown>, key: (ref: string, id: string) => string) => (ref: string, id: string) =>
    id === DEFAULT_STORAGE || others.has(key(ref, id));
  const resources = new ResourceService(
    kinds.resources,
    projects,
    shacl,
    jsonld,
    lifecycle,
    writer,
    reader,
    clock,
    capacity,
    { storable, takenElsewhere: taken(kinds.schemas, schemaKey) },
    resourceKind,
    RESOURCE_KIND,
    contexts,
  );
  const schemas = new ResourceService(
    kinds.schemas,
    projects,
    new SchemaPayloads(imports, jsonld, executor),
    jsonld,
    lifecycle,
    writer,
    reader,
    clock,
    capacity,
    { storable, takenElsewhere: taken(kinds.resources, resourceKey) },
    schemaKind,
    SCHEMA_KIND,
    contexts,
  );

  const catalogue = new CatalogueQueries(graphStore, catalogueIndex, payloadSorts);
  const textMatcher = textIndex ? new EmbeddedTextMatcher(textIndex, catalogue) : (searchOnStore?.matcher ?? noTextIndex);
  const listings = new Listings(catalogue, listingScopes(orgs, projects, addresses, states.terms), textMatcher);
  const queries = new ResourceQueries(kinds.resources, listings, catalogue, resources);
  const schemaQueries = new ResourceQueries(kinds.schemas, listings, catalogue, schemas, SCHEMA_KIND);
  const storagesFiles = storagesAndFiles({
    config: config.storages,
    dataDir: config.dataDir,
    storageStates: states.of(storageDefinition),
    fileStates: states.of(fileDefinition),
    projects,
    lifecycle,
    clock,
    jsonld,
    executor,
    addresses,
    listings,
    catalogue,
    permissions: () => (states.of(iam.permissions).get(PERMISSIONS_KEY) ?? iam.initial).permissions,
    log: logs,
    partMaxAgeMillis: httpLimits(config).requestTimeoutMillis,
  });
  await storagesFiles.sweepLeftovers();
  // One set of turns for every search, the views' included: they take their slices in turn.
  const searchTurns = new CpuTurns();
  const searchTimeout = config.searchTimeoutMillis ?? 2_000;
  const searchEngine = searchOnStore?.engine ?? (textIndex && inProcessEngine(new SearchedDocuments(textIndex), searchTimeout));
  const searchPosition = (project: ProjectRef) => (searchOnStore ? searchOnStore.textProjection.positionOf(project) : textIndex?.positionOf(project));
  const search =
    searchEngine &&
    new SearchService(searchEngine, searchPosition, () => kinds.projects.keys(), {
      suites: config.searchSuites ?? {},
      timeoutMillis: searchTimeout,
      turns: searchTurns,
      fetched: async (project, id) => {
        const { state, compacted } = await resources.fetchCompacted(project, '_', id, {});
        return resourceBody(state, compacted, addresses);
      },
      ...(config.searchFields !== undefined ? { fieldsFile: config.searchFields } : {}),
    });
  const defaultViewDocuments = textIndex && new SearchedDocuments(textIndex);
  const projectDocuments = searchOnStore
    ? (project: ProjectRef) => searchOnStore.engine.documents(project)
    : defaultViewDocuments && (async (project: ProjectRef) => defaultViewDocuments.of([project]).docs);
  const platform: Platform = {
    turns: searchTurns,
    feed,
    sparql: { store: sparqlDatasets, reach: (seq) => (storeRunner ? storeRunner.reach(seq) : Promise.resolve()), shared: viewGraphs !== undefined },
    permissions: () => (states.of(iam.permissions).get(PERMISSIONS_KEY) ?? iam.initial).permissions,
    ...(search && projectDocuments
      ? {
          defaultSearch: {
            query: (project: ProjectRef, body: unknown) => search.query(body, { mode: 'limited', orgs: [], projects: [project] }),
            documents: projectDocuments,
          },
        }
      : {}),
    states,
    projects,
    lifecycle,
    clock,
    addresses,
    acl: access.check,
    listings,
    catalogue,
    storages: storagesFiles.storages,
    files: storagesFiles.files,
    log: logs,
    ...(opened.redis ? { redis: opened.redis } : {}),
    items: itemReader({ resourceStates: kinds.resources, schemaStates: kinds.schemas, resources, schemas, addresses }),
  };
  // Resolvers first: the core's schema resolution consults them.
  const resolvers = modules.resolvers.wire(platform);
  const wired = [resolvers, ...modules.others.map((m) => m.wire(platform))];

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
  const costlyShares = opened.redis
    ? new RedisCostlyShares(opened.redis.connection, opened.redis.keyOf('costly'), perCaller, logs)
    : new InProcessShares(perCaller);
  const routes = new Routes(access.check, bodyReaders({ json: config.maxPayloadBytes }), new CallerConcurrency(costlyShares));
  const version = (JSON.parse(readFileSync(assetPath('package.json'), 'utf8')) as { version: string }).version;
  versionRoutes(routes, router, {
    version,
    storeSize: () => storeQuads().catch(() => Number.NaN),
    store: config.sparqlStore ? 'sparql 1.1 (external)' : 'oxigraph (embedded)',
    maxStoreQuads: embeddedCap,
    eventLog: logName,
    quarantined: () => projector.quarantined,
    routes: () => routes.routes(),
    base: addresses.base,
  });
  access.routes(routes, router);
  operationsRoutes(routes, router, {
    metrics,
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
  orgAndProjectRoutes(routes, router, {
    orgs,
    projects,
    addresses,
    scoped: [kinds.resources, kinds.schemas, states.of(storageDefinition), states.of(fileDefinition)],
  });
  // Before the resource routes: `/v1/resources/{org}/events` must not read as a project named `events`.
  eventRoutes(routes, router, {
    streams,
    orgExists: (label) => kinds.orgs.has(label),
    projectExists: (ref) => kinds.projects.has(ref),
    streamKinds: [...STREAM_KINDS, ...modules.all.flatMap((m) => m.streams)],
  });
  resourceRoutes(routes, router, { resources, queries, jsonld, addresses });
  schemaRoutes(routes, router, { schemas, queries: schemaQueries, jsonld, addresses });
  if (search)
    searchRoutes(routes, router, {
      search,
      checkProject: (ref) => void projects.fetch(ref),
      projections: async () => ({ head: await log.lastSeq(), runners: metricsProjections() }),
    });
  storagesFiles.routes(routes, router);
  multiFetchRoutes(routes, router, {
    multiFetch: new MultiFetch(
      [
        { kind: 'resources', service: resources },
        { kind: 'schemas', service: schemas },
      ],
      storagesFiles.viewed,
    ),
    renderers: {
      resources: { metadata: resourceMetadata, body: resourceBody, annotated: annotatedSource },
      schemas: { metadata: schemaMetadata, body: schemaBody, annotated: annotatedSchema },
    },
    jsonld,
    addresses,
    maxEntries: config.multiFetchMax ?? 1_000,
    turns: searchTurns,
  });
  for (const m of wired) m.routes(routes, router);
  // Replicas share the users' tracker tokens through Redis.
  const sharedTokens = opened.redis && ((key: Buffer) => new RedisTokenStore(opened.redis!.connection, opened.redis!.keyOf('tracker-tokens'), key, logs));
  trackerRoutes(routes, router, { tracker: new TrackerService(trackerParts(config.tracker, config.dataDir, logs, sharedTokens)) });
  sparqlRoutes(routes, router, { endpoint: new SparqlEndpoint(projects, sparqlDatasets, wired.find((m) => m.sparqlViews)?.sparqlViews) });
  const realmStates = states.of(iam.realms);
  frontendRoutes(routes, router, {
    base: addresses.base,
    frontend: config.frontend,
    openIdConfig: (label) => {
      const realm = realmStates.get(label);
      return realm && !realm.deprecated ? realm.openIdConfig : undefined;
    },
  });
  app.use(requestLogging(logger));
  if ((config.metrics ?? 'permission') !== 'off') app.use(metrics.middleware());
  app.use(corsHeaders(config.corsOrigins));
  app.use(compressedAnswers());
  app.use(plainQuery);
  // What the request's route declared to read, then the wait for it.
  app.use(
    routes.readsLookup(),
    consistentReads(barrier, {
      states: projector,
      catalogue: catalogueRunner,
      text: textRunners,
      sparql: sparqlRunner,
      ...(storeRunner ? { store: storeRunner } : {}),
    }),
  );
  // `indexing=async`: the write is acknowledged once its state is readable; the projections follow.
  app.use((req, _res, next) => (req.query['indexing'] === 'async' ? requestIndexing.run('async', next) : next()));
  app.use(authenticate(access.authenticator));
  app.use(claimConnection(connections));
  app.use(htmlRedirect(config.frontend, addresses.base));
  app.use(router);
  app.use(notFound);
  app.use(errorMiddleware(logs, Object.assign({}, ...modules.all.map((m) => m.statuses)) as Record<string, number>));

  return {
    app,
    routes: routes.routes(),
    log: logs,
    endStreams: () => streams.closeAll(),
    connections,
    openToAnonymous: access.openToAnonymous,
    // File uploads are streamed, their size checked against their storage's limits as they arrive.
    // File uploads are bounded by their storage's maxFileSize and capacity, checked while streaming.
    bodyLimit: (req) => (isUpload(req) ? Number.MAX_SAFE_INTEGER : config.maxPayloadBytes),
    streamedBody: isUpload,
    close: async () => {
      streams.closeAll();
      projector.close();
      await following;
      // The final snapshot needs no runner (they restart from the states), but let them finish what they hold.
      await Promise.race([Promise.all(runners.map((r) => r.settle(projector.position))), new Promise((r) => setTimeout(r, 2_000))]);
      await Promise.all(runners.map((r) => r.recordNow()));
      for (const r of runners) r.stop();
      searchOffsets?.stop();
      await viewGraphs?.stop();
      await storeRunner?.stop();
      // Modules first: the views drop their graphs from the SPARQL store before it closes.
      for (const m of wired) await m.close?.();
      await log.close();
      projector.snapshot();
      await graphStore.close();
      textIndex?.close();
      await executor.close();
      await sparqlDatasets.close();
    },
  };
};

/** A file upload: `POST` or `PUT` of a multipart body under `/v1/files/`. */
const isUpload = (req: IncomingMessage): boolean =>
  (req.method === 'POST' || req.method === 'PUT') &&
  (req.url?.startsWith('/v1/files/') ?? false) &&
  (req.headers['content-type'] ?? '').toLowerCase().startsWith('multipart/form-data');
