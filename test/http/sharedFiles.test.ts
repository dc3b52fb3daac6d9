import { expect } from 'chai';
import { tmpdir } from 'node:os';
import { heldEntries } from '../support/heldEntries.js';
import { client } from '../support/client.js';
import { storagesConfig, upload } from '../support/files.js';
import { dropPrefix, REDIS_URL, uniquePrefix } from '../support/redis.js';
import { startServer } from '../support/server.js';
import type { TestServer } from '../support/server.js';
import { clearVirtuoso, releaseVirtuoso, useVirtuoso } from '../support/virtuoso.js';

/** Files uploaded: far over the states cache, so that a replica holding every file's state would show (SHARED_FILES raises it). */
const FILES = Number(process.env['SHARED_FILES'] ?? 400);
const STATES_CACHE = 50;
const CONCURRENT = 8;

describe('files on the shared layout (Redis log, Virtuoso store): no replica holds their states (issue 34)', function () {
  this.timeout(600_000);
  let server: TestServer;
  let api: ReturnType<typeof client>;
  let prefix = '';
  before(async () => {
    const virtuoso = await useVirtuoso();
    await clearVirtuoso(virtuoso.server);
    prefix = uniquePrefix('shared-files');
    const { config } = storagesConfig();
    server = await startServer({
      sparqlStore: virtuoso.server,
      redisUrl: REDIS_URL,
      redisPrefix: prefix,
      statesCache: STATES_CACHE,
      storages: { ...config, allowedVolumes: [tmpdir()] },
    });
    api = client(server.url);
  });
  after(async () => {
    await server?.stop(true);
    await dropPrefix(prefix);
    await releaseVirtuoso();
  });

  it(`after ${FILES} uploads, the states held stay bounded, and fetches, updates, statistics and deletion read the files where the log keeps them`, async () => {
    expect((await api.put('/v1/orgs/sf', {})).status).to.equal(201);
    expect((await api.put('/v1/projects/sf/p', {})).status).to.equal(201);
    const before = await heldEntries(api);
    const F = `${server.url}/v1/files/sf/p`;
    let next = 0;
    await Promise.all(
      Array.from({ length: CONCURRENT }, async () => {
        for (let i = next++; i < FILES; i = next++) {
          const res = await upload(`${F}/f${i}`, 'PUT', `bytes of ${i}`);
          expect(res.status, JSON.stringify(res.body)).to.equal(201);
        }
      }),
    );
    const held = await heldEntries(api);
    // No file state in the fold's maps (the org's, project's, storage's... only), the caches within their bounds.
    expect(held['states'], 'states held in the maps').to.equal(before['states']);
    expect(held['stateCaches'], 'states cached').to.be.within(1, 2 * STATES_CACHE);

    expect(await (await fetch(`${F}/f7`)).text()).to.equal('bytes of 7');
    const updated = await upload(`${F}/f7?rev=1`, 'PUT', 'second');
    expect(updated.status, JSON.stringify(updated.body)).to.equal(200);
    expect((await api.post('/v1/files/sf/p/f7/tags?rev=2', { tag: 'first', rev: 1 })).status).to.equal(201);
    expect(await (await fetch(`${F}/f7?tag=first`)).text()).to.equal('bytes of 7');
    expect((await upload(`${F}/f8`, 'PUT', 'taken')).status).to.equal(409);
    const stats = await api.get('/v1/storages/sf/p/defaultStorage/statistics');
    expect(stats.body.files, stats.text).to.equal(FILES + 1);
    expect((await api.delete('/v1/files/sf/p/f9?rev=1')).status).to.equal(200);
    const deleted = await api.delete('/v1/projects/sf/p?rev=1&prune=true');
    expect(deleted.status, deleted.text).to.equal(200);
    expect((await fetch(`${F}/f7`)).status).to.equal(404);
  });
});
