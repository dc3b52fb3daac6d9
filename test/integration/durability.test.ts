import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, killStarted, ready, start } from '../support/process.js';

const put = (url: string, body: unknown) => fetch(url, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

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
    killStarted();
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
