import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../test/support/process.js';
import { startProcess } from './harness.js';
import type { ServerProcess } from './harness.js';

/**
 * Where an embedded registry's memory goes: `node dist/bench/memory.js [N]` (default 10,000)
 * creates N resources of ~25 properties over HTTP (as `bench/scale.ts`, spread over
 * `MEM_PROJECTS` projects, default 10, `MEM_CONCURRENCY` at once, default 16), waits until every
 * projection applied them, asks each project one SPARQL query (so the query side holds them too),
 * then prints the process' RSS and its parts from `/proc/<pid>/smaps`: each WebAssembly memory
 * (one per thread running Oxigraph, a reservation of several GiB), the rest of the anonymous
 * memory (the JavaScript heaps, SQLite, buffers), and the files mapped. Then restarts it on its
 * data directory and prints the time until ready and the RSS again. After each, the RSS once more
 * once the query workers were idle past `SPARQL_WORKER_IDLE_MILLIS` (the bench sets it to
 * `MEM_IDLE_MILLIS`, default 10,000, and waits that long and 5 s more). Each line also gives the threads and the main
 * thread's JavaScript heap and external memory (`/metrics`). `BENCH_A_DIR=<built tree>`
 * runs that tree's server instead (`BENCH_A_DIR/dist/src/main.js`); extra settings pass through
 * the environment as for the server (`SPARQL_WORKERS=1`, ...); `MEM_KEEP=1` keeps the data directory,
 * and `MEM_DIR=<it>` measures only a restart on it (and its RSS before any query).
 */
const N = Number(process.argv[2] ?? 10_000);
const PROJECTS = Number(process.env['MEM_PROJECTS'] ?? 10);
const IDLE_MILLIS = Number(process.env['MEM_IDLE_MILLIS'] ?? 10_000);
const CONCURRENCY = Number(process.env['MEM_CONCURRENCY'] ?? 16);
const BASE = 'http://registry.bench';
const CONTEXT = {
  '@vocab': 'http://schema.org/',
  ex: 'http://example.org/vocab/',
  knows: { '@id': 'http://schema.org/knows', '@type': '@id' },
  colleague: { '@id': 'http://schema.org/colleague', '@type': '@id' },
};
const CITIES = ['Oxford', 'Cambridge', 'London', 'Geneva', 'Lausanne', 'Zurich', 'Bern', 'Basel'];
const project = (i: number) => `bench/p${i % PROJECTS}`;
const local = (i: number) => Math.floor(i / PROJECTS);

const payload = (i: number): Record<string, unknown> => {
  const j = local(i);
  const base = `${BASE}/v1/resources/${project(i)}/_/`;
  const doc: Record<string, unknown> = {
    '@context': CONTEXT,
    '@type': ['Person', `ex:Kind${j % 5}`],
    name: `person ${String(j).padStart(7, '0')} ${CITIES[j % CITIES.length]}`,
    age: 18 + (j % 60),
    city: CITIES[(j * 7) % CITIES.length],
    knows: `${base}r${Math.max(0, j - 1)}`,
    colleague: `${base}r${Math.floor(j / 2)}`,
  };
  for (let p = 0; p < 20; p++) doc[`ex:p${p}`] = p % 3 === 0 ? j * p : `value ${p} of ${j}`;
  return doc;
};

const send = async (url: string, method: string, body?: unknown, headers: Record<string, string> = {}): Promise<Response> => {
  for (let attempt = 0; ; attempt++) {
    const reply = await fetch(url, {
      method,
      headers: { 'content-type': 'application/json', ...headers },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    await reply.arrayBuffer();
    if (reply.ok || (attempt > 0 && reply.status === 409)) return reply;
    if (reply.status !== 503 || attempt > 20) throw new Error(`${method} ${url}: ${reply.status}`);
    await new Promise((r) => setTimeout(r, 500));
  }
};

interface Parts {
  threads: number;
  rss: number;
  wasm: number[];
  anonymous: number;
  files: number;
}

/**
 * The process' resident memory by part, from smaps. A WebAssembly memory is a reservation of
 * several GiB of which the part in use is readable: mappings followed at once by an inaccessible
 * one that, with them, spans 4 GiB or more.
 */
const parts = (pid: number): Parts => {
  const text = readFileSync(`/proc/${pid}/smaps`, 'utf8');
  const maps: { start: number; end: number; access: string; file: boolean; rss: number }[] = [];
  for (const line of text.split('\n')) {
    const header = /^([0-9a-f]+)-([0-9a-f]+) (\S+) \S+ \S+ \d+\s*(.*)$/.exec(line);
    if (header) maps.push({ start: parseInt(header[1]!, 16), end: parseInt(header[2]!, 16), access: header[3]!, file: header[4]!.startsWith('/'), rss: 0 });
    const rss = /^Rss:\s+(\d+) kB/.exec(line);
    if (rss) maps[maps.length - 1]!.rss = Number(rss[1]) * 1024;
  }
  const threads = Number(/^Threads:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]);
  const result: Parts = { threads, rss: 0, wasm: [], anonymous: 0, files: 0 };
  // Readable anonymous mappings adjoining each other up to an inaccessible one: one reservation when they span 4 GiB or more.
  let run: typeof maps = [];
  for (const map of maps) {
    result.rss += map.rss;
    if (map.file) {
      result.files += map.rss;
      run = [];
      continue;
    }
    if (run.length && run[run.length - 1]!.end !== map.start) run = [];
    if (!map.access.startsWith('---')) {
      run.push(map);
      result.anonymous += map.rss;
      continue;
    }
    if (run.length && map.end - run[0]!.start >= 4 * 1024 ** 3) {
      const held = run.reduce((sum, m) => sum + m.rss, 0);
      result.wasm.push(held);
      result.anonymous -= held;
    }
    run = [];
  }
  return result;
};

const mib = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MiB`;

/** The main thread's heap and external memory, from `/metrics` (absent from builds before it). */
const mainThread = async (url: string): Promise<string> => {
  const text = await (await fetch(`${url}/metrics`)).text();
  const part = (name: string) => new RegExp(`^registry_process_memory_bytes\\{part="${name}"\\} (\\S+)`, 'm').exec(text)?.[1];
  const [used, total, external] = [part('heap_used'), part('heap_total'), part('external')];
  const quads = /^registry_store_quads (\S+)/m.exec(text)?.[1];
  const heap = used === undefined ? '' : `; main thread heap ${mib(Number(used))} used of ${mib(Number(total))}, external ${mib(Number(external))}`;
  return `${heap}; ${quads} quads in the store`;
};

const show = async (label: string, server: ServerProcess) => {
  const p = parts(server.child.pid!);
  console.log(
    `${label}: RSS ${mib(p.rss)}; ${p.threads} threads; WebAssembly memories ${p.wasm.length ? p.wasm.map(mib).join(' + ') : 'none'}; other anonymous ${mib(p.anonymous)}; files ${mib(p.files)}${await mainThread(server.url)}`,
  );
};

const caughtUp = async (url: string): Promise<void> => {
  for (;;) {
    const text = await (await fetch(`${url}/metrics`)).text();
    const lags = [...text.matchAll(/^registry_projection_lag\{projection="([^"]*)"\} (\d+)/gm)];
    if (lags.length && lags.every(([, , lag]) => lag === '0')) return;
    await new Promise((r) => setTimeout(r, 200));
  }
};

const start = (dataDir: string, port: number): Promise<ServerProcess & { readyMillis: number }> => {
  const env = {
    LOG_LEVEL: 'warn',
    METRICS: 'open',
    STORAGE_PASSWORD: 'bench',
    READ_BARRIER_MILLIS: '60000',
    BASE_URL: BASE,
    SPARQL_WORKER_IDLE_MILLIS: String(IDLE_MILLIS),
    // As `npm start` and docker/start.sh run it (set MALLOC_ARENA_MAX to another value to compare).
    MALLOC_ARENA_MAX: process.env['MALLOC_ARENA_MAX'] ?? '2',
  };
  const tree = process.env['BENCH_A_DIR'];
  return tree ? startProcessIn(tree, dataDir, port, env) : startProcess(dataDir, port, env, '/health/ready');
};

/** The server of another built tree, as `startProcess` starts this one's. */
const startProcessIn = async (tree: string, dataDir: string, port: number, env: Record<string, string>) => {
  const { spawn } = await import('node:child_process');
  const started = performance.now();
  const child = spawn(process.execPath, ['--max-old-space-size=8192', join(tree, 'dist', 'src', 'main.js')], {
    env: { ...process.env, PORT: String(port), DATA_DIR: dataDir, ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  process.once('exit', () => child.kill('SIGKILL'));
  const url = `http://127.0.0.1:${port}`;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`registry exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${url}/health/ready`)).ok) break;
    } catch {
      /* not yet */
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    url,
    child,
    readyMillis: performance.now() - started,
    stop: () => new Promise<void>((resolve) => (child.once('exit', () => resolve()), child.kill('SIGTERM'))),
  };
};

const sparqlEach = async (url: string): Promise<void> => {
  for (let p = 0; p < PROJECTS; p++) {
    const reply = await fetch(`${url}/v1/views/bench/p${p}/graph/sparql`, {
      method: 'POST',
      headers: { 'content-type': 'application/sparql-query', accept: 'application/sparql-results+json' },
      body: 'SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }',
    });
    const text = await reply.text();
    if (p === 0) console.log(`  SPARQL count in p0: ${reply.status} ${text.replace(/\s+/g, ' ').slice(-80)}`);
  }
};

/** Past the query workers' idle time: those that loaded projects are replaced by fresh ones. */
const idle = async (): Promise<void> => {
  await new Promise((r) => setTimeout(r, IDLE_MILLIS + 5_000));
  await show(`  then ${IDLE_MILLIS / 1000 + 5} s without a query`, server);
};

/** `MEM_DIR=<a kept data directory>`: only the restart on it is measured (the directory is kept). */
const kept = process.env['MEM_DIR'];
const dataDir = kept ?? mkdtempSync(join(tmpdir(), 'registry-memory-'));
let server = await start(dataDir, await freePort());
try {
  await show('started', server);
  if (!kept) {
    await send(`${server.url}/v1/orgs/bench`, 'PUT', {});
    for (let p = 0; p < PROJECTS; p++) await send(`${server.url}/v1/projects/bench/p${p}`, 'PUT', {});
    const began = performance.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        for (let i = next++; i < N; i = next++) await send(`${server.url}/v1/resources/${project(i)}/_/r${local(i)}`, 'PUT', payload(i));
      }),
    );
    console.log(`${N} creates: ${Math.round(N / ((performance.now() - began) / 1000))}/s`);
    await caughtUp(server.url);
    await sparqlEach(server.url);
    await new Promise((r) => setTimeout(r, 1_000));
    await show(`after ${N}`, server);
    await idle();
    await server.stop();
    server = await start(dataDir, await freePort());
    console.log(`restart on its data directory: ready in ${(server.readyMillis / 1000).toFixed(1)} s`);
  }
  await caughtUp(server.url);
  await show('caught up, before any query', server);
  await sparqlEach(server.url);
  await new Promise((r) => setTimeout(r, 1_000));
  await show('after the restart', server);
  await idle();
} finally {
  await server.stop();
  if (process.env['MEM_KEEP'] || kept) console.log(`data directory kept: ${dataDir}`);
  else rmSync(dataDir, { recursive: true, force: true });
}
