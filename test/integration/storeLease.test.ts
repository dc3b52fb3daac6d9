import { expect } from 'chai';
import { Redis } from 'ioredis';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RedisWriterLease } from '../../src/store/StoreLease.js';
import { freePort, killStarted, ready, start } from '../support/process.js';
import type { Proc } from '../support/process.js';
import { dropPrefix, REDIS_URL, uniquePrefix } from '../support/redis.js';
import { clearVirtuoso, releaseVirtuoso, storeEnv, useVirtuoso } from '../support/virtuoso.js';
import type { Virtuoso } from '../support/virtuoso.js';

describe('the external store writer lease (Redis)', () => {
  let redis: Redis;
  let key: string;
  beforeEach(() => {
    redis = new Redis(REDIS_URL);
    key = `{${uniquePrefix('lease')}}:store-lease`;
  });
  afterEach(async () => {
    await redis.del(key, `${key}:epoch`);
    redis.disconnect();
  });

  it('is held by one replica at a time; once the holder stops renewing, the next takes it with a higher epoch and the old one is fenced', async () => {
    const a = new RedisWriterLease(redis, key, { ttlMillis: 300, marginMillis: 60 });
    const b = new RedisWriterLease(redis, key, { ttlMillis: 300, marginMillis: 60 });
    const first = await a.acquire();
    expect(first).to.be.a('number');
    expect(await b.acquire()).to.equal(undefined);
    expect(await a.renew()).to.equal(true);
    expect(await b.renew()).to.equal(false);
    // A dies: it never renews again. B takes over once the lease expired in Redis.
    let second: number | undefined;
    while ((second = await b.acquire()) === undefined) await new Promise((r) => setTimeout(r, 50));
    expect(second).to.equal(first! + 1);
    expect(a.valid()).to.equal(false);
    expect(await a.renew()).to.equal(false);
    expect(a.epoch).to.equal(undefined);
    // A clean shutdown hands it over at once.
    await b.release();
    expect(await a.acquire()).to.equal(second + 1);
  });
});

const put = (url: string, body: unknown) => fetch(url, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

/** Values of `http://x/n` the project's SPARQL endpoint sees on a replica. */
const seen = async (p: Proc): Promise<number[]> => {
  const query = encodeURIComponent('SELECT ?n WHERE { ?s <http://x/n> ?n }');
  const answer = await fetch(`${p.url}/v1/views/o/p/graph/sparql?query=${query}`, { headers: { accept: 'application/sparql-results+json' } });
  expect(answer.status).to.equal(200);
  const body = (await answer.json()) as { results: { bindings: { n: { value: string } }[] } };
  return body.results.bindings.map((b) => Number(b.n.value)).sort((x, y) => x - y);
};

describe('one replica projects into the external store at a time (two processes, one Redis, one Virtuoso)', function () {
  this.timeout(120_000);
  let virtuoso: Virtuoso;
  let prefix: string;
  const dirs: string[] = [];
  before(async () => void (virtuoso = await useVirtuoso()));
  after(async () => {
    await clearVirtuoso(virtuoso.server);
    await releaseVirtuoso();
  });
  afterEach(async () => {
    killStarted();
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
    await dropPrefix(prefix);
  });

  const replica = async (): Promise<Proc> => {
    const port = await freePort();
    const dir = mkdtempSync(join(tmpdir(), 'registry-lease-'));
    dirs.push(dir);
    return start({
      PORT: String(port),
      BASE_URL: 'http://registry.test',
      DATA_DIR: dir,
      REDIS_URL,
      REDIS_PREFIX: prefix,
      STORAGE_PASSWORD: 'shared',
      ...storeEnv(virtuoso.server),
      // Long enough that a start holding the event loop (a restore, a replay) does not pass the lease on.
      STORE_LEASE_MILLIS: '3000',
    });
  };
  /** Holds the lease now: its last word on the lease is that it took it, not that it lost it. */
  const holds = (p: Proc) => {
    const out = p.output();
    return out.lastIndexOf('store projection: this replica holds the lease') > out.lastIndexOf('store projection: the lease was lost');
  };

  it('one holds the lease; killed, the other takes over and catches up; every acknowledged write is readable from both', async () => {
    await clearVirtuoso(virtuoso.server);
    prefix = uniquePrefix('store-lease');
    const a = await replica();
    await ready(a);
    const b = await replica();
    await ready(b);
    expect((await put(`${a.url}/v1/orgs/o`, {})).status).to.equal(201);
    expect((await put(`${b.url}/v1/projects/o/p`, {})).status).to.equal(201);
    for (let i = 1; i <= 6; i++) expect((await put(`${(i % 2 ? a : b).url}/v1/resources/o/p/_/r${i}`, { 'http://x/n': i })).status).to.equal(201);
    expect(await seen(a)).to.deep.equal([1, 2, 3, 4, 5, 6]);
    expect(await seen(b)).to.deep.equal([1, 2, 3, 4, 5, 6]);
    for (let i = 0; i < 100 && !holds(a) && !holds(b); i++) await new Promise((r) => setTimeout(r, 20));
    expect([holds(a), holds(b)].filter(Boolean)).to.have.length(1);
    const [holder, other] = holds(a) ? [a, b] : [b, a];
    // The holder dies abruptly (no release): the lease expires and the other replica projects.
    holder.child.kill('SIGKILL');
    await holder.exited;
    for (let i = 7; i <= 9; i++) expect((await put(`${other.url}/v1/resources/o/p/_/r${i}`, { 'http://x/n': i })).status).to.equal(201);
    expect(await seen(other)).to.deep.equal([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    // Its log lines are written asynchronously.
    for (let i = 0; i < 100 && !holds(other); i++) await new Promise((r) => setTimeout(r, 20));
    expect(holds(other)).to.equal(true);
    // The dead one restarted on its data directory reads the store the other writes, without taking the lease.
    const back = await replica();
    await ready(back);
    expect((await put(`${back.url}/v1/resources/o/p/_/r10`, { 'http://x/n': 10 })).status).to.equal(201);
    expect(await seen(back)).to.deep.equal([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(await seen(other)).to.deep.equal([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(holds(back)).to.equal(false);
  });
});
