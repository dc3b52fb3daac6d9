import { expect } from 'chai';
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { assetPath } from '../../src/assets.js';

const freePort = (): Promise<number> =>
  new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as AddressInfo).port;
      s.close(() => resolve(port));
    });
  });

interface Proc {
  child: ChildProcess;
  url: string;
  output: () => string;
  exited: Promise<number | null>;
}

/** The environment of `npm start` with embedded defaults: CI exports REDIS_URL for the Redis tests. */
const { REDIS_URL: _redis, REDIS_PREFIX: _prefix, CONFIG_FILE: _config, ...embedded } = process.env;

/** Every process a test started, killed after it whatever happened (a failed assertion leaves none behind). */
const started: ChildProcess[] = [];

/** `node dist/src/main.js` as `npm start` runs it, in its own process. */
const start = (env: Record<string, string>): Proc => {
  const child = spawn(process.execPath, [assetPath('dist', 'src', 'main.js')], { env: { ...embedded, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  started.push(child);
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, url: `http://127.0.0.1:${env['PORT']}`, output: () => out, exited };
};

const ready = async (p: Proc): Promise<void> => {
  for (let i = 0; i < 300; i++) {
    if (p.child.exitCode !== null) throw new Error(`exited early: ${p.output()}`);
    try {
      if ((await fetch(`${p.url}/v1/version`)).ok) return;
    } catch {
      /* not yet listening */
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('not ready in time');
};

const put = (url: string, body: unknown) =>
  fetch(url, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

describe('durability of the embedded defaults (separate processes)', function () {
  this.timeout(60_000);
  let dataDir: string;
  let port: number;
  const env = () => ({ PORT: String(port), DATA_DIR: dataDir, BASE_URL: `http://127.0.0.1:${port}` });

  beforeEach(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'registry-durability-'));
    port = await freePort();
  });
  afterEach(() => {
    for (const child of started.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('loses no acknowledged write when killed with SIGKILL in the middle of concurrent writes', async () => {
    const first = start(env());
    await ready(first);
    expect((await put(`${first.url}/v1/orgs/o`, {})).status).to.equal(201);
    expect((await put(`${first.url}/v1/projects/o/p`, {})).status).to.equal(201);
    const acknowledged: number[] = [];
    let stop = false;
    const writers = Array.from({ length: 8 }, async (_, w) => {
      for (let i = w; !stop; i += 8) {
        try {
          const res = await put(`${first.url}/v1/resources/o/p/_/r${i}`, { '@context': { '@vocab': 'http://schema.org/' }, name: `r${i}` });
          if (res.status === 201) acknowledged.push(i);
        } catch {
          return; // the process is gone
        }
      }
    });
    while (acknowledged.length < 150) await new Promise((r) => setTimeout(r, 5));
    first.child.kill('SIGKILL');
    stop = true;
    await Promise.all(writers);
    await first.exited;

    const second = start(env());
    await ready(second);
    try {
      for (const i of acknowledged) {
        const res = await fetch(`${second.url}/v1/resources/o/p/_/r${i}`);
        expect(res.status, `r${i} was acknowledged`).to.equal(200);
      }
      const listing = (await (await fetch(`${second.url}/v1/resources/o/p?size=1`)).json()) as { _total: number };
      expect(listing._total).to.be.at.least(acknowledged.length);
    } finally {
      second.child.kill('SIGTERM');
      await second.exited;
    }
  });

  it('refuses a second process on the same data directory, and drains on SIGTERM', async () => {
    const first = start(env());
    await ready(first);
    const second = start({ ...env(), PORT: String(await freePort()) });
    expect(await second.exited).to.equal(2);
    expect(second.output()).to.match(/in use by another registry process/);
    expect((await put(`${first.url}/v1/orgs/kept`, {})).status).to.equal(201);
    first.child.kill('SIGTERM');
    expect(await first.exited).to.equal(0);
    const third = start(env());
    await ready(third);
    expect((await fetch(`${third.url}/v1/orgs/kept`)).status).to.equal(200);
    third.child.kill('SIGTERM');
    await third.exited;
  });

  it('fails at start-up naming a bad setting', async () => {
    const bad = start({ ...env(), PORT: 'eighty' });
    expect(await bad.exited).to.equal(2);
    expect(bad.output()).to.match(/PORT/);
    const badRedis = start({ ...env(), REDIS_URL: 'http://nope' });
    expect(await badRedis.exited).to.equal(2);
    expect(badRedis.output()).to.match(/REDIS_URL/);
  });
});
