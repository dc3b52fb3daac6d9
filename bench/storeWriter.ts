import { execSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../test/support/process.js';
import { dropPrefix, REDIS_URL, uniquePrefix } from '../test/support/redis.js';
import { releaseVirtuoso, useVirtuoso } from '../test/support/virtuoso.js';
import { json, put, startProcess } from './harness.js';
import type { ServerProcess } from './harness.js';

/**
 * The external store's writer alone (`node dist/bench/storeWriter.js`): Virtuoso on loopback, Redis
 * under a prefix of its own, `STOREW_N` (default 1,000) resources of ~25 properties created at
 * concurrency 16 through one replica, then as many alternately through two. For each phase:
 * create/s, how far the store projection was behind when the creates ended, and its rate (events
 * written per second) from the first create until it caught up and over the catch-up alone. The
 * store's search projections are off unless `STOREW_TEXT=on` (they are every replica's own writes,
 * not the lease holder's). Each phase also prints the CPU time the lease holder, the other replica
 * and Virtuoso used over it: whose work bounds the writer (the store's, measured). `STOREW_PHASES=1`
 * runs the first phase alone. `uptime` at start and end: quote it with the figures.
 */
const N = Number(process.env['STOREW_N'] ?? 1_000);
const CONCURRENCY = 16;
const PROJECTS = 10;
process.env['VIRTUOSO_BUFFERS'] ??= '30000';
process.env['VIRTUOSO_QUERY_MEM'] ??= '512M';
const uptime = () => execSync('uptime').toString().trim();
/** CPU seconds a process has used (user + system, Linux `/proc`). */
const cpuSeconds = (pid: number | undefined): number => {
  if (pid === undefined) return Number.NaN;
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8')
    .replace(/^.*\) /, '')
    .split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
};

const payload = (i: number): Record<string, unknown> => {
  const doc: Record<string, unknown> = {
    '@context': { '@vocab': 'http://schema.org/', ex: 'http://example.org/vocab/' },
    '@type': ['Person', `ex:Kind${i % 5}`],
    name: `person ${i}`,
    age: 18 + (i % 60),
    knows: { '@id': `http://registry.bench/r${Math.max(0, i - 1)}` },
  };
  for (let p = 0; p < 20; p++) doc[`ex:p${p}`] = p % 3 === 0 ? i * p : `value ${p} of ${i}`;
  return doc;
};

/** The store projection's lag on a replica (events of the log it has not written / heard of). */
const storeLag = async (url: string): Promise<number> => {
  const text = await (await fetch(`${url}/metrics`)).text();
  return Number(/^registry_projection_lag\{projection="store"\} (\d+)/m.exec(text)?.[1] ?? Number.NaN);
};

/** Creates [from, to) through `urls` in turn; then waits for the store projection to catch up. */
const phase = async (name: string, urls: string[], from: number, to: number, pids: Record<string, number | undefined>): Promise<void> => {
  let next = from;
  const cpu = (): Record<string, number> => Object.fromEntries(Object.entries(pids).map(([who, pid]) => [who, cpuSeconds(pid)]));
  const cpuBefore = cpu();
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      for (let i = next++; i < to; i = next++) await put(`${urls[i % urls.length]!}/v1/resources/bench/p${i % PROJECTS}/_/r${i}`, payload(i));
    }),
  );
  const created = performance.now();
  const behind = await storeLag(urls[0]!);
  while ((await storeLag(urls[0]!)) > 0) await new Promise((r) => setTimeout(r, 200));
  const caughtUp = performance.now();
  const cpuAfter = cpu();
  const cpuUsed = Object.keys(pids)
    .map((who) => `${who} ${(cpuAfter[who]! - cpuBefore[who]!).toFixed(1)} s`)
    .join(', ');
  const perSecond = (events: number, millis: number) => ((events / millis) * 1000).toFixed(1);
  console.log(
    `${name}: create/s ${perSecond(to - from, created - started)}; store behind by ${behind} when the creates ended, ` +
      `caught up ${((caughtUp - created) / 1000).toFixed(1)} s later (${perSecond(behind, caughtUp - created)} events/s); ` +
      `store projection over the phase ${perSecond(to - from, caughtUp - started)} events/s; CPU over ${((caughtUp - started) / 1000).toFixed(1)} s: ${cpuUsed} (${uptime()})`,
  );
};

const main = async (): Promise<void> => {
  console.log(`store writer: ${N} creates per phase; load at start: ${uptime()}`);
  const prefix = uniquePrefix('storew');
  const virtuoso = await useVirtuoso();
  const dirs: string[] = [];
  const servers: ServerProcess[] = [];
  const env = {
    LOG_LEVEL: 'warn',
    METRICS: 'open',
    STORAGE_PASSWORD: 'bench',
    READ_BARRIER_MILLIS: '60000',
    BASE_URL: 'http://registry.bench',
    TEXT_INDEX: process.env['STOREW_TEXT'] ?? 'off',
    REDIS_URL,
    REDIS_PREFIX: prefix,
    SPARQL_ENDPOINT: virtuoso.server.query,
    SPARQL_UPDATE_ENDPOINT: virtuoso.server.update!,
    SPARQL_GSP_ENDPOINT: virtuoso.server.gsp!,
    ...(virtuoso.server.fastWrites ? { SPARQL_FAST_WRITES: virtuoso.server.fastWrites } : {}),
    ...(virtuoso.server.textIndex ? { SPARQL_TEXT_INDEX: virtuoso.server.textIndex } : {}),
  };
  const replica = async () => {
    const dir = mkdtempSync(join(tmpdir(), 'registry-storew-'));
    dirs.push(dir);
    const server = await startProcess(dir, await freePort(), env, '/health/ready');
    servers.push(server);
    return server;
  };
  try {
    const a = await replica();
    await json(`${a.url}/v1/orgs/bench`, 'PUT', {});
    for (let p = 0; p < PROJECTS; p++) await json(`${a.url}/v1/projects/bench/p${p}`, 'PUT', {});
    await phase('one replica', [a.url], 0, N, { holder: a.child.pid, virtuoso: virtuoso.pid });
    if (process.env['STOREW_PHASES'] === '1') return;
    const b = await replica();
    await phase('two replicas', [a.url, b.url], N, 2 * N, { holder: a.child.pid, other: b.child.pid, virtuoso: virtuoso.pid });
  } finally {
    for (const server of servers) await server.stop();
    await releaseVirtuoso();
    await dropPrefix(prefix);
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  }
  console.log(`load at end: ${uptime()}`);
};

if (process.argv[1]?.endsWith('storeWriter.js')) await main();
