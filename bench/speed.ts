import { execFileSync, execSync, spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { assetPath } from '../src/util/assets.js';
import { MINIMUM_PERMISSIONS } from '../src/kernel/permissions.js';
import { OidcIssuer } from '../test/support/oidcIssuer.js';
import { payload } from './resources.js';
import { phaseTable, type Window } from './phases.js';

/**
 * Issue 22's benchmark: today's tree against the registry before access control, files, search and
 * operations (BASELINE), each started as `npm start` does (`node dist/src/main.js`) on a fresh data
 * directory, one fresh server per round, rounds alternated A, B three times. Today's runs with every
 * capability on: a realm of a loopback OpenID provider with the root ACL locked to it (every request
 * carries a verified bearer token), the text index, metrics and request logs (to a file).
 *
 * `node dist/bench/speed.js [N]`            throughput, medians and ratios, CPU per thread under writes
 * `node dist/bench/speed.js profile [N]`    CPU µs per phase per request (`--cpu-prof`), main and workers
 *
 * The baseline is extracted with `git archive` into BENCH_BASELINE_DIR (default
 * /tmp/registry-base-<commit>), installed with its own `npm ci` and built, once.
 */
export const BASELINE = '2cd5ea8';
const CONCURRENCY = 8;

interface Tree {
  name: string;
  dir: string;
  /** Access control with a realm, text index, metrics, request logs. */
  capabilities: boolean;
  /** Settings of this tree's server besides the benchmark's (BENCH_A_ENV: to compare two settings of one build). */
  env?: Record<string, string>;
}

/** `NAME=value NAME=value` as an environment. */
const settings = (line: string | undefined): Record<string, string> =>
  Object.fromEntries(
    (line ?? '')
      .split(/\s+/)
      .filter(Boolean)
      .map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]),
  );

const sh = (command: string, cwd: string) => execSync(command, { cwd, stdio: ['ignore', 'ignore', 'inherit'] });

/** The baseline's own folder: its sources at BASELINE, its own dependencies and build. */
export const baselineTree = (): Tree => {
  const dir = process.env['BENCH_BASELINE_DIR'] ?? join(tmpdir(), `registry-base-${BASELINE}`);
  if (!existsSync(join(dir, 'package.json'))) {
    mkdirSync(dir, { recursive: true });
    const archive = execFileSync('git', ['-C', assetPath(), 'archive', BASELINE], { maxBuffer: 1 << 30 });
    execFileSync('tar', ['-x', '-C', dir], { input: archive });
  }
  if (!existsSync(join(dir, 'node_modules'))) sh('npm ci --no-audit --no-fund', dir);
  if (!existsSync(join(dir, 'dist', 'src', 'main.js'))) sh('npm run build', dir);
  return { name: BASELINE, dir, capabilities: false };
};

/** Today's tree; BENCH_TODAY_DIR names a built copy of it (so that the working tree can be rebuilt meanwhile). */
export const todayTree = (): Tree => ({ name: 'today', dir: process.env['BENCH_TODAY_DIR'] ?? assetPath(), capabilities: true });

/**
 * A: the baseline, or BENCH_A_DIR, a built copy of a later tree (with every capability on) to compare
 * two of today's versions; BENCH_A_ENV (`NAME=value ...`) sets A's server apart (two settings of one build).
 */
const treeA = (): Tree => {
  const dir = process.env['BENCH_A_DIR'];
  return dir === undefined ? baselineTree() : { name: 'A', dir, capabilities: true, env: settings(process.env['BENCH_A_ENV']) };
};

let agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY * 2 });

/** One request on a kept-alive connection (node:http: the client's own cost stays small beside the server's). */
const call = (url: string, method: string, token: string | undefined, body?: unknown): Promise<{ status: number; text: string }> =>
  new Promise((resolve, reject) => {
    const data = body === undefined ? undefined : JSON.stringify(body);
    const headers: Record<string, string> = {};
    if (token) headers['authorization'] = `Bearer ${token}`;
    if (data !== undefined) {
      headers['content-type'] = 'application/json';
      headers['content-length'] = String(Buffer.byteLength(data));
    }
    const req = request(url, { method, headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(data);
  });

const ok = async (url: string, method: string, token: string | undefined, body?: unknown): Promise<void> => {
  const { status, text } = await call(url, method, token, body);
  if (status >= 400) throw new Error(`${method} ${url}: ${status} ${text.slice(0, 300)}`);
};

interface Server {
  url: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

const start = async (tree: Tree, dataDir: string, nodeArgs: string[], env: Record<string, string>): Promise<Server> => {
  const port = 22_000 + Math.floor(Math.random() * 2_000);
  const { REDIS_URL: _r, REDIS_PREFIX: _p, ...inherited } = process.env;
  const child = spawn(process.execPath, ['--max-old-space-size=8192', ...nodeArgs, join(tree.dir, 'dist', 'src', 'main.js')], {
    cwd: tree.dir,
    env: { ...inherited, PORT: String(port), DATA_DIR: join(dataDir, 'data'), BASE_URL: `http://127.0.0.1:${port}`, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  // Request logs go to a pipe read by another process, as a container's stdout: a file on the data
  // directory's disk would add its writes to every fdatasync of the journal.
  child.stdout!.resume();
  const guard = () => child.kill('SIGKILL');
  process.once('exit', guard);
  child.once('exit', () => process.off('exit', guard));
  const url = `http://127.0.0.1:${port}`;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${tree.name} exited with ${child.exitCode}`);
    try {
      if ((await call(`${url}/v1/version`, 'GET', undefined)).status < 500) break;
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    url,
    child,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
};

/** Today's capabilities on: a realm, the root ACL given to an admin, the project's to a group of users. */
const lockDown = async (url: string, provider: OidcIssuer): Promise<{ admin: string; users: string[] }> => {
  await ok(`${url}/v1/realms/bench`, 'PUT', undefined, { name: 'bench', openIdConfig: provider.openIdConfig });
  const admin = await provider.sign({ sub: 'admin' }, { expiresIn: 3_600 });
  // The server's own permissions, not this tree's: an older tree (BENCH_A_DIR) refuses those it does not define.
  const defined = await call(`${url}/v1/permissions`, 'GET', undefined);
  const permissions = defined.status === 200 ? (JSON.parse(defined.text) as { permissions: string[] }).permissions : [...MINIMUM_PERMISSIONS];
  await ok(`${url}/v1/acls?rev=0`, 'PUT', undefined, { acl: [{ identity: { realm: 'bench', subject: 'admin' }, permissions }] });
  await ok(`${url}/v1/orgs/bench`, 'PUT', admin, {});
  await ok(`${url}/v1/projects/bench/main`, 'PUT', admin, {});
  await ok(`${url}/v1/acls/bench/main?rev=0`, 'PUT', admin, {
    acl: [{ identity: { realm: 'bench', group: 'writers' }, permissions: ['resources/read', 'resources/write'] }],
  });
  // Anonymous is refused from now on: the benchmark's requests are authorized by their token.
  const refused = await call(`${url}/v1/resources/bench/main`, 'GET', undefined);
  if (refused.status !== 403) throw new Error(`anonymous listing answered ${refused.status}, not 403: access control is not on`);
  const users = await Promise.all(
    Array.from({ length: CONCURRENCY * 4 }, (_, i) => provider.sign({ sub: `user${i}`, groups: ['writers'] }, { expiresIn: 3_600 })),
  );
  return { admin, users };
};

/** Sum and count of a Prometheus histogram in the server's /metrics. */
const histogram = async (url: string, token: string, name: string): Promise<{ sum: number; count: number }> => {
  const { text } = await call(`${url}/metrics`, 'GET', token);
  const total = (suffix: string) =>
    text
      .split('\n')
      .filter((line) => line.startsWith(`${name}_${suffix}`))
      .reduce((sum, line) => sum + Number(line.slice(line.lastIndexOf(' ') + 1)), 0);
  return { sum: total('sum'), count: total('count') };
};

/** CPU seconds of each thread of a process (Linux /proc), by thread id. */
const threadCpu = (pid: number): Map<number, number> => {
  const ticks = new Map<number, number>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks.set(Number(tid), (Number(fields[11]) + Number(fields[12])) / 100);
    } catch {
      /* the thread ended */
    }
  }
  return ticks;
};

/** How busy each thread was over an interval: the main thread first, then the others by CPU. */
const busyThreads = (pid: number, before: Map<number, number>, after: Map<number, number>, seconds: number): string => {
  const busy = [...after].map(([tid, cpu]) => ({ tid, share: (cpu - (before.get(tid) ?? 0)) / seconds }));
  const main = busy.find((b) => b.tid === pid)?.share ?? 0;
  const others = busy.filter((b) => b.tid !== pid && b.share >= 0.02).sort((a, b) => b.share - a.share);
  const total = busy.reduce((sum, b) => sum + b.share, 0);
  return `main ${(main * 100).toFixed(0)} %, ${others.map((o) => `${(o.share * 100).toFixed(0)} %`).join(', ') || 'no other thread'} (process ${(total * 100).toFixed(0)} % of one core)`;
};

interface Round {
  rates: Record<Op, number>;
  /** CPU milliseconds of the whole server process (every thread) per request: steadier than rates on a shared machine. */
  cpu: Record<Op, number>;
  threads: Partial<Record<Op, string>>;
  windows: Window[];
}

export type Op = 'create' | 'fetch' | 'update';
const OPS: Op[] = ['create', 'fetch', 'update'];

/** One fresh server: create, fetch and update `count` resources at concurrency 8. */
const round = async (tree: Tree, count: number, provider: OidcIssuer, nodeArgs: string[] = []): Promise<Round & { dir: string }> => {
  const dir = mkdtempSync(join(tmpdir(), `registry-speed-${tree.name}-`));
  const env: Record<string, string> = { ...(tree.capabilities ? { LOG_LEVEL: 'info', METRICS: 'permission', TEXT_INDEX: 'on' } : {}), ...tree.env };
  const server = await start(tree, dir, nodeArgs, env);
  const { url } = server;
  const pid = server.child.pid!;
  try {
    let tokens: (string | undefined)[] = [undefined];
    let admin: string | undefined;
    if (tree.capabilities) ({ admin, users: tokens } = await lockDown(url, provider));
    else {
      await ok(`${url}/v1/orgs/bench`, 'PUT', undefined, {});
      await ok(`${url}/v1/projects/bench/main`, 'PUT', undefined, {});
    }
    const base = `${url}/v1/resources/bench/main/_/`;
    const token = (i: number) => tokens[i % tokens.length];
    const ops: Record<Op, (i: number) => Promise<void>> = {
      create: (i) => ok(`${base}r${i}`, 'PUT', token(i), payload(i, base)),
      fetch: (i) => ok(`${base}r${(i * 7919) % count}`, 'GET', token(i)),
      update: (i) => ok(`${base}r${i}?rev=1`, 'PUT', token(i), payload(i, base, 1)),
    };
    const rates = {} as Record<Op, number>;
    const cpu = {} as Record<Op, number>;
    const threads: Partial<Record<Op, string>> = {};
    const windows: Window[] = [];
    for (const op of OPS) {
      const appendsBefore = admin && (await histogram(url, admin, 'registry_event_log_append_seconds'));
      const cpuBefore = threadCpu(pid);
      const from = process.hrtime.bigint();
      let next = 0;
      await Promise.all(
        Array.from({ length: CONCURRENCY }, async () => {
          for (let i = next++; i < count; i = next++) await ops[op](i);
        }),
      );
      const to = process.hrtime.bigint();
      const seconds = Number(to - from) / 1e9;
      rates[op] = count / seconds;
      const cpuAfter = threadCpu(pid);
      cpu[op] = ([...cpuAfter].reduce((sum, [tid, t]) => sum + t - (cpuBefore.get(tid) ?? 0), 0) * 1000) / count;
      if (op !== 'fetch') threads[op] = busyThreads(pid, cpuBefore, cpuAfter, seconds);
      if (admin && appendsBefore && op !== 'fetch') {
        const appends = await histogram(url, admin, 'registry_event_log_append_seconds');
        const n = appends.count - appendsBefore.count;
        threads[op] += `; append ${(((appends.sum - appendsBefore.sum) / Math.max(1, n)) * 1000).toFixed(1)} ms on average (journal, fdatasync)`;
      }
      windows.push({ op, fromMicros: Number(from / 1000n), toMicros: Number(to / 1000n), requests: count });
    }
    return { rates, cpu, threads, windows, dir };
  } finally {
    await server.stop();
  }
};

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** Throughput: A, B alternated three times, one fresh server each; medians, ratios, CPU per thread. */
export const benchSpeed = async (count: number, rounds = 3): Promise<void> => {
  agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY * 2 });
  const trees = [treeA(), todayTree()];
  const provider = await OidcIssuer.start();
  const results = new Map<string, Round[]>(trees.map((t) => [t.name, []]));
  console.log(
    `\nspeed: ${count} JSON-LD documents of ~25 properties, concurrency ${CONCURRENCY}, fresh server per round, ${trees[0]!.name === 'A' ? `A (${trees[0]!.dir})` : `${BASELINE} (baseline)`} and today alternated ${rounds} times;` +
      ` today with a realm and locked ACLs (bearer tokens), text index, metrics, request logs`,
  );
  try {
    for (let r = 0; r < rounds; r++)
      for (const tree of trees) {
        const result = await round(tree, count, provider);
        rmSync(result.dir, { recursive: true, force: true });
        results.get(tree.name)!.push(result);
        console.log(
          `  round ${r + 1} ${tree.name.padEnd(8)} ${OPS.map((op) => `${op} ${result.rates[op].toFixed(0).padStart(5)}/s (${result.cpu[op].toFixed(2)} ms CPU)`).join('  ')}`,
        );
        for (const op of ['create', 'update'] as const) console.log(`    threads under ${op}: ${result.threads[op]}`);
      }
  } finally {
    await provider.stop();
    agent.destroy();
  }
  const [base, today] = trees.map((t) => results.get(t.name)!);
  const then = trees[0]!.name === 'A' ? 'A' : `\`${BASELINE}\``;
  console.log(`\n| per second (median of ${rounds}) | ${then} | today | today ÷ then |\n|---|---|---|---|`);
  for (const op of OPS) {
    const then = median(base!.map((x) => x.rates[op]));
    const now = median(today!.map((x) => x.rates[op]));
    console.log(`| ${op} | ${then.toFixed(0)} | ${now.toFixed(0)} | ${(now / then).toFixed(2)} |`);
  }
  console.log(`\n| server CPU ms per request, all threads (median of ${rounds}) | ${then} | today | then ÷ today |\n|---|---|---|---|`);
  for (const op of OPS) {
    const then = median(base!.map((x) => x.cpu[op]));
    const now = median(today!.map((x) => x.cpu[op]));
    console.log(`| ${op} | ${then.toFixed(2)} | ${now.toFixed(2)} | ${(then / now).toFixed(2)} |`);
  }
};

/** CPU per phase per request from `--cpu-prof` profiles of each thread, for both trees (alternated). */
export const benchPhases = async (count: number): Promise<void> => {
  agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY * 2 });
  const trees = [treeA(), todayTree()];
  const provider = await OidcIssuer.start();
  try {
    for (const tree of trees) {
      const profiles = mkdtempSync(join(tmpdir(), `registry-prof-${tree.name}-`));
      const result = await round(tree, count, provider, ['--cpu-prof', `--cpu-prof-dir=${profiles}`, '--cpu-prof-interval=250']);
      rmSync(result.dir, { recursive: true, force: true });
      console.log(
        `\n${tree.name}${tree.name === BASELINE ? ' (baseline)' : ''}: CPU µs per request by phase, main thread and workers (${count} requests per operation, concurrency ${CONCURRENCY}; profiles in ${profiles})`,
      );
      console.log(`  rates under the profiler: ${OPS.map((op) => `${op} ${result.rates[op].toFixed(0)}/s`).join(', ')}`);
      console.log(phaseTable(profiles, result.windows));
    }
  } finally {
    await provider.stop();
    agent.destroy();
  }
};

if (process.argv[1]?.endsWith('speed.js')) {
  const load = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
  console.log(`load average before the run: ${load} (figures from a busy machine vary; the ratios of alternated rounds less)`);
  const profile = process.argv[2] === 'profile';
  const count = Number((profile ? process.argv[3] : process.argv[2]) ?? process.env['BENCH_SPEED_N'] ?? 2_000);
  if (profile) await benchPhases(count);
  else await benchSpeed(count, Number(process.env['BENCH_ROUNDS'] ?? 3));
}
