import { Redis } from 'ioredis';
import { expect } from 'chai';
import type { ArchiveRecord } from '../../src/modules/archives/Archive.js';
import type { ArchiveStore } from '../../src/modules/archives/ArchiveStore.js';
import { MemoryArchiveStore, RedisArchiveStore } from '../../src/modules/archives/ArchiveStore.js';
import { dropPrefix, REDIS_URL, uniquePrefix } from '../support/redis.js';

const record = (id: string, expiresAt: string, project = 'o/p'): ArchiveRecord => ({
  id,
  project,
  resources: [{ type: 'Resource', resourceId: 'x', format: 'compacted' }],
  source: [{ '@type': 'Resource', resourceId: 'x' }],
  createdAt: new Date().toISOString(),
  createdBy: 'anonymous',
  expiresAt,
});

/** Every archive store: keeps a record once under its key, hands it back, forgets it once expired. */
const contract = (name: string, make: (now: () => number) => { store: ArchiveStore; stop(): Promise<void> }) =>
  describe(`archive store contract: ${name}`, () => {
    let clock = Date.now();
    let store: ArchiveStore;
    let stop: () => Promise<void>;
    before(() => ({ store, stop } = make(() => clock)));
    after(() => stop());

    it('keeps a record under its key, once', async () => {
      const r = record('http://x/a', new Date(clock + 60_000).toISOString());
      expect(await store.create('o/p/http://x/a', r)).to.equal(true);
      expect(await store.get('o/p/http://x/a')).to.deep.equal(r);
      expect(await store.create('o/p/http://x/a', r)).to.equal(false);
      expect(await store.get('o/p/http://x/other')).to.equal(undefined);
    });

    it('forgets a record once it expires', async () => {
      const r = record('http://x/b', new Date(clock + 1_500).toISOString());
      expect(await store.create('o/p/http://x/b', r)).to.equal(true);
      clock += 1_500;
      // Redis expires on its own clock: wait for the key to go, by polling (no timed assertion).
      for (let i = 0; i < 100 && (await store.get('o/p/http://x/b')) !== undefined; i++) await new Promise((ok) => setTimeout(ok, 50));
      expect(await store.get('o/p/http://x/b')).to.equal(undefined);
    });

    it('forgets every record of a deleted project, and only its own', async () => {
      const at = new Date(clock + 60_000).toISOString();
      for (const [project, id] of [
        ['o/gone', 'http://x/1'],
        ['o/gone', 'http://x/2'],
        ['o/gone2', 'http://x/1'],
        ['o/kept', 'http://x/1'],
      ] as const)
        expect(await store.create(`${project}/${id}`, record(id, at, project))).to.equal(true);
      await store.removeProject('o/gone');
      expect(await store.get('o/gone/http://x/1')).to.equal(undefined);
      expect(await store.get('o/gone/http://x/2')).to.equal(undefined);
      expect((await store.get('o/gone2/http://x/1'))?.project).to.equal('o/gone2');
      expect((await store.get('o/kept/http://x/1'))?.project).to.equal('o/kept');
      expect(await store.create('o/gone/http://x/1', record('http://x/1', at, 'o/gone'))).to.equal(true);
    });
  });

contract('memory', (now) => {
  const store = new MemoryArchiveStore(now);
  return { store, stop: () => store.close() };
});

contract('redis', (now) => {
  const prefix = uniquePrefix('archives');
  const redis = new Redis(REDIS_URL);
  const store = new RedisArchiveStore(redis, `${prefix}:archives`, now);
  return {
    store,
    stop: async () => {
      await store.close();
      redis.disconnect();
      await dropPrefix(prefix);
    },
  };
});
