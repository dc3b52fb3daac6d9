import { expect } from 'chai';
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, killStarted, ready, start } from '../support/process.js';

const put = (url: string, body: unknown) => fetch(url, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

/** A Redis of the test's own on a loopback port, persisting to `dir` so it can stop and come back with its data. */
const redisServer = (port: number, dir: string): ChildProcess =>
  spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', 'yes', '--appendfsync', 'always'], {
    stdio: 'ignore',
  });

const until = async (check: () => Promise<boolean>, millis: number): Promise<void> => {
  const end = Date.now() + millis;
  while (Date.now() < end) {
    if (await check().catch(() => false)) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('condition not met in time');
};

describe('a Redis that goes away and comes back (separate processes)', function () {
  this.timeout(60_000);
  let dataDir: string;
  let redisDir: string;
  let redis: ChildProcess | undefined;
  afterEach(() => {
    killStarted();
    redis?.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(redisDir, { recursive: true, force: true });
  });

  it('waits for Redis at start, keeps serving reads while it is away, refuses writes with 503, and resumes without a restart', async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'registry-outage-'));
    redisDir = mkdtempSync(join(tmpdir(), 'redis-outage-'));
    const [port, redisPort] = [await freePort(), await freePort()];
    const server = start({
      PORT: String(port),
      DATA_DIR: dataDir,
      BASE_URL: `http://127.0.0.1:${port}`,
      REDIS_URL: `redis://127.0.0.1:${redisPort}`,
      STORAGE_PASSWORD: 'outage-test',
      REDIS_PREFIX: 'outage',
    });
    await until(async () => server.output().includes('waiting for Redis'), 10_000);
    expect(server.child.exitCode).to.equal(null);
    redis = redisServer(redisPort, redisDir);
    await ready(server);

    const base = server.url;
    expect((await put(`${base}/v1/orgs/o`, {})).status).to.equal(201);
    expect((await put(`${base}/v1/projects/o/p`, {})).status).to.equal(201);
    expect((await put(`${base}/v1/resources/o/p/_/r1`, { 'http://x/n': 1 })).status).to.equal(201);
    expect((await fetch(`${base}/v1/resources/o/p/_/r1`)).status).to.equal(200);

    redis.kill('SIGTERM');
    await new Promise((r) => redis!.once('exit', r));
    await new Promise((r) => setTimeout(r, 500));
    expect((await fetch(`${base}/v1/resources/o/p/_/r1`)).status).to.equal(200);
    expect((await fetch(`${base}/v1/resources/o/p`)).status).to.equal(200);
    const refused = await put(`${base}/v1/resources/o/p/_/r2`, { 'http://x/n': 2 });
    expect(refused.status).to.equal(503);
    expect(((await refused.json()) as { '@type': string })['@type']).to.equal('EventLogUnavailable');
    await new Promise((r) => setTimeout(r, 2_000));
    expect(server.child.exitCode, server.output()).to.equal(null);

    redis = redisServer(redisPort, redisDir);
    await until(async () => (await put(`${base}/v1/resources/o/p/_/r3`, { 'http://x/n': 3 })).status === 201, 15_000);
    expect((await fetch(`${base}/v1/resources/o/p/_/r3`)).status).to.equal(200);
    expect((await fetch(`${base}/v1/resources/o/p/_/r1`)).status).to.equal(200);
    expect(server.child.exitCode).to.equal(null);
  });
});
