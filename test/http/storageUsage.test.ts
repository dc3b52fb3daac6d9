import { expect } from 'chai';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Kind } from '../../src/events/EventLog.js';
import type { ItemStates } from '../../src/events/ItemStates.js';
import type { CapabilityModule } from '../../src/modules/Capability.js';
import type { Platform } from '../../src/modules/Platform.js';
import { client } from '../support/client.js';
import { storagesConfig, upload } from '../support/files.js';
import { dropPrefix, REDIS_URL, uniquePrefix } from '../support/redis.js';
import { startServer } from '../support/server.js';
import type { TestServer } from '../support/server.js';
import { clearVirtuoso, releaseVirtuoso, useVirtuoso } from '../support/virtuoso.js';

/** Files uploaded for the statistics read that must read none of them (STORAGE_USAGE_FILES raises it). */
const MANY = Number(process.env['STORAGE_USAGE_FILES'] ?? 1_000);
const CONCURRENT = 8;

/** Counts the item states read through the platform's port, by kind: a test capability wraps the one the files module reads through. */
const statesReads = () => {
  const reads: Record<string, number> = {};
  const count = (kind: string, n: number) => void (reads[kind] = (reads[kind] ?? 0) + n);
  const probe: CapabilityModule<Platform, unknown> = {
    name: 'statesProbe',
    kinds: [],
    streams: [],
    projections: [],
    statuses: {},
    wire: (p) => {
      const states: ItemStates = p.itemStates;
      const { get, getMany, keysOf } = states;
      states.get = <S>(kind: Kind, key: string) => (count(kind, 1), get.call(states, kind, key) as Promise<S | undefined>);
      states.getMany = <S>(kind: Kind, keys: readonly string[]) => (count(kind, keys.length), getMany.call(states, kind, keys) as Promise<(S | undefined)[]>);
      states.keysOf = (kind, project) => (count(`${kind} keys`, 1), keysOf.call(states, kind, project));
      return { services: {}, routes: () => undefined };
    },
  };
  return { probe, reads };
};

const STATS = '/v1/storages/o/p/defaultStorage/statistics';

describe('storage statistics and capacity from a running account per storage (issue 34)', function () {
  this.timeout(300_000);
  const { config } = storagesConfig();
  const servers: TestServer[] = [];
  const dirs: string[] = [];
  const start = async (dataDir?: string, overrides = {}, hooks = {}) => {
    const server = await startServer({ storages: { ...config, allowedVolumes: [tmpdir()] }, ...overrides }, dataDir, hooks);
    servers.push(server);
    return server;
  };
  const stop = async (server: TestServer) => {
    servers.splice(servers.indexOf(server), 1);
    await server.stop();
  };
  afterEach(async () => {
    for (const server of [...servers]) await stop(server);
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('counts creations and updates (not tags or deprecations), survives restarts with and without its snapshot, and forgets a deleted project', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'registry-usage-'));
    dirs.push(dataDir);
    let server = await start(dataDir);
    let api = client(server.url);
    const F = `${server.url}/v1/files/o/p`;
    await api.put('/v1/orgs/o', {});
    await api.put('/v1/projects/o/p', {});
    expect((await api.get(STATS)).body)
      .to.deep.include({ files: 0, spaceUsed: 0 })
      .and.not.have.property('lastProcessedEventDateTime');
    expect((await upload(`${F}/a`, 'PUT', 'hello')).status).to.equal(201);
    expect((await upload(`${F}/b`, 'PUT', 'abc')).status).to.equal(201);
    const updated = await upload(`${F}/a?rev=1`, 'PUT', 'four');
    expect(updated.status).to.equal(200);
    expect((await api.post('/v1/files/o/p/b/tags?rev=1', { tag: 't', rev: 1 })).status).to.equal(201);
    expect((await api.delete('/v1/files/o/p/b?rev=2')).status).to.equal(200);
    const expected = { files: 3, spaceUsed: 12, lastProcessedEventDateTime: (updated.body as { _updatedAt: string })._updatedAt };
    const stats = (await api.get(STATS)).body;
    expect(stats).to.deep.include(expected);
    expect(Object.keys(stats)).to.deep.equal(['@context', 'files', 'spaceUsed', 'lastProcessedEventDateTime']);

    // Restarted: from the snapshot kept at the stop; then with it gone, from the log.
    await stop(server);
    server = await start(dataDir);
    expect((await client(server.url).get(STATS)).body).to.deep.include(expected);
    await stop(server);
    const snapshot = join(dataDir, 'projection', 'storage-usage.json');
    if (!server.redisPrefix) {
      expect(existsSync(snapshot)).to.equal(true);
      rmSync(snapshot);
    }
    server = await start(dataDir);
    api = client(server.url);
    expect((await api.get(STATS)).body).to.deep.include(expected);

    // A deleted project takes its storages' accounts along: created again under its label, it starts empty.
    expect((await api.delete('/v1/projects/o/p?rev=1&prune=true')).status).to.equal(200);
    expect((await api.put('/v1/projects/o/p', {})).status).to.equal(201);
    expect((await api.get(STATS)).body).to.deep.include({ files: 0, spaceUsed: 0 });
    expect((await upload(`${server.url}/v1/files/o/p/c`, 'PUT', 'xy')).status).to.equal(201);
    expect((await api.get(STATS)).body).to.deep.include({ files: 1, spaceUsed: 2 });
    await stop(server);
    server = await start(dataDir);
    expect((await client(server.url).get(STATS)).body).to.deep.include({ files: 1, spaceUsed: 2 });
  });

  it(`answers the statistics of a storage holding ${MANY} files, and grants capacity, without reading any file's state`, async () => {
    const { probe, reads } = statesReads();
    const server = await start(undefined, {}, { capabilities: [probe] });
    const api = client(server.url);
    await api.put('/v1/orgs/o', {});
    await api.put('/v1/projects/o/p', {});
    const volume = mkdtempSync(join(tmpdir(), 'registry-usage-volume-'));
    dirs.push(volume);
    // Room for the uploads in flight too: each reserves its request's length until its bytes are in.
    const left = 8_000;
    const capacity = 6 * MANY + left;
    expect((await api.put('/v1/storages/o/p/cap', { '@type': 'DiskStorage', default: false, volume, capacity })).status).to.equal(201);
    let next = 0;
    await Promise.all(
      Array.from({ length: CONCURRENT }, async () => {
        for (let i = next++; i < MANY; i = next++) {
          const res = await upload(`${server.url}/v1/files/o/p/f${i}?storage=cap`, 'PUT', `f${String(i).padStart(5, '0')}`);
          expect(res.status, JSON.stringify(res.body)).to.equal(201);
        }
      }),
    );
    for (const kind of Object.keys(reads)) delete reads[kind];
    const stats = (await api.get('/v1/storages/o/p/cap/statistics')).body;
    expect(stats).to.deep.include({ files: MANY, spaceUsed: 6 * MANY });
    // The capacity left is the account's: to the byte, then none.
    expect((await upload(`${server.url}/v1/files/o/p/last?storage=cap`, 'PUT', 'x'.repeat(left))).status).to.equal(201);
    const refused = await upload(`${server.url}/v1/files/o/p/over?storage=cap`, 'PUT', 'x');
    expect(refused.status).to.equal(413);
    expect(refused.body['@type']).to.equal('FileTooLarge');
    // The uploads read their own file's state (none there yet); nothing walked the project's files.
    expect(reads['files keys'] ?? 0, JSON.stringify(reads)).to.equal(0);
    expect(reads['files'] ?? 0, JSON.stringify(reads)).to.be.at.most(2);
  });

  it('a replica on an empty data directory, sharing the Redis log, answers the statistics a write on another replica left', async () => {
    const prefix = uniquePrefix('storage-usage');
    try {
      const shared = { redisUrl: REDIS_URL, redisPrefix: prefix };
      const first = await start(undefined, shared);
      const api = client(first.url);
      await api.put('/v1/orgs/o', {});
      await api.put('/v1/projects/o/p', {});
      for (let i = 0; i < 5; i++) expect((await upload(`${first.url}/v1/files/o/p/f${i}`, 'PUT', 'bytes')).status).to.equal(201);
      const fresh = await start(undefined, shared);
      expect((await client(fresh.url).get(STATS)).body).to.deep.include({ files: 5, spaceUsed: 25 });
      // Read your writes across replicas: a write on one, statistics on the other at once.
      expect((await upload(`${first.url}/v1/files/o/p/g`, 'PUT', 'more')).status).to.equal(201);
      expect((await client(fresh.url).get(STATS)).body).to.deep.include({ files: 6, spaceUsed: 29 });
      await stop(first);
      // A third replica starts from the snapshot the others kept beside the log.
      const third = await start(undefined, shared);
      expect((await client(third.url).get(STATS)).body).to.deep.include({ files: 6, spaceUsed: 29 });
    } finally {
      for (const server of [...servers]) await stop(server);
      await dropPrefix(prefix);
    }
  });

  it('on the shared layout (Redis log, Virtuoso store), a fresh replica answers from the accounts beside the log, reading no file state', async () => {
    const prefix = uniquePrefix('storage-usage-shared');
    const virtuoso = await useVirtuoso();
    try {
      await clearVirtuoso(virtuoso.server);
      const shared = { redisUrl: REDIS_URL, redisPrefix: prefix, sparqlStore: virtuoso.server, statesCache: 20 };
      const first = await start(undefined, shared);
      const api = client(first.url);
      await api.put('/v1/orgs/o', {});
      await api.put('/v1/projects/o/p', {});
      for (let i = 0; i < 60; i++) expect((await upload(`${first.url}/v1/files/o/p/f${i}`, 'PUT', 'bytes')).status).to.equal(201);
      expect((await upload(`${first.url}/v1/files/o/p/f0?rev=1`, 'PUT', 'other')).status).to.equal(200);
      expect((await api.delete('/v1/files/o/p/f1?rev=1')).status).to.equal(200);
      // The first replica's stop keeps its accounts beside the log; the fresh one folds only what follows.
      await stop(first);
      const { probe, reads } = statesReads();
      const fresh = await start(undefined, shared, { capabilities: [probe] });
      for (const kind of Object.keys(reads)) delete reads[kind];
      expect((await client(fresh.url).get(STATS)).body).to.deep.include({ files: 61, spaceUsed: 305 });
      expect(reads['files keys'] ?? 0, JSON.stringify(reads)).to.equal(0);
      expect(reads['files'] ?? 0, JSON.stringify(reads)).to.equal(0);
      expect((await upload(`${fresh.url}/v1/files/o/p/g`, 'PUT', 'more')).status).to.equal(201);
      expect((await client(fresh.url).get(STATS)).body).to.deep.include({ files: 62, spaceUsed: 309 });
    } finally {
      for (const server of [...servers]) await stop(server);
      await dropPrefix(prefix);
      await releaseVirtuoso();
    }
  });
});
