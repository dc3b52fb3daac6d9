import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { assetPath } from '../../src/util/assets.js';
import { freePort, killStarted, ready, start } from '../support/process.js';
import type { Proc } from '../support/process.js';
import { dropPrefix, REDIS_URL, uniquePrefix } from '../support/redis.js';

const json = { 'content-type': 'application/json' };
const put = (url: string, body: unknown) => fetch(url, { method: 'PUT', headers: json, body: JSON.stringify(body) });

/** Runs `npm run migrate-log`'s script with the embedded defaults plus `env`. */
const migrateLog = (env: Record<string, string>): Promise<{ code: number | null; out: string }> =>
  new Promise((resolve) => {
    const { REDIS_URL: _r, REDIS_PREFIX: _p, CONFIG_FILE: _c, ...embedded } = process.env;
    const child = spawn(process.execPath, [assetPath('dist', 'src', 'tools', 'migrateLog.js')], {
      env: { ...embedded, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.once('exit', (code) => resolve({ code, out }));
  });

const stop = async (server: Proc) => {
  server.child.kill('SIGTERM');
  await server.exited;
};

/** What a client sees of the registry: resources with their revisions, and the event stream's ids and types. */
const observed = async (url: string) => {
  const listing = (await (await fetch(`${url}/v1/resources/o/p?sort=@id`)).json()) as { _results: { '@id': string; _rev: number }[] };
  const events = await fetch(`${url}/v1/resources/o/events`, { headers: { accept: 'text/event-stream' }, signal: AbortSignal.timeout(1_500) })
    .then((r) => r.text())
    .catch((e: Error) => e.message);
  return { listing: listing._results.map((r) => [r['@id'], r._rev]), events };
};

describe('moving an embedded journal onto Redis (npm run migrate-log, separate processes)', function () {
  this.timeout(120_000);
  let dataDir: string;
  let prefix: string;
  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'registry-migrate-log-'));
    prefix = uniquePrefix('migrate-log');
  });
  afterEach(async () => {
    killStarted();
    rmSync(dataDir, { recursive: true, force: true });
    await dropPrefix(prefix);
  });

  it('copies every event at its own position (pruned ones included as gaps); the registry then continues on Redis; once Redis has gone on, a second copy is refused untouched', async () => {
    const port = await freePort();
    const env = { PORT: String(port), DATA_DIR: dataDir, BASE_URL: `http://127.0.0.1:${port}` };
    let server = start(env);
    await ready(server);
    expect((await put(`${server.url}/v1/orgs/o`, {})).status).to.equal(201);
    expect((await put(`${server.url}/v1/projects/o/p`, {})).status).to.equal(201);
    for (let i = 1; i <= 3; i++) expect((await put(`${server.url}/v1/resources/o/p/_/r${i}`, { 'http://x/n': i })).status).to.equal(201);
    expect((await put(`${server.url}/v1/resources/o/p/_/r3?rev=1`, { 'http://x/n': 30 })).status).to.equal(200);
    // A deleted project's events are pruned from the journal: positions the copy must skip, not reuse.
    expect((await put(`${server.url}/v1/projects/o/gone`, {})).status).to.equal(201);
    expect((await put(`${server.url}/v1/resources/o/gone/_/x`, { 'http://x/n': 0 })).status).to.equal(201);
    expect((await fetch(`${server.url}/v1/projects/o/gone?rev=1&prune=true`, { method: 'DELETE' })).status).to.equal(200);
    const before = await observed(server.url);
    await stop(server);

    // The replicas open the storages' secrets with the password the embedded deployment kept.
    const refused = await migrateLog({ ...env, REDIS_URL, REDIS_PREFIX: prefix });
    expect(refused.code).to.equal(1);
    expect(refused.out).to.include('storage-secrets.key');
    const redisEnv = { ...env, REDIS_URL, REDIS_PREFIX: prefix, STORAGE_PASSWORD: readFileSync(join(dataDir, 'storage-secrets.key'), 'utf8').trim() };
    const migrated = await migrateLog(redisEnv);
    expect(migrated.code, migrated.out).to.equal(0);
    expect(migrated.out).to.match(/log migration: done, \d+ events copied from .* into Redis/);

    server = start(redisEnv);
    await ready(server);
    expect(await observed(server.url)).to.deep.equal(before);
    // Revisions carried over: an update with the journal's last revision is accepted, a stale one refused.
    expect((await put(`${server.url}/v1/resources/o/p/_/r3?rev=1`, { 'http://x/n': 31 })).status).to.equal(409);
    expect((await put(`${server.url}/v1/resources/o/p/_/r3?rev=2`, { 'http://x/n': 300 })).status).to.equal(200);
    // A pruned project's ids are free again, as on the journal.
    expect((await put(`${server.url}/v1/projects/o/gone`, {})).status).to.equal(201);
    await stop(server);

    // The Redis log now holds more than the journal: a second copy refuses and changes nothing.
    const redis = new Redis(REDIS_URL);
    const headBefore = await redis.get(`{${prefix}}:seq`);
    const again = await migrateLog(redisEnv);
    expect(again.code).to.equal(1);
    expect(again.out).to.include('another history');
    expect(await redis.get(`{${prefix}}:seq`)).to.equal(headBefore);
    redis.disconnect();
  });

  it('continues a copy where it stopped, and copies nothing twice over a complete one', async () => {
    const port = await freePort();
    const env = { PORT: String(port), DATA_DIR: dataDir, BASE_URL: `http://127.0.0.1:${port}` };
    const redisEnv = { ...env, REDIS_URL, REDIS_PREFIX: prefix, STORAGE_PASSWORD: 'replicas' };
    const write = async (from: number, to: number) => {
      const server = start(env);
      await ready(server);
      if (from === 1) {
        expect((await put(`${server.url}/v1/orgs/o`, {})).status).to.equal(201);
        expect((await put(`${server.url}/v1/projects/o/p`, {})).status).to.equal(201);
      }
      for (let i = from; i <= to; i++) expect((await put(`${server.url}/v1/resources/o/p/_/r${i}`, { 'http://x/n': i })).status).to.equal(201);
      await stop(server);
    };
    const redis = new Redis(REDIS_URL);
    const stream = () => redis.xrange(`{${prefix}}:events`, '-', '+');
    await write(1, 3);
    expect((await migrateLog(redisEnv)).code).to.equal(0);
    const first = await stream();
    // The journal went on after that copy (as a copy cut off half-way leaves it behind): the next run copies only the rest.
    await write(4, 5);
    const resumed = await migrateLog(redisEnv);
    expect(resumed.code, resumed.out).to.equal(0);
    const whole = await stream();
    expect(whole.slice(0, first.length)).to.deep.equal(first);
    expect(whole.map(([id]) => Number(id.split('-')[0]))).to.deep.equal(whole.map((_, i) => i + 1));
    expect(whole.length).to.equal(first.length + 2);
    const rerun = await migrateLog(redisEnv);
    expect(rerun.code, rerun.out).to.equal(0);
    expect(await stream()).to.deep.equal(whole);
    redis.disconnect();
  });

  it('refuses without a Redis to copy into, and without a journal to copy', async () => {
    const noRedis = await migrateLog({ DATA_DIR: dataDir });
    expect(noRedis.code).to.equal(1);
    expect(noRedis.out).to.include('REDIS_URL');
    const noJournal = await migrateLog({ DATA_DIR: join(dataDir, 'empty'), REDIS_URL, REDIS_PREFIX: prefix, STORAGE_PASSWORD: 'replicas' });
    expect(noJournal.code).to.equal(1);
    expect(noJournal.out).to.include('no journal');
  });
});
