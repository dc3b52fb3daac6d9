import { execSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../test/support/process.js';
import { dropPrefix, REDIS_URL, uniquePrefix } from '../test/support/redis.js';
import { releaseVirtuoso, storeEnv, useVirtuoso } from '../test/support/virtuoso.js';
import { json, percentile, put, startProcess } from './harness.js';
import type { ServerProcess } from './harness.js';

/**
 * Issue 34's read-your-writes under load (`node dist/bench/readBarrier.js`, or `BENCH_ONLY=barrier
 * npm run bench`): two replicas on one Redis (a prefix of its own) and one Virtuoso on loopback. At
 * each rate of `BARRIER_RATE` (comma-separated, default 400, writes/s), for `BARRIER_SECONDS` (default
 * 30): a background writer creates resources of ~10 properties open-loop (each started on its
 * schedule whatever the ones before did, through both replicas in turn, at most `BARRIER_IN_FLIGHT`
 * outstanding, default 256: past it a write is not sent and counted), and a prober, one thing at a
 * time, creates a resource in a project of its own on replica A, then at once lists that project on
 * replica B, or `q`s the new resource's one word there. Each read waits at B's read barrier for the
 * store to reach the log head as of its arrival (READ_BARRIER_MILLIS, `BARRIER_MILLIS` here, default
 * the server's 5,000; past it 503 `ProjectionsBehind`, counted as refused), then queries the store.
 * A read that answers without the write (a listing's total short, `q` not finding it) is counted as
 * stale: read-your-writes broken. The same probes with no writer first ("idle") give the reads'
 * own cost with one write to wait for, and the same reads with no write before them their cost alone. Between rates the store is let catch up
 * (at most `BARRIER_CATCHUP_SECONDS`, default 60). Prints a table; `uptime` at start and end.
 */
const rates = (process.env['BARRIER_RATE'] ?? '400').split(',').map(Number);
const SECONDS = Number(process.env['BARRIER_SECONDS'] ?? 30);
const IN_FLIGHT = Number(process.env['BARRIER_IN_FLIGHT'] ?? 256);
const CATCHUP_SECONDS = Number(process.env['BARRIER_CATCHUP_SECONDS'] ?? 60);
const PROJECTS = 10;
const PROBED = 'bench/probe';
process.env['VIRTUOSO_BUFFERS'] ??= '30000';
process.env['VIRTUOSO_QUERY_MEM'] ??= '512M';
const uptime = () => execSync('uptime').toString().trim();
const CONTEXT = { '@vocab': 'http://schema.org/', ex: 'http://example.org/vocab/' };

/** A background write: ~10 properties. */
const payload = (i: number): Record<string, unknown> => {
  const doc: Record<string, unknown> = { '@context': CONTEXT, '@type': 'Person', name: `person ${i}`, age: 18 + (i % 60) };
  for (let p = 0; p < 6; p++) doc[`ex:p${p}`] = p % 2 === 0 ? i * p : `value ${p} of ${i}`;
  return doc;
};
/** The prober's word for its n-th resource, letters only (n in base 26): one resource holds it. */
const word = (n: number) => `probe${[...n.toString(26).padStart(5, '0')].map((d) => String.fromCharCode(97 + parseInt(d, 26))).join('')}`;

/** The store projection's lag (events of the log not yet in the store) as a replica reports it. */
const storeLag = async (url: string): Promise<number> => {
  const text = await (await fetch(`${url}/metrics`)).text();
  return Number(/^registry_projection_lag\{projection="store"\} (\d+)/m.exec(text)?.[1] ?? Number.NaN);
};

/** What the writer did over a phase. */
interface Written {
  sent: number;
  done: number;
  failed: number;
  skipped: number;
  millis: number;
  failures: Map<string, number>;
}

/** Writes at `rate`/s until `stop()` says so, open-loop: a write's start does not wait for the ones before. */
const backgroundWriter = (urls: string[], rate: number, first: number, stop: () => boolean): Promise<Written> =>
  new Promise((resolve) => {
    const written: Written = { sent: 0, done: 0, failed: 0, skipped: 0, millis: 0, failures: new Map() };
    if (rate <= 0) return resolve(written);
    let outstanding = 0;
    let due = 0;
    const started = performance.now();
    const one = async (i: number) => {
      outstanding++;
      try {
        const reply = await fetch(`${urls[i % urls.length]!}/v1/resources/bench/p${i % PROJECTS}/_/w${i}`, {
          method: 'PUT',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(payload(i)),
        });
        await reply.text();
        if (reply.ok) written.done++;
        else {
          written.failed++;
          written.failures.set(String(reply.status), (written.failures.get(String(reply.status)) ?? 0) + 1);
        }
      } catch (error) {
        written.failed++;
        written.failures.set((error as Error).message, (written.failures.get((error as Error).message) ?? 0) + 1);
      } finally {
        outstanding--;
      }
    };
    const tick = setInterval(() => {
      const elapsed = performance.now() - started;
      if (stop()) {
        clearInterval(tick);
        written.millis = elapsed;
        const drained = setInterval(() => outstanding === 0 && (clearInterval(drained), resolve(written)), 20);
        return;
      }
      for (const target = Math.floor((elapsed / 1000) * rate); due < target; due++) {
        if (outstanding >= IN_FLIGHT) written.skipped++;
        else {
          written.sent++;
          void one(first + due);
        }
      }
    }, 5);
  });

/** One probe's reads, by kind. */
interface Probed {
  millis: number[];
  refused: number;
  stale: number;
  errors: number;
}
const probed = (): Probed => ({ millis: [], refused: 0, stale: 0, errors: 0 });

/** A read on B right after a write on A: timed, refused (503 ProjectionsBehind), or stale (the write missing). */
const read = async (into: Probed, url: string, fresh: (body: { _total?: number; _results?: { '@id': string }[] }) => boolean) => {
  const started = performance.now();
  const reply = await fetch(url);
  const text = await reply.text();
  const millis = performance.now() - started;
  if (reply.status === 503 && text.includes('ProjectionsBehind')) into.refused++;
  else if (!reply.ok) into.errors++;
  else {
    into.millis.push(millis);
    if (!fresh(JSON.parse(text) as { _total?: number })) into.stale++;
  }
};

let probes = 0;
/** Probe writes acknowledged: a listing of the probed project holds at least as many. */
let acknowledged = 0;
/** The prober: write on A, list on B; write on A, `q` on B; one at a time until `stop()`. */
const prober = async (a: string, b: string, stop: () => boolean): Promise<{ listing: Probed; q: Probed }> => {
  const listing = probed();
  const q = probed();
  while (!stop()) {
    const n = probes++;
    try {
      await put(`${a}/v1/resources/${PROBED}/_/probe${n}`, { '@context': CONTEXT, '@type': 'Thing', name: `probe ${word(n)}` });
    } catch (error) {
      // A write refused under the load is no probe: noted, and the next one tried.
      console.log(`    probe write ${n} failed: ${(error as Error).message.slice(0, 120)}`);
      continue;
    }
    acknowledged++;
    if (n % 2 === 0) await read(listing, `${b}/v1/resources/${PROBED}?size=1`, (body) => (body._total ?? 0) >= acknowledged);
    else await read(q, `${b}/v1/resources/${PROBED}?q=${word(n)}`, (body) => (body._results ?? []).some((r) => r['@id'].endsWith(`probe${n}`)));
  }
  return { listing, q };
};

const table: string[][] = [];
const row = (cells: string[]) => {
  table.push(cells);
  console.log(`  ${cells.join(' | ')}`);
};
const latency = (p: Probed) =>
  p.millis.length ? `${percentile(p.millis, 50).toFixed(0)} / ${percentile(p.millis, 99).toFixed(0)} / ${Math.max(...p.millis).toFixed(0)}` : '-';
const counts = (p: Probed) => `${p.millis.length + p.refused + p.errors} / ${p.refused} / ${p.stale}${p.errors ? ` (+${p.errors} errors)` : ''}`;

/** Waits (bounded) until the store caught up; says how long, or how far behind it still is. */
const catchUp = async (url: string): Promise<string> => {
  const started = performance.now();
  let lag = await storeLag(url);
  while (lag > 0 && performance.now() - started < CATCHUP_SECONDS * 1000) {
    await new Promise((r) => setTimeout(r, 250));
    lag = await storeLag(url);
  }
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  return lag > 0 ? `${lag} behind after ${seconds} s` : `${seconds} s`;
};

/** One rate for SECONDS: the writer and the prober side by side, the store's lag sampled each second. */
const phase = async (a: ServerProcess, b: ServerProcess, rate: number, first: number): Promise<number> => {
  // Idle, the probes' own cost: a third of a rate's time is enough for it.
  const until = performance.now() + (rate ? SECONDS : Math.max(5, SECONDS / 3)) * 1000;
  const stop = () => performance.now() >= until;
  let maxLag = 0;
  const sampler = setInterval(() => void storeLag(b.url).then((lag) => (maxLag = Math.max(maxLag, lag || 0))), 1_000);
  const [written, { listing, q }] = await Promise.all([backgroundWriter([a.url, b.url], rate, first, stop), prober(a.url, b.url, stop)]);
  clearInterval(sampler);
  const lagAtEnd = await storeLag(b.url);
  const achieved = written.millis ? (written.done / written.millis) * 1000 : 0;
  const failures = [...written.failures].map(([why, n]) => `${n}× ${why.slice(0, 40)}`).join(', ');
  row([
    rate ? String(rate) : 'idle',
    rate ? `${achieved.toFixed(0)}${written.failed + written.skipped ? ` (${written.failed} failed, ${written.skipped} not sent)` : ''}` : '-',
    latency(listing),
    counts(listing),
    latency(q),
    counts(q),
    `${maxLag} / ${lagAtEnd}`,
    rate ? await catchUp(b.url) : '-',
    uptime().replace(/^.*load average: /, ''),
  ]);
  if (failures) console.log(`    writer failures: ${failures}`);
  if (!rate) {
    // The reads' own cost: the same reads with no write before them (nothing to wait for).
    const alone = { listing: probed(), q: probed() };
    const last = probes - 1;
    for (let i = 0; i < 10; i++) {
      await read(alone.listing, `${b.url}/v1/resources/${PROBED}?size=1`, (body) => (body._total ?? 0) >= acknowledged);
      await read(alone.q, `${b.url}/v1/resources/${PROBED}?q=${word(last)}`, (body) => (body._results ?? []).length === 1);
    }
    row([
      'idle, no write before',
      '-',
      latency(alone.listing),
      counts(alone.listing),
      latency(alone.q),
      counts(alone.q),
      '-',
      '-',
      uptime().replace(/^.*load average: /, ''),
    ]);
  }
  return first + written.sent + written.skipped;
};

export const benchReadBarrier = async (): Promise<void> => {
  const start = uptime();
  const barrierMillis = process.env['BARRIER_MILLIS'] ?? '5000';
  console.log(`read barrier: rates ${rates.join(', ')} writes/s, ${SECONDS} s each, READ_BARRIER_MILLIS ${barrierMillis}; load at start: ${start}`);
  const prefix = uniquePrefix('barrier');
  const virtuoso = await useVirtuoso();
  // Two data directories, one per replica; both replicas share the log (Redis) and the store.
  const dirs = [0, 1].map(() => mkdtempSync(join(tmpdir(), 'registry-barrier-')));
  const servers: ServerProcess[] = [];
  const env = {
    LOG_LEVEL: 'warn',
    METRICS: 'open',
    STORAGE_PASSWORD: 'bench',
    READ_BARRIER_MILLIS: barrierMillis,
    // The load stands for many clients, all from this one address here: not capped as one client's.
    MAX_CONNECTIONS_PER_CLIENT: '1000',
    BASE_URL: 'http://registry.bench',
    REDIS_URL,
    REDIS_PREFIX: prefix,
    ...storeEnv(virtuoso.server),
  };
  try {
    for (const dir of dirs) servers.push(await startProcess(dir, await freePort(), env, '/health/ready'));
    const [a, b] = servers as [ServerProcess, ServerProcess];
    await json(`${a.url}/v1/orgs/bench`, 'PUT', {});
    for (let p = 0; p < PROJECTS; p++) await json(`${a.url}/v1/projects/bench/p${p}`, 'PUT', {});
    await json(`${a.url}/v1/projects/${PROBED}`, 'PUT', {});
    row([
      'writes/s asked',
      'achieved',
      'list p50 / p99 / max ms',
      'list probes / refused / stale',
      'q p50 / p99 / max ms',
      'q probes / refused / stale',
      'store lag max / end',
      'store caught up in',
      'load',
    ]);
    let first = 0;
    for (const rate of [0, ...rates]) first = await phase(a, b, rate, first);
  } finally {
    for (const server of servers) await server.stop();
    await releaseVirtuoso();
    await dropPrefix(prefix);
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  }
  console.log(`\nload at start: ${start}\nload at end:   ${uptime()}\n`);
  const widths = table[0]!.map((_, c) => Math.max(...table.map((cells) => cells[c]!.length)));
  for (const cells of table) console.log(cells.map((cell, c) => cell.padEnd(widths[c]!)).join(' | '));
};

if (process.argv[1]?.endsWith('readBarrier.js')) await benchReadBarrier();
