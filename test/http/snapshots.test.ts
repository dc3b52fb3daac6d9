import { expect } from 'chai';
import { existsSync, statSync, truncateSync } from 'node:fs';
import { join } from 'node:path';
import { startServer } from '../support/server.js';
import { client } from '../support/client.js';

describe('snapshots taken in the background while writes go on', () => {
  it('restart from them with nothing lost, including writes made while a snapshot was written', async () => {
    const first = await startServer({ snapshotEvents: 7, snapshotMillis: 0 });
    let api = client(first.url);
    await api.put('/v1/orgs/snap', {});
    await api.put('/v1/projects/snap/p', {});
    const doc = (i: number, v: number) => ({ '@context': { '@vocab': 'http://schema.org/' }, name: `r${i}`, v });
    await Promise.all(Array.from({ length: 60 }, (_, i) => api.put(`/v1/resources/snap/p/_/r${i}`, doc(i, 0))));
    await Promise.all(Array.from({ length: 20 }, (_, i) => api.put(`/v1/resources/snap/p/_/r${i}?rev=1`, doc(i, 1))));
    // The snapshot is written in the background: wait for it (a loaded machine takes longer than 50 ms), by polling.
    const snapshot = join(first.dataDir, 'projection', 'snapshot.json');
    for (let i = 0; i < 200 && !existsSync(snapshot); i++) await new Promise((r) => setTimeout(r, 25));
    expect(existsSync(snapshot)).to.equal(true);
    await first.stop();
    const second = await startServer({}, first.dataDir);
    api = client(second.url);
    try {
      const listing = await api.get('/v1/resources/snap/p?size=100');
      expect(listing.body['_total']).to.equal(60);
      for (let i = 0; i < 60; i++) {
        const res = await api.get(`/v1/resources/snap/p/_/r${i}`);
        expect(res.body['_rev'], `r${i}`).to.equal(i < 20 ? 2 : 1);
        expect(res.body['v']).to.equal(i < 20 ? 1 : 0);
      }
      expect((await api.get('/v1/resources/snap/p/_/r3?rev=1')).body['v']).to.equal(0);
    } finally {
      await second.stop(true);
    }
  });

  it('replays the whole log when the revision file is shorter than the snapshot records', async () => {
    const first = await startServer();
    let api = client(first.url);
    await api.put('/v1/orgs/cut', {});
    await api.put('/v1/projects/cut/p', {});
    for (let i = 0; i < 10; i++) await api.put(`/v1/resources/cut/p/_/r${i}`, { '@context': { '@vocab': 'http://schema.org/' }, name: `r${i}` });
    const quads = (await api.get('/v1/version')).body.store.quads;
    await first.stop();
    const revisions = join(first.dataDir, 'projection', 'revisions.nq');
    truncateSync(revisions, Math.floor(statSync(revisions).size / 2));
    // The log line saying so is checked in a separate process (test/integration/recovery.test.ts).
    const second = await startServer({}, first.dataDir);
    api = client(second.url);
    try {
      expect((await api.get('/v1/resources/cut/p')).body['_total']).to.equal(10);
      // Every revision graph is back in the store, not only the states.
      expect((await api.get('/v1/version')).body.store.quads).to.equal(quads);
    } finally {
      await second.stop(true);
    }
  });
});
