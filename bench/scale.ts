import { execSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { freePort } from '../test/support/process.js';
import { dropPrefix, REDIS_URL, uniquePrefix } from '../test/support/redis.js';
import { releaseVirtuoso, useVirtuoso } from '../test/support/virtuoso.js';
import { json, measure, percentile, put, startProcess } from './harness.js';
import type { ServerProcess } from './harness.js';

/**
 * Issue 23's figures at scale: `node dist/bench/scale.js` (or `BENCH_ONLY=scale npm run bench`).
 * The external store (Virtuoso 7 on loopback, started here with `VIRTUOSO_BUFFERS` pages, Redis
 * under a prefix of its own) at each size of `SCALE_N` (comma-separated, ascending, default
 * 100000), then the embedded store at the smallest. Resources of ~25 properties are created over
 * HTTP, spread over `SCALE_PROJECTS` projects (default 10): the first `SCALE_WINDOW` (default
 * 20,000) through one replica, the next as many alternately through two (create/s of each), the
 * rest through both. At each size: fetch, listings, links, `q` listings and a bool + terms search,
 * one request at a time (`SCALE_RUNS` each, default 200); the memory of a replica, of Redis and of
 * Virtuoso; the cold start of a replica on an empty data directory. `SCALE_STORES=external` or
 * `embedded` runs one. Prints a table of every figure at the end; `uptime` at start and end.
 */
const sizes = (process.env['SCALE_N'] ?? '100000')
  .split(',')
  .map(Number)
  .sort((a, b) => a - b);
const PROJECTS = Number(process.env['SCALE_PROJECTS'] ?? 10);
const WINDOW = Number(process.env['SCALE_WINDOW'] ?? 20_000);
const RUNS = Number(process.env['SCALE_RUNS'] ?? 200);
const CONCURRENCY = Number(process.env['SCALE_CONCURRENCY'] ?? 16);
/** Attempts at a read's first requests after the load before it is noted refused. */
const WARM_TRIES = Number(process.env['SCALE_WARM_TRIES'] ?? 5);
const stores = (process.env['SCALE_STORES'] ?? 'external,embedded').split(',');
// About 2 GiB of pages: a 500,000-resource store (revision graphs, datasets, search graphs) is a few GiB on disk.
process.env['VIRTUOSO_BUFFERS'] ??= '250000';
process.env['VIRTUOSO_QUERY_MEM'] ??= '1G';

const CONTEXT = {
  '@vocab': 'http://schema.org/',
  ex: 'http://example.org/vocab/',
  knows: { '@id': 'http://schema.org/knows', '@type': '@id' },
  colleague: { '@id': 'http://schema.org/colleague', '@type': '@id' },
};
const CITIES = ['Oxford', 'Cambridge', 'London', 'Geneva', 'Lausanne', 'Zurich', 'Bern', 'Basel'];
const project = (i: number) => `bench/p${i % PROJECTS}`;
/** Every replica's BASE_URL (replicas behind one balancer share it): ids and links are built on it. */
const BASE = 'http://registry.bench';
/** Resource i is the (i / PROJECTS)-th of its project: ids, words and links are numbered per project. */
const local = (i: number) => Math.floor(i / PROJECTS);
const padded = (j: number) => String(j).padStart(7, '0');

/** ~25 properties: words shared by all (`person`), by an eighth (a city) and by one (the number); two links within the project. */
const payload = (i: number, base: string): Record<string, unknown> => {
  const j = local(i);
  const doc: Record<string, unknown> = {
    '@context': CONTEXT,
    '@type': ['Person', `ex:Kind${j % 5}`],
    name: `person ${padded(j)} ${CITIES[j % CITIES.length]}`,
    age: 18 + (j % 60),
    city: CITIES[(j * 7) % CITIES.length],
    knows: `${base}r${Math.max(0, j - 1)}`,
    colleague: `${base}r${Math.floor(j / 2)}`,
  };
  for (let p = 0; p < 20; p++) doc[`ex:p${p}`] = p % 3 === 0 ? j * p : `value ${p} of ${j}`;
  return doc;
};

/** Figures by row, one column per store and size, printed as a table at the end. */
const table = new Map<string, Map<string, string>>();
const columns: string[] = [];
const note = (column: string, row: string, value: string) => {
  if (!columns.includes(column)) columns.push(column);
  const cells = table.get(row) ?? new Map<string, string>();
  cells.set(column, value);
  table.set(row, cells);
  console.log(`  [${column}] ${row}: ${value}`);
};
const latency = (times: number[]) => `${percentile(times, 50).toFixed(1)} / ${percentile(times, 99).toFixed(1)}`;
const mib = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MiB`;
const seconds = (millis: number) => `${(millis / 1000).toFixed(1)} s`;
const uptime = () => execSync('uptime').toString().trim();

/** Resident memory of a process, from /proc. */
const rss = (pid: number): number => {
  const line = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Number(line?.[1] ?? 0) * 1024;
};

/** Creates resources [from, to) at CONCURRENCY, request i through urls[i % urls.length]; returns creates per second. */
const create = async (urls: string[], from: number, to: number): Promise<number> => {
  let next = from;
  const started = performance.now();
  let shown = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      for (let i = next++; i < to; i = next++) {
        await put(`${urls[i % urls.length]!}/v1/resources/${project(i)}/_/r${local(i)}`, payload(i, `${BASE}/v1/resources/${project(i)}/_/`));
        if (performance.now() - shown > 30_000) {
          shown = performance.now();
          console.log(`  ... ${i} created, ${Math.round((i - from) / ((shown - started) / 1000))}/s (${uptime()})`);
        }
      }
    }),
  );
  return ((to - from) / (performance.now() - started)) * 1000;
};

/**
 * Waits until every projection of the replica applied the whole log (its metrics' lag), polling;
 * says how long and which projection came last, or that it did not within SCALE_CATCHUP_MILLIS (default 2 h).
 */
const CATCHUP_MILLIS = Number(process.env['SCALE_CATCHUP_MILLIS'] ?? 7_200_000);
const untilCaughtUp = async (url: string): Promise<string> => {
  const started = performance.now();
  const done = new Map<string, number>();
  while (performance.now() - started < CATCHUP_MILLIS) {
    const text = await (await fetch(`${url}/metrics`)).text();
    const lags = [...text.matchAll(/^registry_projection_lag\{projection="([^"]*)"\} (\d+)/gm)];
    for (const [, name, lag] of lags) if (lag === '0' && !done.has(name!)) done.set(name!, performance.now() - started);
    if (lags.length && lags.every(([, , lag]) => lag === '0')) {
      const last = [...done].sort((x, y) => y[1] - x[1]).slice(0, 2);
      return `${seconds(performance.now() - started)} (last: ${last.map(([name, millis]) => `${name} ${seconds(millis)}`).join(', ')})`;
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  return `not caught up after ${seconds(CATCHUP_MILLIS)}`;
};

/** The read figures at one size, one request at a time against one replica. */
const reads = async (column: string, url: string, count: number): Promise<void> => {
  const perProject = Math.floor(count / PROJECTS);
  const pick = (i: number) => (i * 7919) % perProject;
  const resource = (i: number) => `${url}/v1/resources/${project(i)}/_/r${pick(i)}`;
  const listing = (i: number) => `${url}/v1/resources/${project(i)}`;
  const refusal = (error: unknown) => ((error as Error).message.match(/"@type":"(\w+)"/) ?? [])[1] ?? (error as Error).message.slice(0, 80);
  // The first read after the load may be refused (a search reads its columns first, over its time
  // budget at this size; the columns read so far are kept): tried again up to WARM_TRIES times, the
  // refusals noted beside the steady figures. A read refused every time is the figure itself.
  const row = async (name: string, op: (i: number) => Promise<unknown>) => {
    const refused: string[] = [];
    const warm = async (i: number) => {
      for (let tries = 1; ; tries++)
        try {
          return await op(i);
        } catch (error) {
          refused.push(refusal(error));
          if (tries >= WARM_TRIES) throw error;
        }
    };
    try {
      const first = performance.now();
      await warm(0);
      const firstMillis = performance.now() - first;
      for (let i = 1; i < 3; i++) await warm(i);
      const cold = `first ${Math.round(firstMillis)} ms${refused.length ? ` after ${refused.length} refused (${[...new Set(refused)].join(', ')})` : ''}`;
      note(column, name, `${latency(await measure(name, RUNS, 1, async (i) => void (await op(i))))}; ${cold}`);
    } catch (error) {
      note(column, name, `refused ${refused.length}×: ${refusal(error)}`);
    }
  };
  await row('fetch p50 / p99 ms', (i) => json(resource(i)));
  await row('list first page p50 / p99 ms', (i) => json(listing(i)));
  await row('list by type p50 / p99 ms', (i) => json(`${listing(i)}?type=${encodeURIComponent(`http://example.org/vocab/Kind${i % 5}`)}`));
  await row('list sorted by name p50 / p99 ms', (i) => json(`${listing(i)}?sort=${encodeURIComponent('http://schema.org/name')}&from=${(i % 10) * 20}`));
  await row('incoming links p50 / p99 ms', (i) => json(`${resource(i)}/incoming`));
  await row('outgoing links p50 / p99 ms', (i) => json(`${resource(i)}/outgoing`));
  await row('q, one item p50 / p99 ms', (i) => json(`${listing(i)}?q=${padded(pick(i))}`));
  await row('q, 1/8 of items p50 / p99 ms', (i) => json(`${listing(i)}?q=${CITIES[i % CITIES.length]}`));
  await row('search bool + terms p50 / p99 ms', (i) =>
    json(`${url}/v1/search/query`, 'POST', {
      size: 10,
      query: { bool: { must: [{ match: { name: 'person' } }], filter: [{ range: { age: { gte: 20 + (i % 10), lt: 60 } } }] } },
      aggs: { cities: { terms: { field: 'city.keyword' } } },
    }),
  );
};

/** A replica's start on `dataDir` until /health/ready, then until every projection caught up. */
const coldStart = async (column: string, dataDir: string, env: Record<string, string>, label: string): Promise<ServerProcess> => {
  const server = await startProcess(dataDir, await freePort(), env, '/health/ready');
  note(column, `${label}: until /health/ready`, seconds(server.readyMillis));
  note(column, `${label}: then projections caught up`, await untilCaughtUp(server.url));
  return server;
};

/** Every key under the prefix and the memory Redis reports for them (MEMORY USAGE, every element). */
const redisMemory = async (prefix: string): Promise<{ keys: number; used: number; instance: number }> => {
  const redis = new Redis(REDIS_URL);
  try {
    let used = 0;
    let keys = 0;
    for (const pattern of [`${prefix}:*`, `{${prefix}}:*`]) {
      let cursor = '0';
      do {
        const [next, found] = (await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 1000)) as [string, string[]];
        cursor = next;
        for (const key of found) {
          keys++;
          used += Number(await redis.call('MEMORY', 'USAGE', key, 'SAMPLES', '0'));
        }
      } while (cursor !== '0');
    }
    const instance = Number(/used_memory:(\d+)/.exec(await redis.info('memory'))?.[1] ?? 0);
    return { keys, used, instance };
  } finally {
    redis.disconnect();
  }
};

const replicaEnv = (extra: Record<string, string>) => ({
  LOG_LEVEL: 'warn',
  METRICS: 'open',
  STORAGE_PASSWORD: 'bench',
  // The shared machine is loaded: a request waits longer for its replica than the default 5 s before 503.
  READ_BARRIER_MILLIS: '60000',
  BASE_URL: BASE,
  ...extra,
});

const setUp = async (url: string) => {
  await json(`${url}/v1/orgs/bench`, 'PUT', {});
  for (let p = 0; p < PROJECTS; p++) await json(`${url}/v1/projects/bench/p${p}`, 'PUT', {});
};

const external = async (): Promise<void> => {
  const prefix = uniquePrefix('scale');
  const virtuoso = await useVirtuoso();
  const dirs: string[] = [];
  const servers: ServerProcess[] = [];
  const dir = () => {
    const made = mkdtempSync(join(tmpdir(), 'registry-scale-'));
    dirs.push(made);
    return made;
  };
  const env = replicaEnv({
    REDIS_URL,
    REDIS_PREFIX: prefix,
    SPARQL_ENDPOINT: virtuoso.server.query,
    SPARQL_UPDATE_ENDPOINT: virtuoso.server.update!,
    SPARQL_GSP_ENDPOINT: virtuoso.server.gsp!,
    ...(virtuoso.server.fastWrites ? { SPARQL_FAST_WRITES: virtuoso.server.fastWrites } : {}),
    ...(virtuoso.server.textIndex ? { SPARQL_TEXT_INDEX: virtuoso.server.textIndex } : {}),
  });
  const before = await redisMemory(prefix);
  try {
    const a = await startProcess(dir(), await freePort(), env, '/health/ready');
    servers.push(a);
    await setUp(a.url);
    const window = Math.min(WINDOW, Math.floor(sizes[0]! / 2));
    const first = `external ${sizes[0]}`;
    console.log(`\nexternal store: ${window} creates through one replica, concurrency ${CONCURRENCY}`);
    note(first, `create/s, one replica (${window} creates)`, (await create([a.url], 0, window)).toFixed(0));
    const b = await startProcess(dir(), await freePort(), env, '/health/ready');
    servers.push(b);
    console.log(`external store: ${window} creates alternately through two replicas`);
    note(first, `create/s, two replicas (${window} creates)`, (await create([a.url, b.url], window, 2 * window)).toFixed(0));
    let made = 2 * window;
    for (const size of sizes) {
      const column = `external ${size}`;
      console.log(`\nexternal store: loading ${made} -> ${size} through both replicas (${uptime()})`);
      const loadStarted = performance.now();
      if (size > made) note(column, `load ${made}->${size}, creates/s over two replicas`, (await create([a.url, b.url], made, size)).toFixed(0));
      made = Math.max(made, size);
      note(column, 'after the load, replica A caught up in', await untilCaughtUp(a.url));
      note(column, 'then replica B caught up in', await untilCaughtUp(b.url));
      note(column, 'load until both replicas caught up', seconds(performance.now() - loadStarted));
      console.log(`external store at ${size} (${uptime()})`);
      await reads(column, a.url, size);
      note(column, 'RSS of one replica', mib(rss(a.child.pid!)));
      const redis = await redisMemory(prefix);
      note(column, 'Redis: the log (MEMORY USAGE of its keys)', `${mib(redis.used)} (instance used_memory +${mib(redis.instance - before.instance)})`);
      note(column, 'RSS of Virtuoso', mib(rss(virtuoso.pid)));
      note(column, 'Virtuoso database files', execSync(`du -sh ${virtuoso.dir}`).toString().split('\t')[0]!);
      const cold = await coldStart(column, dir(), env, 'cold start, empty data dir');
      note(column, 'RSS of the cold-started replica', mib(rss(cold.child.pid!)));
      await cold.stop();
    }
  } finally {
    for (const server of servers) await server.stop();
    await releaseVirtuoso();
    await dropPrefix(prefix);
    for (const made of dirs) rmSync(made, { recursive: true, force: true });
  }
};

const embedded = async (size: number): Promise<void> => {
  const column = `embedded ${size}`;
  const dataDir = mkdtempSync(join(tmpdir(), 'registry-scale-embedded-'));
  const env = replicaEnv({});
  let server: ServerProcess = await startProcess(dataDir, await freePort(), env, '/health/ready');
  try {
    await setUp(server.url);
    console.log(`\nembedded store: ${size} creates through one process, concurrency ${CONCURRENCY} (${uptime()})`);
    note(column, `create/s, one replica (${size} creates)`, (await create([server.url], 0, size)).toFixed(0));
    note(column, 'after the load, caught up in', await untilCaughtUp(server.url));
    await reads(column, server.url, size);
    note(column, 'RSS of one replica', mib(rss(server.child.pid!)));
    await server.stop();
    server = await coldStart(column, dataDir, env, 'restart on its data dir');
    // What the process holds for the data itself, without what the load and the reads left behind.
    note(column, 'RSS after the restart, idle', mib(rss(server.child.pid!)));
  } finally {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
};

export const benchScale = async (): Promise<void> => {
  const start = uptime();
  console.log(`scale: sizes ${sizes.join(', ')}, ${PROJECTS} projects, stores ${stores.join(', ')}; load at start: ${start}`);
  if (stores.includes('external')) await external();
  if (stores.includes('embedded')) await embedded(sizes[0]!);
  console.log(`\nload at start: ${start}\nload at end:   ${uptime()}\n`);
  const width = Math.max(...[...table.keys()].map((k) => k.length));
  const widths = columns.map((c) => Math.max(c.length, ...[...table.values()].map((cells) => cells.get(c)?.length ?? 0)));
  console.log(['figure'.padEnd(width), ...columns.map((c, i) => c.padEnd(widths[i]!))].join(' | '));
  for (const [row, cells] of table) console.log([row.padEnd(width), ...columns.map((c, i) => (cells.get(c) ?? '').padEnd(widths[i]!))].join(' | '));
};

if (process.argv[1]?.endsWith('scale.js')) await benchScale();
