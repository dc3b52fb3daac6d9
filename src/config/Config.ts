import { resolve } from 'node:path';
import { availableParallelism } from 'node:os';
import { ConfigError } from '../kernel/ConfigError.js';
import { trackerConfig } from './trackerConfig.js';
import type { TrackerOptions } from '../tracker/TrackerOptions.js';
import type { StorageOptions } from '../modules/storageOptions.js';
import { storageConfig } from './storageConfig.js';
import {
  booleanSetting,
  bootstrapIdentitySetting,
  fileSettings,
  frontendSetting,
  integerSetting,
  logLevelSetting,
  metricsSetting,
  onOffSetting,
  optionalObject,
  optionalSetting,
  redisPrefixSetting,
  sentinelsSetting,
  suitesSetting,
  trustedProxiesSetting,
} from './settings.js';
import { sparqlStoreConfig } from './sparqlStoreConfig.js';
import { projectPrefixConfig } from './projectPrefixConfig.js';
import { provisioningConfig } from './provisioningConfig.js';
import type { ProvisioningConfig } from './provisioningConfig.js';
import type { ProjectPrefixConfig } from './projectPrefixConfig.js';
import type { SparqlServer } from '../store/SparqlHttpClient.js';
import type { HttpLimits } from '../http/serve.js';
import type { FrontendOptions } from '../frontend/frontendOptions.js';

/**
 * The change feed's window when not configured: a change holds two states and its revision's
 * triples, ~13 KB of heap for a ~1.5 KB resource (400,000 held took ~5 GiB), so some 65 MB.
 */
export const FEED_MAX_CHANGES = 5_000;
/** Most item states a replica on Redis holds in memory, by default (Nexus Delta keeps 5,000 elements a node). */
export const STATES_CACHE = 5_000;
/** Stream nodes of 64 KB: ~3 % over the events' JSON, against ~20 % at Redis' default 4 KB. */
export const REDIS_STREAM_NODE_BYTES = 65_536;

export interface Config {
  port: number;
  /** Interface to listen on (default 127.0.0.1: a fresh clone is not reachable from the network). */
  host?: string;
  /** Limits of the HTTP server (defaults in `httpLimits`). */
  http?: Partial<HttpLimits>;
  baseUrl: string;
  dataDir: string;
  redisUrl?: string;
  /** Prefix of every Redis key of the event log (default `registry`): registries sharing one Redis keep apart. */
  redisPrefix?: string;
  /** Redis Sentinel: the sentinels to ask for the current primary of `redisSentinelName` (then `redisUrl`, if any, gives only credentials and database). */
  redisSentinels?: { host: string; port: number }[];
  redisSentinelName?: string;
  /** After each append, wait for this many Redis replicas to acknowledge it (`WAIT`) before the write is acknowledged (0: do not wait). */
  redisWaitReplicas?: number;
  /** Bound of that wait, in ms: past it the write is refused as unconfirmed (503), though it may survive. */
  redisWaitMillis?: number;
  /**
   * Most changes the change feed holds for the projections (its window); a projection further
   * behind (the store's writer under load) reads its changes again from the log.
   */
  feedMaxChanges?: number;
  /** Most item states a replica on Redis holds in memory (the cache in front of the states Redis keeps). */
  statesCache?: number;
  /**
   * `stream-node-max-bytes` the registry sets on the log's Redis at start when it is lower (0: leave
   * it): Redis' default 4 KB nodes hold two or three events of ~1.5 KB each, a quarter more bytes.
   */
  redisStreamNodeBytes?: number;
  /** Longest wait of a request for this replica to reach the log head as of its arrival (503 ProjectionsBehind past it). */
  readBarrierMillis?: number;
  /** How long the external store's writer lease lasts unrenewed: a replica that dies is taken over after it. */
  storeLeaseMillis?: number;
  /** Interval of the keep-alive comment on event streams, in ms (default 20 s; clients expect one at least every 30 s). */
  sseKeepAliveMillis?: number;
  /** Event streams one caller (subject, or client address when anonymous) may hold open on this replica (429 TooManyEventStreams beyond). */
  sseStreamsPerCaller?: number;
  /**
   * The proxies (balancers) whose `X-Forwarded-For` names the client: addresses, CIDR ranges, or
   * `loopback`, `linklocal`, `uniquelocal` (express' `trust proxy`). Empty: the socket's address is the client's.
   */
  trustedProxies?: string[];
  /** Largest accepted JSON payload, in bytes. */
  maxPayloadBytes: number;
  /** Writes are refused once the embedded store holds this many quads (its hard ceiling is ~10 M). */
  maxStoreQuads: number;
  snapshotEvents: number;
  /** The identity `/` grants every permission to on a fresh service: `anonymous`, or `realms/{realm}/users/{subject}`, `.../groups/{group}`, `.../authenticated`. */
  bootstrapIdentity?: string;
  /** Bound of every request to an OpenID provider (discovery, JWKS), in ms. */
  providerTimeoutMillis?: number;
  /** Worker threads for JSON-LD and SHACL (default: the number of cores; 0 runs them on the main thread). */
  workers?: number;
  /** The time budget of one JSON-LD or SHACL step of a request, in ms (default 10 s). */
  workBudgetMillis?: number;
  /** Most entries one multi-fetch may name (400 beyond). */
  multiFetchMax?: number;
  /** How long an archive can be downloaded after its creation (Delta's `plugins.archive.ephemeral.ttl`, 5 hours). */
  archiveTtlSeconds?: number;
  /** Archives one caller (a subject, or an anonymous caller's address) may hold at once, and their bytes in all (429 ArchiveQuotaReached beyond). */
  archivesPerCaller?: number;
  archiveBytesPerCaller?: number;
  /** Archives one project may hold at once, and their bytes in all (429 ArchiveQuotaReached beyond). */
  archivesPerProject?: number;
  archiveBytesPerProject?: number;
  /** Budget of one SPARQL endpoint query, in ms: then it is stopped (400 QueryTimeout). */
  sparqlTimeoutMillis?: number;
  /** Most rows (SELECT) or triples (CONSTRUCT, DESCRIBE) one SPARQL answer may hold (400 beyond). */
  sparqlMaxResults?: number;
  /** SPARQL query workers, each holding a replica of every project's dataset (default 2). */
  sparqlWorkers?: number;
  /** The JavaScript heap of one SPARQL query worker, in MiB (its `resourceLimits`; Oxigraph's own memory is apart). */
  sparqlWorkerHeapMb?: number;
  /** A SPARQL query worker that answered no query for this long is replaced by a fresh one, giving its memory back (ms; 0: never). */
  sparqlWorkerIdleMillis?: number;
  /** Growth of memory the SPARQL endpoint's running queries may cause before the longest-running is stopped (MiB). */
  sparqlQueryMemoryMb?: number;
  /** Searches and SPARQL queries one caller may have in flight at once (429 TooManyRequests beyond). */
  costlyPerCaller?: number;
  /** Most SparqlViews (user-defined, not deprecated) one project may have (400 TooManySparqlViews beyond; default 10). */
  sparqlViewsPerProject?: number;
  /** Most quads one SparqlView's copy may hold in each SPARQL query worker (its queries 400 SparqlViewTooLarge beyond; default 1,000,000). */
  sparqlViewMaxQuads?: number;
  /** Origins browsers may call from: `*` (default) or a comma-separated list. */
  corsOrigins?: string;
  /** `GET /metrics`: `permission` (supervision/read on `/`, default), `open`, or `off`. */
  metrics?: 'off' | 'open' | 'permission';
  /** Level of the JSON log lines (`info` by default; `silent` turns them off, as tests do). */
  logLevel?: string;
  snapshotMillis: number;
  /** The issue-tracker integration (`plugins.jira.*` of the configuration file); absent: not configured. */
  tracker?: TrackerOptions;
  /** The text index (listings' `q`, the search API); `false` leaves it out (default on). */
  textIndex?: boolean;
  /** `plugins.search.fields`: the JSON file `GET /v1/search/config` answers with. */
  searchFields?: string;
  /** `plugins.search.suites`: suite name → projects (`org/project`). */
  searchSuites?: Record<string, string[]>;
  /** A search API query's time budget (ms): it runs on the event loop, so it is stopped beyond. */
  searchTimeoutMillis?: number;
  /** Storages and files (`plugins.storage.storages.*` in the config file); defaults of the spec when absent. */
  storages?: StorageOptions;
  /** The triple store on an external SPARQL 1.1 server (`SPARQL_ENDPOINT`...); absent: the embedded store. */
  sparqlStore?: SparqlServer;
  /** Templates of new projects' default `base` and `vocab` (Delta 1.12's `projects.prefix`). */
  projectPrefix?: ProjectPrefixConfig;
  /** Realms and ACLs written at start-up (Delta 1.11's `realms.provisioning`, `acls.provisioning`). */
  provisioning?: ProvisioningConfig;
  /** The web frontend (Delta's `app.fusion`): where `Accept: text/html` fetches are redirected, and the built-in one's sign-in. */
  frontend?: FrontendOptions;
}

/** A tenth of the cap (at least one): a client holding its whole share leaves nine tenths to the others. */
const defaultPerClient = (maxConnections: number): number => Math.max(1, Math.floor(maxConnections / 10));

/** Event streams per caller unless configured: a few browser tabs' worth, within the connection share. */
export const defaultStreamsPerCaller = (perClient: number): number => Math.min(16, perClient);

export const httpLimits = (config: Config): HttpLimits => {
  const maxConnections = config.http?.maxConnections ?? 1_000;
  return {
    requestTimeoutMillis: 30_000,
    headersTimeoutMillis: 10_000,
    keepAliveTimeoutMillis: 65_000,
    maxConnectionsPerClient: defaultPerClient(maxConnections),
    ...config.http,
    maxConnections,
  };
};

export { ConfigError };

/** Configuration from the environment (and `CONFIG_FILE`), with the embedded defaults of a fresh clone. */
export const loadConfig = (env: NodeJS.ProcessEnv = process.env): Config => {
  const file = fileSettings(env['CONFIG_FILE']);
  const setting = (envName: string, fileKey: string) => env[envName] ?? file(fileKey);
  const port = integerSetting('PORT', setting('PORT', 'http.port'), 8080, 0, 65535);
  const baseUrl = (setting('BASE_URL', 'http.base-url') ?? `http://localhost:${port}`).replace(/\/+$/, '');
  try {
    const url = new URL(baseUrl);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('not http(s)');
  } catch {
    throw new ConfigError('BASE_URL', `expected an http(s) URL, got '${baseUrl}'`);
  }
  const redisUrl = setting('REDIS_URL', 'events.redis-url');
  if (redisUrl !== undefined && !/^rediss?:\/\//.test(redisUrl)) throw new ConfigError('REDIS_URL', `expected redis://host:port, got '${redisUrl}'`);
  const redisSentinels = sentinelsSetting(setting('REDIS_SENTINELS', 'events.redis-sentinels'));
  const redisSentinelName = setting('REDIS_SENTINEL_NAME', 'events.redis-sentinel-name');
  if (redisSentinels && !redisSentinelName)
    throw new ConfigError('REDIS_SENTINEL_NAME', 'required with REDIS_SENTINELS: the name of the primary the sentinels watch');
  if (redisSentinelName !== undefined && !/^[A-Za-z0-9_.-]{1,100}$/.test(redisSentinelName))
    throw new ConfigError('REDIS_SENTINEL_NAME', `expected 1-100 characters of [A-Za-z0-9_.-], got '${redisSentinelName}'`);
  const host = setting('HOST', 'http.host') ?? '127.0.0.1';
  if (!/^[A-Za-z0-9.:-]{1,253}$/.test(host)) throw new ConfigError('HOST', `expected an address or host name to listen on, got '${host}'`);
  const storages = storageConfig(file, (name, problem) => new ConfigError(name, problem));
  const storagePassword = env['STORAGE_PASSWORD'];
  if (storagePassword) storages.password = storagePassword;
  // Replicas open the secrets one another sealed: a key of each process' own would lock the others out.
  if ((redisUrl || redisSentinels) && storages.password === undefined)
    throw new ConfigError(
      'plugins.storage.storages.password',
      "required when REDIS_URL or REDIS_SENTINELS is set (or STORAGE_PASSWORD): every replica must seal and open storages' secrets with the same password",
    );
  const maxConnections = integerSetting('MAX_CONNECTIONS', setting('MAX_CONNECTIONS', 'http.max-connections'), 1_000, 1, 1_000_000);
  const maxConnectionsPerClient = integerSetting(
    'MAX_CONNECTIONS_PER_CLIENT',
    setting('MAX_CONNECTIONS_PER_CLIENT', 'http.max-connections-per-client'),
    defaultPerClient(maxConnections),
    1,
    maxConnections,
  );
  const sseStreamsPerCaller = integerSetting(
    'SSE_STREAMS_PER_CALLER',
    setting('SSE_STREAMS_PER_CALLER', 'events.streams-per-caller'),
    defaultStreamsPerCaller(maxConnectionsPerClient),
    1,
    maxConnectionsPerClient,
  );
  return {
    port,
    host,
    http: {
      requestTimeoutMillis: integerSetting('REQUEST_TIMEOUT_MILLIS', setting('REQUEST_TIMEOUT_MILLIS', 'http.request-timeout-millis'), 30_000, 100, 3_600_000),
      headersTimeoutMillis: integerSetting('HEADERS_TIMEOUT_MILLIS', setting('HEADERS_TIMEOUT_MILLIS', 'http.headers-timeout-millis'), 10_000, 100, 600_000),
      keepAliveTimeoutMillis: integerSetting(
        'KEEPALIVE_TIMEOUT_MILLIS',
        setting('KEEPALIVE_TIMEOUT_MILLIS', 'http.keep-alive-timeout-millis'),
        65_000,
        100,
        3_600_000,
      ),
      maxConnections,
      maxConnectionsPerClient,
    },
    trustedProxies: trustedProxiesSetting(setting('TRUSTED_PROXIES', 'http.trusted-proxies')),
    baseUrl,
    dataDir: resolve(setting('DATA_DIR', 'data-dir') ?? './data'),
    ...(redisUrl ? { redisUrl } : {}),
    redisPrefix: redisPrefixSetting(setting('REDIS_PREFIX', 'events.redis-prefix')),
    ...(redisSentinels ? { redisSentinels, redisSentinelName: redisSentinelName! } : {}),
    redisWaitReplicas: integerSetting('REDIS_WAIT_REPLICAS', setting('REDIS_WAIT_REPLICAS', 'events.redis-wait-replicas'), 0, 0, 100),
    redisWaitMillis: integerSetting('REDIS_WAIT_MILLIS', setting('REDIS_WAIT_MILLIS', 'events.redis-wait-millis'), 1_000, 1, 60_000),
    feedMaxChanges: integerSetting('FEED_MAX_CHANGES', setting('FEED_MAX_CHANGES', 'events.feed-max-changes'), FEED_MAX_CHANGES, 1, 10_000_000),
    statesCache: integerSetting('STATES_CACHE', setting('STATES_CACHE', 'events.states-cache'), STATES_CACHE, 1, 10_000_000),
    redisStreamNodeBytes: integerSetting(
      'REDIS_STREAM_NODE_BYTES',
      setting('REDIS_STREAM_NODE_BYTES', 'events.redis-stream-node-bytes'),
      REDIS_STREAM_NODE_BYTES,
      0,
      1024 * 1024 * 1024,
    ),
    readBarrierMillis: integerSetting('READ_BARRIER_MILLIS', setting('READ_BARRIER_MILLIS', 'events.read-barrier-millis'), 5_000, 10, 600_000),
    storeLeaseMillis: integerSetting('STORE_LEASE_MILLIS', setting('STORE_LEASE_MILLIS', 'store.lease-millis'), 10_000, 300, 600_000),
    sseKeepAliveMillis: integerSetting('SSE_KEEPALIVE_MILLIS', setting('SSE_KEEPALIVE_MILLIS', 'events.keep-alive-millis'), 20_000, 10, 30_000),
    sseStreamsPerCaller,
    maxPayloadBytes: integerSetting('MAX_PAYLOAD_BYTES', setting('MAX_PAYLOAD_BYTES', 'http.max-payload-bytes'), 256 * 1024, 1024, 64 * 1024 * 1024),
    maxStoreQuads: integerSetting('MAX_STORE_QUADS', setting('MAX_STORE_QUADS', 'store.max-quads'), 8_000_000, 1000, 9_500_000),
    multiFetchMax: integerSetting('MULTI_FETCH_MAX', setting('MULTI_FETCH_MAX', 'multi-fetch.max-entries'), 1_000, 1, 100_000),
    archiveTtlSeconds: integerSetting('ARCHIVE_TTL_SECONDS', setting('ARCHIVE_TTL_SECONDS', 'archives.ttl-seconds'), 18_000, 1, 604_800),
    archivesPerCaller: integerSetting('ARCHIVES_PER_CALLER', setting('ARCHIVES_PER_CALLER', 'archives.per-caller'), 100, 1, 1_000_000),
    archiveBytesPerCaller: integerSetting(
      'ARCHIVE_BYTES_PER_CALLER',
      setting('ARCHIVE_BYTES_PER_CALLER', 'archives.bytes-per-caller'),
      16 * 1024 * 1024,
      1024,
      2 ** 40,
    ),
    archivesPerProject: integerSetting('ARCHIVES_PER_PROJECT', setting('ARCHIVES_PER_PROJECT', 'archives.per-project'), 1_000, 1, 10_000_000),
    archiveBytesPerProject: integerSetting(
      'ARCHIVE_BYTES_PER_PROJECT',
      setting('ARCHIVE_BYTES_PER_PROJECT', 'archives.bytes-per-project'),
      64 * 1024 * 1024,
      1024,
      2 ** 40,
    ),
    sparqlTimeoutMillis: integerSetting('SPARQL_TIMEOUT_MILLIS', setting('SPARQL_TIMEOUT_MILLIS', 'sparql.timeout-millis'), 30_000, 10, 3_600_000),
    sparqlMaxResults: integerSetting('SPARQL_MAX_RESULTS', setting('SPARQL_MAX_RESULTS', 'sparql.max-results'), 100_000, 1, 10_000_000),
    sparqlWorkers: integerSetting('SPARQL_WORKERS', setting('SPARQL_WORKERS', 'sparql.workers'), 2, 1, 16),
    sparqlWorkerHeapMb: integerSetting('SPARQL_WORKER_HEAP_MB', setting('SPARQL_WORKER_HEAP_MB', 'sparql.worker-heap-mb'), 512, 64, 16_384),
    sparqlWorkerIdleMillis: integerSetting(
      'SPARQL_WORKER_IDLE_MILLIS',
      setting('SPARQL_WORKER_IDLE_MILLIS', 'sparql.worker-idle-millis'),
      60_000,
      0,
      86_400_000,
    ),
    sparqlQueryMemoryMb: integerSetting('SPARQL_QUERY_MEMORY_MB', setting('SPARQL_QUERY_MEMORY_MB', 'sparql.query-memory-mb'), 1024, 16, 65_536),
    costlyPerCaller: integerSetting('COSTLY_PER_CALLER', setting('COSTLY_PER_CALLER', 'http.costly-per-caller'), 4, 1, 10_000),
    sparqlViewsPerProject: integerSetting('SPARQL_VIEWS_PER_PROJECT', setting('SPARQL_VIEWS_PER_PROJECT', 'sparql.views-per-project'), 10, 0, 1_000),
    sparqlViewMaxQuads: integerSetting('SPARQL_VIEW_MAX_QUADS', setting('SPARQL_VIEW_MAX_QUADS', 'sparql.view-max-quads'), 1_000_000, 1, 100_000_000),
    corsOrigins: setting('CORS_ORIGINS', 'http.cors-origins') ?? '*',
    metrics: metricsSetting(setting('METRICS', 'metrics.access')),
    logLevel: logLevelSetting(setting('LOG_LEVEL', 'log.level')),
    bootstrapIdentity: bootstrapIdentitySetting(setting('BOOTSTRAP_IDENTITY', 'auth.bootstrap-identity')),
    providerTimeoutMillis: integerSetting('PROVIDER_TIMEOUT_MILLIS', setting('PROVIDER_TIMEOUT_MILLIS', 'auth.provider-timeout-millis'), 5_000, 100, 60_000),
    workers: integerSetting('WORKERS', setting('WORKERS', 'workers.count'), availableParallelism(), 0, 64),
    workBudgetMillis: integerSetting('WORK_BUDGET_MILLIS', setting('WORK_BUDGET_MILLIS', 'workers.budget-millis'), 10_000, 10, 600_000),
    snapshotEvents: integerSetting('SNAPSHOT_EVENTS', setting('SNAPSHOT_EVENTS', 'store.snapshot-events'), 20_000, 1, 10_000_000),
    snapshotMillis: integerSetting('SNAPSHOT_MILLIS', setting('SNAPSHOT_MILLIS', 'store.snapshot-millis'), 60_000, 0, 86_400_000),
    tracker: trackerConfig(file),
    textIndex: onOffSetting('TEXT_INDEX', setting('TEXT_INDEX', 'search.text-index')),
    ...optionalSetting('searchFields', setting('SEARCH_FIELDS', 'plugins.search.fields')),
    searchSuites: suitesSetting(setting('SEARCH_SUITES', 'plugins.search.suites')),
    searchTimeoutMillis: integerSetting('SEARCH_TIMEOUT_MILLIS', setting('SEARCH_TIMEOUT_MILLIS', 'search.timeout-millis'), 2_000, 10, 600_000),
    storages,
    ...optionalObject('sparqlStore', sparqlStoreConfig(setting)),
    frontend: frontendSetting(setting),
    projectPrefix: projectPrefixConfig(setting),
    provisioning: provisioningConfig(setting, booleanSetting),
  };
};
