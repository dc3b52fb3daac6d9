import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { client } from '../support/client.js';
import { killStarted } from '../support/process.js';
import type { Proc } from '../support/process.js';
import { dropPrefix, REDIS_URL, uniquePrefix } from '../support/redis.js';
import { startReplicas } from '../support/replicas.js';
import { clearVirtuoso, releaseVirtuoso, storeEnv, useVirtuoso } from '../support/virtuoso.js';
import type { Virtuoso } from '../support/virtuoso.js';

/** What a start logs of where its states came from and how much of the log it read after them. */
const restoreLine = (p: Proc): { from: string; at: number; replayed: number } => {
  const match = /states restored from the (shared snapshot|snapshot file|log)(?: at event (\d+))?; (\d+) events of the log replayed after it/.exec(p.output());
  if (!match) throw new Error(`no restore line in: ${p.output().slice(0, 2_000)}`);
  return { from: match[1]!, at: Number(match[2] ?? 0), replayed: Number(match[3]) };
};

const stop = async (p: Proc): Promise<void> => {
  p.child.kill('SIGTERM');
  await p.exited;
};

/** Issue 34: a replica on an empty data directory starts from the snapshot the store's writer shares in Redis, and reads only the log after it. */
describe('cold start from the shared snapshot (Redis + Virtuoso)', function () {
  this.timeout(300_000);
  let virtuoso: Virtuoso;
  let redis: Redis;
  const prefix = uniquePrefix('shared-snapshot');
  const key = `{${prefix}}:snapshot`;
  const dirs: string[] = [];
  const emptyDir = () => {
    const dir = mkdtempSync(join(tmpdir(), 'shared-snapshot-'));
    dirs.push(dir);
    return dir;
  };
  /** One replica on an empty data directory, all under one address; a snapshot every 30 events, at once. */
  const replica = async (dir = emptyDir()): Promise<Proc> =>
    (
      await startReplicas(prefix, [dir], {
        ...storeEnv(virtuoso.server),
        SNAPSHOT_EVENTS: '30',
        SNAPSHOT_MILLIS: '0',
        LOG_LEVEL: 'info',
        BASE_URL: 'http://registry.test',
      })
    )[0]!;
  const head = async () => Number(await redis.get(`{${prefix}}:seq`));
  const sharedSeq = async () => Number((await redis.hget(key, 'seq')) ?? 0);

  before(async () => {
    virtuoso = await useVirtuoso();
    redis = new Redis(REDIS_URL);
  });
  after(async () => {
    killStarted();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    await dropPrefix(prefix);
    redis.disconnect();
    await clearVirtuoso(virtuoso.server);
    await releaseVirtuoso();
  });

  let writer: Proc;
  let fullLog: number;

  it('the store writer shares a snapshot now and then, and one as of its last event when it stops', async () => {
    const first = await replica();
    const api = client(first.url);
    expect((await api.put('/v1/orgs/o', {})).status).to.equal(201);
    expect((await api.put('/v1/projects/o/p', {})).status).to.equal(201);
    expect((await api.put('/v1/acls/o?rev=0', { acl: [{ identity: { '@type': 'Anonymous' }, permissions: ['resources/read'] }] })).status).to.be.oneOf([
      200, 201,
    ]);
    for (let i = 0; i < 60; i++)
      expect((await api.put(`/v1/resources/o/p/_/r${i}`, { '@type': 'http://x/T', 'http://x/name': `item ${i}` })).status).to.equal(201);
    const deadline = Date.now() + 60_000;
    while ((await sharedSeq()) === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
    expect(await sharedSeq(), 'a snapshot shared while writing').to.be.above(0);
    await stop(first);
    expect(await sharedSeq(), 'the one a clean stop shares').to.equal(await head());
  });

  it('a replica on an empty data directory (or with an older snapshot of its own) starts from it, reads only the events after it, and answers as the replica that wrote them', async () => {
    writer = await replica();
    const snapshotAt = await sharedSeq();
    expect(restoreLine(writer)).to.deep.equal({ from: 'shared snapshot', at: snapshotAt, replayed: 0 });
    // Fewer events than a snapshot's period: the shared snapshot stays where it was.
    const api = client(writer.url);
    for (let i = 0; i < 5; i++)
      expect((await api.put(`/v1/resources/o/p/_/r${i}?rev=1`, { '@type': 'http://x/T', 'http://x/name': `again ${i}` })).status).to.equal(200);
    expect((await api.put('/v1/projects/o/q', {})).status).to.equal(201);
    fullLog = await head();
    expect(await sharedSeq()).to.equal(snapshotAt);

    const fresh = await replica();
    expect(restoreLine(fresh)).to.deep.equal({ from: 'shared snapshot', at: snapshotAt, replayed: fullLog - snapshotAt });
    const other = client(fresh.url);
    for (const path of [
      '/v1/orgs/o',
      '/v1/projects/o/p',
      '/v1/projects/o/q',
      '/v1/acls/o',
      '/v1/views/o/p',
      '/v1/resources/o/p/_/r3',
      '/v1/resources/o/p?size=100&sort=name',
    ]) {
      const [a, b] = [await api.get(path), await other.get(path)];
      expect(a.status, path).to.equal(200);
      expect(b.status, path).to.equal(a.status);
      expect(b.body, path).to.deep.equal(a.body);
    }
    await stop(fresh);

    // Its own snapshot (taken at its stop) is older than the one shared since: it starts from the shared one.
    for (let i = 0; i < 35; i++) expect((await api.put(`/v1/resources/o/p/_/later${i}`, { '@type': 'http://x/T' })).status).to.equal(201);
    const deadline = Date.now() + 60_000;
    while ((await sharedSeq()) <= fullLog && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
    const sharedLater = await sharedSeq();
    expect(sharedLater).to.be.above(fullLog);
    fullLog = await head();
    const restarted = await replica(dirs[dirs.length - 1]);
    expect(restoreLine(restarted)).to.deep.equal({ from: 'shared snapshot', at: sharedLater, replayed: fullLog - sharedLater });
    expect((await client(restarted.url).get('/v1/resources/o/p?size=100')).body).to.deep.equal((await api.get('/v1/resources/o/p?size=100')).body);
    await stop(restarted);
  });

  it('a torn or foreign-version snapshot is ignored (logged): the whole log is replayed', async () => {
    const body = (await redis.hgetBuffer(key, 'body'))!;
    await redis.hset(key, 'body', body.subarray(0, Math.floor(body.length / 2)));
    const torn = await replica();
    expect(torn.output()).to.match(/shared snapshot \S+ ignored \(its digest does not match its text\): replaying the whole log/);
    expect(restoreLine(torn)).to.deep.equal({ from: 'log', at: 0, replayed: fullLog });
    expect((await client(torn.url).get('/v1/resources/o/p/_/r3')).body).to.deep.equal((await client(writer.url).get('/v1/resources/o/p/_/r3')).body);
    await stop(torn);

    await redis.hset(key, 'body', body, 'version', '2');
    const foreign = await replica();
    expect(foreign.output()).to.match(/shared snapshot \S+ ignored \(format 2, this build reads 1\): replaying the whole log/);
    expect(restoreLine(foreign)).to.deep.equal({ from: 'log', at: 0, replayed: fullLog });
    await stop(foreign);
    await stop(writer);
  });
});
