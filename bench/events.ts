import { mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { get } from 'node:http';
import type { ClientRequest, IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Redis } from 'ioredis';
import type { EventLog } from '../src/events/EventLog.js';
import { JournalEventLog } from '../src/events/JournalEventLog.js';
import { RedisEventLog } from '../src/events/RedisEventLog.js';
import { json, measure, startProcess, summarize } from './harness.js';

const REDIS_URL = process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379';
const APPENDS = 5_000;
const SUBSCRIBERS = 100;
const WRITES = 200;
const IDLE_STREAMS = 1_000;

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
const sleep = (millis: number) => new Promise((r) => setTimeout(r, millis));
const freePort = () => 20_000 + Math.floor(Math.random() * 20_000);

const withRedisPrefix = async <T>(run: (prefix: string) => Promise<T>): Promise<T> => {
  const prefix = `bench-events-${process.pid}-${Date.now()}`;
  try {
    return await run(prefix);
  } finally {
    const redis = new Redis(REDIS_URL);
    const keys = await redis.keys(`${prefix}:*`);
    if (keys.length) await redis.del(...keys);
    redis.disconnect();
  }
};

/** Appends of ~1 KB events, one at a time and 64 in flight (distinct keys, so none conflict). */
const appendThroughput = async (name: string, log: EventLog): Promise<void> => {
  const event = (i: number) => ({ type: 'ResourceCreated', instant: new Date().toISOString(), id: `bench-${i}`, source: { text: 'x'.repeat(1000) } });
  const draft = (key: string, i: number) => ({ key, kind: 'resources' as const, org: 'o', project: 'o/p', rev: 1, event: event(i) });
  await measure(`append ${name} (1 in flight)`, APPENDS / 5, 1, async (i) => void (await log.append(draft(`resources/o/p/s${i}`, i), 0)));
  await measure(`append ${name} (64 in flight)`, APPENDS, 64, async (i) => void (await log.append(draft(`resources/o/p/c${i}`, i), 0)));
};

/** Opens an SSE stream and calls `onFrame` with each complete frame's text. */
const subscribe = (url: string, onFrame: (frame: string) => void): Promise<{ req: ClientRequest; res: IncomingMessage }> =>
  new Promise((resolve, reject) => {
    const req = get(url, { agent: false }, (res) => {
      if (res.statusCode !== 200) return reject(new Error(`stream answered ${res.statusCode}`));
      let carry = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        carry += chunk;
        let end: number;
        while ((end = carry.indexOf('\n\n')) !== -1) {
          onFrame(carry.slice(0, end));
          carry = carry.slice(end + 2);
        }
      });
      resolve({ req, res });
    });
    req.on('error', reject);
  });

/** Delay from a write's HTTP response to the arrival of its event at each of 100 subscribers. */
const fanOutDelay = async (name: string, env: Record<string, string>): Promise<void> => {
  const dir = mkdtempSync(join(tmpdir(), 'bench-sse-'));
  const server = await startProcess(dir, freePort(), env);
  try {
    await json(`${server.url}/v1/orgs/bench`, 'PUT', {});
    await json(`${server.url}/v1/projects/bench/p`, 'PUT', {});
    const responded = new Map<number, number>();
    const arrivals: Array<{ i: number; at: number }> = [];
    const streams = await Promise.all(
      Array.from({ length: SUBSCRIBERS }, () =>
        subscribe(`${server.url}/v1/resources/bench/p/events`, (frame) => {
          const match = /\/bench-(\d+)"/.exec(frame);
          if (match) arrivals.push({ i: Number(match[1]), at: performance.now() });
        }),
      ),
    );
    const started = performance.now();
    for (let i = 0; i < WRITES; i++) {
      await json(`${server.url}/v1/resources/bench/p/_/bench-${i}`, 'PUT', { '@type': 'http://schema.org/Thing', i });
      responded.set(i, performance.now());
    }
    const deadline = performance.now() + 30_000;
    while (arrivals.length < WRITES * SUBSCRIBERS && performance.now() < deadline) await sleep(20);
    const wall = performance.now() - started;
    for (const { req } of streams) req.destroy();
    // An event may reach a subscriber before the write's response reaches the writer: that is no delay.
    const delays = arrivals.map(({ i, at }) => Math.max(0, at - responded.get(i)!)).sort((a, b) => a - b);
    console.log(summarize(`SSE delay ${name} (${SUBSCRIBERS} subscribers)`, delays, wall));
    const p99 = percentile(delays, 99);
    console.log(
      `  received ${arrivals.length}/${WRITES * SUBSCRIBERS} events; p50 ${percentile(delays, 50).toFixed(2)} ms, p99 ${p99.toFixed(2)} ms (target p99 < 50 ms: ${p99 < 50 && arrivals.length === WRITES * SUBSCRIBERS ? 'met' : 'NOT met'})`,
    );
  } finally {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
};

const rssBytes = (pid: number): number => {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith('VmRSS:'));
  return Number(/(\d+)/.exec(line ?? '')?.[1] ?? 0) * 1024;
};

/** The server's resident memory before and after 1,000 idle streams are open. */
const idleStreamsMemory = async (): Promise<void> => {
  const dir = mkdtempSync(join(tmpdir(), 'bench-idle-'));
  const server = await startProcess(dir, freePort());
  try {
    await json(`${server.url}/v1/orgs/idle`, 'PUT', {});
    await json(`${server.url}/v1/projects/idle/p`, 'PUT', {});
    // Warm the stream path once so code loading is not counted as per-stream memory.
    const warm = await subscribe(`${server.url}/v1/events`, () => undefined);
    warm.req.destroy();
    await sleep(500);
    const before = rssBytes(server.child.pid!);
    const streams: Array<{ req: ClientRequest }> = [];
    for (let i = 0; i < IDLE_STREAMS; i += 50)
      streams.push(
        ...(await Promise.all(
          Array.from({ length: Math.min(50, IDLE_STREAMS - i) }, () => subscribe(`${server.url}/v1/resources/idle/p/events`, () => undefined)),
        )),
      );
    await sleep(1_000);
    const after = rssBytes(server.child.pid!);
    const growth = (after - before) / 1024 / 1024;
    console.log(
      `idle streams: ${streams.length} open, server RSS ${(before / 1024 / 1024).toFixed(0)} MB → ${(after / 1024 / 1024).toFixed(0)} MB, growth ${growth.toFixed(1)} MB (target < 200 MB: ${growth < 200 ? 'met' : 'NOT met'})`,
    );
    for (const { req } of streams) req.destroy();
  } finally {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
};

/** Event-log and event-stream figures; called by `npm run bench`, or run alone with `node dist/bench/events.js`. */
export async function benchEvents(): Promise<void> {
  console.log('--- event log and event streams ---');
  const dir = mkdtempSync(join(tmpdir(), 'bench-journal-'));
  const journal = await JournalEventLog.open(join(dir, 'events.log'));
  await appendThroughput('journal', journal);
  await journal.close();
  rmSync(dir, { recursive: true, force: true });
  await withRedisPrefix(async (prefix) => {
    const redis = await RedisEventLog.open(REDIS_URL, prefix);
    await appendThroughput('redis', redis);
    await redis.close();
  });
  await fanOutDelay('journal', {});
  await withRedisPrefix((prefix) => fanOutDelay('redis', { REDIS_URL, REDIS_PREFIX: prefix }));
  await idleStreamsMemory();
}

// realpath: `dist` is a link to the build, and Node names modules by where it points.
if (process.argv[1] && import.meta.url === pathToFileURL(realpathSync(process.argv[1])).href) await benchEvents();
