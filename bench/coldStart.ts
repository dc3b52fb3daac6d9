/**
 * A replica's cold start on the Redis layout: one log populated with `COLD_N` resources (default
 * 10,000, through one replica, concurrency 8), then replicas started on empty data directories
 * until `/health/ready`, with their RSS once ready. `COLD_MAINS=/a/dist/src/main.js,/b/dist/src/main.js`
 * alternates builds on the same log (A, B, A, B: `COLD_ROUNDS` rounds), so their figures compare.
 * `COLD_STORE=virtuoso` puts every replica on one external store (a Virtuoso this bench starts; the
 * store's writer caught up before the cold starts), the production layout.
 * `node dist/bench/coldStart.js`
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { assetPath } from '../src/util/assets.js';
import { freePort } from '../test/support/process.js';
import { dropPrefix, REDIS_URL, uniquePrefix } from '../test/support/redis.js';
import { clearVirtuoso, releaseVirtuoso, storeEnv, useVirtuoso } from '../test/support/virtuoso.js';

const mains = (process.env['COLD_MAINS'] ?? assetPath('dist', 'src', 'main.js')).split(',');
const N = Number(process.env['COLD_N'] ?? 10_000);
const ROUNDS = Number(process.env['COLD_ROUNDS'] ?? 2);
const json = { 'content-type': 'application/json' };
const external = process.env['COLD_STORE'] === 'virtuoso';
let storeSettings: Record<string, string> = {};

interface Started {
  url: string;
  child: ChildProcess;
  readyMillis: number;
  stop(): Promise<void>;
}

const startReplica = async (main: string, prefix: string): Promise<Started> => {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'bench-cold-'));
  const t0 = performance.now();
  const child = spawn(process.execPath, [main], {
    env: {
      ...process.env,
      PORT: String(port),
      DATA_DIR: dir,
      REDIS_URL,
      REDIS_PREFIX: prefix,
      LOG_LEVEL: 'warn',
      STORAGE_PASSWORD: 'bench',
      WORKERS: '1',
      ...storeSettings,
    },
    stdio: 'ignore',
  });
  const exited = new Promise((r) => child.once('exit', r));
  const url = `http://127.0.0.1:${port}`;
  for (;;) {
    if ((await fetch(`${url}/health/ready`).catch(() => undefined))?.ok) break;
    if (child.exitCode !== null) throw new Error(`${main} exited`);
    await new Promise((r) => setTimeout(r, 25));
  }
  const readyMillis = performance.now() - t0;
  return {
    url,
    child,
    readyMillis,
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
};

/** Resident memory of a process (Linux), in MiB. */
const rssMiB = (pid: number): number => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;

const run = async () => {
  const prefix = uniquePrefix('bench-cold');
  if (external) {
    const virtuoso = await useVirtuoso();
    await clearVirtuoso(virtuoso.server);
    storeSettings = storeEnv(virtuoso.server);
  }
  try {
    const writer = await startReplica(mains[mains.length - 1]!, prefix);
    await fetch(`${writer.url}/v1/orgs/cold`, { method: 'PUT', headers: json, body: '{}' });
    await fetch(`${writer.url}/v1/projects/cold/p`, { method: 'PUT', headers: json, body: '{}' });
    let next = 0;
    const t0 = performance.now();
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (next < N) {
          const i = next++;
          const body = JSON.stringify({ '@type': 'http://x/T', 'http://x/n': i, 'http://x/name': `item ${i}` });
          const reply = await fetch(`${writer.url}/v1/resources/cold/p/_/r${i}`, { method: 'PUT', headers: json, body });
          if (!reply.ok) throw new Error(`create ${i}: ${reply.status} ${await reply.text()}`);
        }
      }),
    );
    console.log(`populated ${N} resources in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    // On the external store a listing answers 503 while the store's writer is behind the log.
    while (external && (await fetch(`${writer.url}/v1/resources/cold/p?size=1`)).status === 503) await new Promise((r) => setTimeout(r, 500));
    if (external) console.log(`store caught up ${((performance.now() - t0) / 1000).toFixed(1)} s after the first create`);
    await writer.stop();
    for (let round = 0; round < ROUNDS; round++)
      for (const main of mains) {
        const replica = await startReplica(main, prefix);
        const probe = await fetch(`${replica.url}/v1/resources/cold/p/_/r${N - 1}`);
        console.log(
          `${main}: ready in ${(replica.readyMillis / 1000).toFixed(2)} s on an empty data directory, RSS ${rssMiB(replica.child.pid!).toFixed(0)} MiB, last item ${probe.status}`,
        );
        await replica.stop();
      }
  } finally {
    await dropPrefix(prefix);
    if (external) await releaseVirtuoso();
  }
};

await run();
