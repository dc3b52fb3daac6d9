/**
 * Replicas on one Redis (issue 20). `node dist/bench/replicas.js [rounds]`:
 * 1. the race (create on A → fetch on B → update on A → update on B → tag on A → fetch by tag on B), 1,000 rounds by default;
 * 2. fetch, create and list per second at concurrency 8 on one replica, then on two (requests alternate, as a balancer does);
 * 3. create with indexing=async against the default.
 * `REGISTRY_MAIN=/path/to/dist/src/main.js` measures another build (a "before" figure).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { assetPath } from '../src/util/assets.js';
import { freePort } from '../test/support/process.js';
import { dropPrefix, REDIS_URL, uniquePrefix } from '../test/support/redis.js';
import { replicaRace } from '../test/support/replicaRace.js';

const main = process.env['REGISTRY_MAIN'] ?? assetPath('dist', 'src', 'main.js');
const started: ChildProcess[] = [];

const replica = async (prefix: string): Promise<string> => {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'bench-replica-'));
  const child = spawn(process.execPath, [main], {
    env: { ...process.env, PORT: String(port), DATA_DIR: dir, REDIS_URL, REDIS_PREFIX: prefix, LOG_LEVEL: 'warn', STORAGE_PASSWORD: 'bench', WORKERS: '1' },
    stdio: 'ignore',
  });
  started.push(child);
  child.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 600; i++) {
    if ((await fetch(`${url}/v1/version`).catch(() => undefined))?.ok) return url;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('replica did not start');
};

const json = { 'content-type': 'application/json' };
const perSecond = async (label: string, total: number, request: (i: number) => Promise<Response>): Promise<void> => {
  let next = 0;
  let failed = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next < total) {
        const reply = await request(next++);
        await reply.arrayBuffer();
        if (!reply.ok) failed++;
      }
    }),
  );
  const seconds = (performance.now() - t0) / 1000;
  console.log(`${label}: ${Math.round(total / seconds)}/s (${total} requests${failed ? `, ${failed} failed` : ''})`);
};

const throughput = async (name: string, urls: string[], n: number): Promise<void> => {
  const at = (i: number) => urls[i % urls.length]!;
  const project = `bench/${name.replace(/\W+/g, '-')}`;
  await fetch(`${urls[0]}/v1/projects/${project}`, { method: 'PUT', headers: json, body: '{}' });
  const body = (i: number) => JSON.stringify({ '@type': 'http://x/T', 'http://x/n': i, 'http://x/name': `item ${i}` });
  await perSecond(`${name}: create`, n, (i) => fetch(`${at(i)}/v1/resources/${project}/_/r${i}`, { method: 'PUT', headers: json, body: body(i) }));
  await perSecond(`${name}: fetch`, n * 2, (i) => fetch(`${at(i)}/v1/resources/${project}/_/r${i % n}`));
  await perSecond(`${name}: list`, Math.round(n / 2), (i) => fetch(`${at(i)}/v1/resources/${project}?size=20`));
  await perSecond(`${name}: create indexing=async`, n, (i) =>
    fetch(`${at(i)}/v1/resources/${project}/_/a${i}?indexing=async`, { method: 'PUT', headers: json, body: body(i) }),
  );
};

const run = async () => {
  const rounds = Number(process.argv[2] ?? 1000);
  const n = Number(process.env['BENCH_REPLICA_N'] ?? 2000);
  const prefix = uniquePrefix('bench-replicas');
  try {
    const [a, b] = [await replica(prefix), await replica(prefix)];
    await fetch(`${a}/v1/orgs/bench`, { method: 'PUT', headers: json, body: '{}' });
    await fetch(`${b}/v1/projects/bench/race`, { method: 'PUT', headers: json, body: '{}' });
    const race = await replicaRace(a, b, 'bench/race', rounds);
    console.log(`race: ${race.rounds} rounds in ${race.millis} ms, ${race.stale.length} stale answers, ${race.refused.length} refused correct writes`);
    for (const line of [...race.stale, ...race.refused].slice(0, 5)) console.log(`  ${line}`);
    await throughput('one replica', [a], n);
    await throughput('two replicas', [a, b], n);
  } finally {
    for (const child of started) child.kill('SIGKILL');
    await dropPrefix(prefix);
  }
};

run().catch((error) => {
  console.error(error);
  process.exit(1);
});
