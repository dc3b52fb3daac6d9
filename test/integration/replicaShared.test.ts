import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { renameSync } from 'node:fs';
import { Redis } from 'ioredis';
import { loadConfig } from '../../src/config/Config.js';
import { ConfigError } from '../../src/kernel/ConfigError.js';
import { logKeys, RedisEventLog } from '../../src/events/RedisEventLog.js';
import { EventLogUnavailable } from '../../src/events/EventLog.js';
import { RedisTokenStore } from '../../src/tracker/RedisTokenStore.js';
import { consoleLog } from '../../src/kernel/Log.js';
import { client } from '../support/client.js';
import { storagesConfig, upload } from '../support/files.js';
import { startRemoteDisk } from '../support/objectStores.js';
import { dropPrefix, REDIS_URL, uniquePrefix } from '../support/redis.js';
import { startServer } from '../support/server.js';
import type { TestServer } from '../support/server.js';

describe('what replicas share instead of keeping it per process', () => {
  const prefix = uniquePrefix('shared-parts');
  after(() => dropPrefix(prefix));

  it('refuses to start with Redis but without a storage password every replica shares, naming the setting', () => {
    const refusal = (() => {
      try {
        loadConfig({ REDIS_URL });
      } catch (error) {
        return error;
      }
      return undefined;
    })();
    expect(refusal).to.be.instanceOf(ConfigError);
    expect((refusal as Error).message).to.include('plugins.storage.storages.password');
    expect(loadConfig({ REDIS_URL, STORAGE_PASSWORD: 'shared' }).storages!.password).to.equal('shared');
    expect(loadConfig({}).storages!.password).to.equal(undefined);
  });

  it('reads Sentinel settings and refuses sentinels without the primary name', () => {
    const config = loadConfig({ REDIS_SENTINELS: 'a.example:26379,10.0.0.2:26380', REDIS_SENTINEL_NAME: 'registry', STORAGE_PASSWORD: 'x' });
    expect(config.redisSentinels).to.deep.equal([
      { host: 'a.example', port: 26379 },
      { host: '10.0.0.2', port: 26380 },
    ]);
    expect(() => loadConfig({ REDIS_SENTINELS: 'a:1', STORAGE_PASSWORD: 'x' })).to.throw(ConfigError, 'REDIS_SENTINEL_NAME');
    expect(() => loadConfig({ REDIS_SENTINELS: 'nope', REDIS_SENTINEL_NAME: 'r', STORAGE_PASSWORD: 'x' })).to.throw(ConfigError, 'REDIS_SENTINELS');
  });

  it('keeps the log keys under one hash tag, so Redis Cluster runs the append script', () => {
    const keys = Object.values(logKeys('p'));
    expect(keys.every((k) => k.startsWith('{p}:'))).to.equal(true);
  });

  it('renames a log written under the old key names to the tagged ones at start, keeping its events', async () => {
    const old = uniquePrefix('untagged');
    const raw = new Redis(REDIS_URL);
    const draft = { key: 'k', kind: 'orgs' as const, rev: 1, event: { type: 'T', instant: 'now' } };
    await raw.xadd(`${old}:events`, '1-0', 'e', JSON.stringify(draft));
    await raw.set(`${old}:seq`, '1');
    await raw.hset(`${old}:revs`, 'k', '1');
    await raw.hset(`${old}:seqs`, 'k', '1');
    raw.disconnect();
    const log = await RedisEventLog.open(REDIS_URL, old, undefined, { ...consoleLog, info: () => undefined });
    try {
      expect(await log.lastSeq()).to.equal(1);
      expect((await log.read(0, 10)).map((e) => e.key)).to.deep.equal(['k']);
      expect((await log.append({ ...draft, rev: 2 }, 1)).seq).to.equal(2);
    } finally {
      await log.close();
      await dropPrefix(old);
    }
  });

  it('with REDIS_WAIT_REPLICAS, refuses to acknowledge a write no Redis replica confirmed (503), rather than promise what a failover loses', async () => {
    const log = await RedisEventLog.open({ url: REDIS_URL, waitReplicas: 1, waitMillis: 50 }, prefix);
    try {
      const refused = await log.append({ key: 'w', kind: 'orgs', rev: 1, event: { type: 'T', instant: 'now' } }, 0).catch((e: unknown) => e);
      expect(refused).to.be.instanceOf(EventLogUnavailable);
      expect((refused as Error).message).to.include('0 of the 1 Redis replicas');
    } finally {
      await log.close();
    }
  });

  it('keeps tracker tokens in Redis: a flow begun on one replica is completed on another', async () => {
    const redis = [new Redis(REDIS_URL), new Redis(REDIS_URL)];
    try {
      const key = randomBytes(32);
      const [a, b] = redis.map((r) => new RedisTokenStore(r, `{${prefix}}:tracker-tokens`, key, consoleLog));
      const user = { realm: 'r', subject: 'alice' };
      await a!.save(user, { kind: 'request', value: 'req-token' });
      expect(await b!.get(user)).to.deep.equal({ kind: 'request', value: 'req-token' });
      await b!.save(user, { kind: 'access', value: 'acc-token' });
      expect(await a!.get(user)).to.deep.equal({ kind: 'access', value: 'acc-token' });
      // Sealed: Redis holds no token in clear, and another key opens nothing.
      expect(JSON.stringify(await redis[0]!.hgetall(`{${prefix}}:tracker-tokens`))).not.to.include('acc-token');
      const other = new RedisTokenStore(redis[0]!, `{${prefix}}:tracker-tokens`, randomBytes(32), { ...consoleLog, warn: () => undefined });
      expect(await other.get(user)).to.equal(undefined);
    } finally {
      for (const r of redis) r.disconnect();
    }
  });

  describe('disk storages on a volume every replica mounts', () => {
    const { config, volume } = storagesConfig();
    let a: TestServer;
    let b: TestServer;
    before(async () => {
      a = await startServer({ redisUrl: REDIS_URL, redisPrefix: prefix, storages: config });
      b = await startServer({ redisUrl: REDIS_URL, redisPrefix: prefix, storages: config });
      await client(a.url).put('/v1/orgs/vol', {});
      await client(a.url).put('/v1/projects/vol/p', {});
    });
    after(async () => {
      await a.stop(true);
      await b.stop(true);
    });

    it('serves on one replica the bytes uploaded through the other, and refuses them clearly (not 404) where the volume is not mounted', async () => {
      expect((await upload(`${a.url}/v1/files/vol/p/f1`, 'PUT', 'shared bytes', 'f.txt', 'text/plain')).status).to.equal(201);
      const got = await fetch(`${b.url}/v1/files/vol/p/f1`);
      expect(got.status).to.equal(200);
      expect(await got.text()).to.equal('shared bytes');
      const away = `${volume}-unmounted`;
      renameSync(volume, away);
      try {
        const refused = await fetch(`${b.url}/v1/files/vol/p/f1`);
        const body = (await refused.json()) as Record<string, string>;
        expect(refused.status).to.equal(500);
        expect(body['@type']).to.equal('FileNotAccessible');
        expect(body['details']).to.include('not mounted on this replica');
      } finally {
        renameSync(away, volume);
      }
      expect((await fetch(`${b.url}/v1/files/vol/p/f1`)).status).to.equal(200);
    });
  });

  describe("a storage's own credentials, sealed with the password every replica shares", () => {
    let own: Awaited<ReturnType<typeof startRemoteDisk>>;
    let a: TestServer;
    let b: TestServer;
    before(async () => {
      own = await startRemoteDisk('own-secret-token', ['shelf']);
      const { config } = storagesConfig({
        'plugins.storage.storages.remote-disk.enabled': 'true',
        'plugins.storage.storages.remote-disk.allowed-endpoints': JSON.stringify([own.endpoint]),
      });
      a = await startServer({ redisUrl: REDIS_URL, redisPrefix: prefix, storages: config });
      b = await startServer({ redisUrl: REDIS_URL, redisPrefix: prefix, storages: config });
      expect((await client(a.url).put('/v1/orgs/sealed', {})).status).to.equal(201);
      expect((await client(a.url).put('/v1/projects/sealed/p', {})).status).to.equal(201);
    });
    after(async () => {
      await a.stop(true);
      await b.stop(true);
      await own.stop();
    });

    it('are opened by a replica other than the one that sealed them: a file written through one is read through the other', async () => {
      const storage = { '@type': 'RemoteDiskStorage', default: false, endpoint: own.endpoint, folder: 'shelf', credentials: 'own-secret-token' };
      const created = await client(a.url).put('/v1/storages/sealed/p/remote', storage);
      expect(created.status, created.text).to.equal(201);
      const written = await upload(`${b.url}/v1/files/sealed/p/f1?storage=remote`, 'PUT', 'sealed bytes', 'f.txt', 'text/plain');
      expect(written.status, JSON.stringify(written.body)).to.equal(201);
      expect([...own.files.values()].map((bytes) => bytes.toString())).to.deep.equal(['sealed bytes']);
      const read = await fetch(`${a.url}/v1/files/sealed/p/f1`);
      expect([read.status, await read.text()]).to.deep.equal([200, 'sealed bytes']);
    });
  });
});
