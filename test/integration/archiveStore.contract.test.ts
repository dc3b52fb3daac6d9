import { Redis } from 'ioredis';
import { expect } from 'chai';
import type { ArchiveRecord } from '../../src/modules/archives/Archive.js';
import type { ArchiveCaps, ArchiveStore } from '../../src/modules/archives/ArchiveStore.js';
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

/** Small caps, so that the contract reaches them: 3 archives a caller, 5 a project, and bytes enough for ~4 small records a caller. */
const CAPS: ArchiveCaps = { perCaller: { count: 3, bytes: 1_400 }, perProject: { count: 5, bytes: 100_000 } };

/** Every archive store: keeps a record once under its key, hands it back, forgets it once expired; holds each caller and project to its caps. */
const contract = (name: string, make: (now: () => number) => { store: ArchiveStore; stop(): Promise<void> }) =>
  describe(`archive store contract: ${name}`, () => {
    let clock = Date.now();
    let store: ArchiveStore;
    let stop: () => Promise<void>;
    before(() => ({ store, stop } = make(() => clock)));
    after(() => stop());

    it('keeps a record under its key, once', async () => {
      const r = record('http://x/a', new Date(clock + 60_000).toISOString());
      expect(await store.create('o/p/http://x/a', r, 'one')).to.equal('kept');
      expect(await store.get('o/p/http://x/a')).to.deep.equal(r);
      expect(await store.create('o/p/http://x/a', r, 'one')).to.equal('exists');
      expect(await store.get('o/p/http://x/other')).to.equal(undefined);
    });

    it('forgets a record once it expires', async () => {
      const r = record('http://x/b', new Date(clock + 1_500).toISOString());
      expect(await store.create('o/p/http://x/b', r, 'two')).to.equal('kept');
      clock += 1_500;
      // Redis expires on its own clock: wait for the key to go, by polling (no timed assertion).
      for (let i = 0; i < 100 && (await store.get('o/p/http://x/b')) !== undefined; i++) await new Promise((ok) => setTimeout(ok, 50));
      expect(await store.get('o/p/http://x/b')).to.equal(undefined);
    });

    it('refuses a caller past its count, says when its oldest expires, and keeps more once they expire', async () => {
      const at = clock + 60_000;
      for (const n of [1, 2, 3]) expect(await store.create(`q/p/c${n}`, record(`c${n}`, new Date(at + n).toISOString(), 'q/p'), 'counted')).to.equal('kept');
      const refused = await store.create('q/p/c4', record('c4', new Date(at + 4).toISOString(), 'q/p'), 'counted');
      expect(refused).to.deep.equal({ over: 'caller', limit: 'count', max: 3, freedAt: at + 1 });
      expect(await store.get('q/p/c4')).to.equal(undefined);
      // Another caller is not held to this one's cap; the project's is its own (5: two more of anyone's).
      expect(await store.create('q/p/d1', record('d1', new Date(at + 5).toISOString(), 'q/p'), 'other')).to.equal('kept');
      expect(await store.create('q/p/d2', record('d2', new Date(at + 6).toISOString(), 'q/p'), 'other')).to.equal('kept');
      expect(await store.create('q/p/d3', record('d3', new Date(at + 7).toISOString(), 'q/p'), 'other')).to.deep.include({
        over: 'project',
        limit: 'count',
        max: 5,
      });
      expect(await store.create('q/r/d3', record('d3', new Date(at + 7).toISOString(), 'q/r'), 'other')).to.equal('kept');
      clock = at + 10;
      expect(await store.create('q/p/c5', record('c5', new Date(clock + 60_000).toISOString(), 'q/p'), 'counted')).to.equal('kept');
    });

    it('refuses a caller past its bytes', async () => {
      const big = (id: string) => ({ ...record(id, new Date(clock + 60_000).toISOString(), 'b/p'), source: [{ pad: 'x'.repeat(300) }] });
      let kept = 0;
      let refused: unknown;
      for (let n = 0; n < 10 && !refused; n++) {
        const outcome = await store.create(`b/p/${n}`, big(String(n)), 'heavy');
        if (outcome === 'kept') kept++;
        else refused = outcome;
      }
      expect(kept).to.be.within(1, 2);
      expect(refused).to.deep.include({ over: 'caller', limit: 'bytes', max: 1_400 });
    });

    it('forgets every record of a deleted project, and only its own', async () => {
      const at = new Date(clock + 60_000).toISOString();
      for (const [project, id] of [
        ['o/gone', 'http://x/1'],
        ['o/gone', 'http://x/2'],
        ['o/gone2', 'http://x/1'],
        ['o/kept', 'http://x/1'],
      ] as const)
        expect(await store.create(`${project}/${id}`, record(id, at, project), project)).to.equal('kept');
      await store.removeProject('o/gone');
      expect(await store.get('o/gone/http://x/1')).to.equal(undefined);
      expect(await store.get('o/gone/http://x/2')).to.equal(undefined);
      expect((await store.get('o/gone2/http://x/1'))?.project).to.equal('o/gone2');
      expect((await store.get('o/kept/http://x/1'))?.project).to.equal('o/kept');
      expect(await store.create('o/gone/http://x/1', record('http://x/1', at, 'o/gone'), 'owner')).to.equal('kept');
    });
  });

contract('memory', (now) => {
  const store = new MemoryArchiveStore(CAPS, now);
  return { store, stop: () => store.close() };
});

contract('redis', (now) => {
  const prefix = uniquePrefix('archives');
  const redis = new Redis(REDIS_URL);
  const store = new RedisArchiveStore(redis, `${prefix}:archives`, CAPS, now);
  return {
    store,
    stop: async () => {
      await store.close();
      redis.disconnect();
      await dropPrefix(prefix);
    },
  };
});
