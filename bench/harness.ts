import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { assetPath } from '../src/util/assets.js';

/** The p-th percentile (0-100) of some latencies. */
export const percentile = (millis: number[], p: number): number => {
  const sorted = [...millis].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
};

/** Latency statistics of one benchmarked operation. */
export const summarize = (name: string, millis: number[], wallMillis: number): string => {
  const rate = (millis.length / wallMillis) * 1000;
  return `${name.padEnd(34)} ${String(millis.length).padStart(7)} ops  ${rate.toFixed(0).padStart(7)} ops/s  p50 ${percentile(millis, 50).toFixed(2).padStart(7)} ms  p99 ${percentile(millis, 99).toFixed(2).padStart(7)} ms`;
};

/** Runs `count` operations with `concurrency` workers and prints the figures. */
export const measure = async (name: string, count: number, concurrency: number, op: (i: number) => Promise<void>): Promise<number[]> => {
  const times: number[] = [];
  let next = 0;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      for (let i = next++; i < count; i = next++) {
        const t = performance.now();
        await op(i);
        times.push(performance.now() - t);
      }
    }),
  );
  console.log(summarize(name, times, performance.now() - start));
  return times;
};

export interface ServerProcess {
  url: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

const withoutRedis = (env: NodeJS.ProcessEnv): NodeJS.ProcessEnv => {
  const { REDIS_URL: _url, REDIS_PREFIX: _prefix, ...rest } = env;
  return rest;
};

/** The registry as a separate process (`node dist/src/main.js`), ready when `readyPath` (by default /v1/version) answers. */
export const startProcess = async (
  dataDir: string,
  port: number,
  env: Record<string, string> = {},
  readyPath = '/v1/version',
): Promise<ServerProcess & { readyMillis: number }> => {
  const started = performance.now();
  const child = spawn(process.execPath, ['--max-old-space-size=8192', assetPath('dist', 'src', 'main.js')], {
    // The embedded defaults unless the caller names other settings (CI exports REDIS_URL for tests).
    env: { ...withoutRedis(process.env), PORT: String(port), DATA_DIR: dataDir, BASE_URL: `http://127.0.0.1:${port}`, ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  // A benchmark stopped midway (Ctrl-C, a closed pipe) must not leave its server running.
  const orphanGuard = () => child.kill('SIGKILL');
  process.once('exit', orphanGuard);
  child.once('exit', () => process.off('exit', orphanGuard));
  const url = `http://127.0.0.1:${port}`;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`registry exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${url}${readyPath}`)).ok) break;
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  const readyMillis = performance.now() - started;
  return {
    url,
    child,
    readyMillis,
    stop: () =>
      new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
};

export const json = async (url: string, method = 'GET', body?: unknown): Promise<unknown> => {
  const res = await fetch(url, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  if (res.status >= 400) throw new Error(`${method} ${url}: ${res.status} ${text.slice(0, 300)}`);
  return text ? JSON.parse(text) : undefined;
};

/** A PUT retried while the replica answers 503; returns once written. */
export const put = async (url: string, body: unknown): Promise<void> => {
  // A loaded machine may answer 503 (a projection behind); a retried create that had been written is 409.
  for (let attempt = 0; ; attempt++) {
    const reply = await fetch(url, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const text = await reply.text();
    if (reply.ok || (attempt > 0 && reply.status === 409)) return;
    if (reply.status !== 503 || attempt > 20) throw new Error(`PUT ${url}: ${reply.status} ${text.slice(0, 300)}`);
    await new Promise((r) => setTimeout(r, 500));
  }
};
