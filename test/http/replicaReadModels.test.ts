import { expect } from 'chai';
import type { Config } from '../../src/config/Config.js';
import { heldEntries } from '../support/heldEntries.js';
import { client, enc } from '../support/client.js';
import { dropPrefix, REDIS_URL, uniquePrefix } from '../support/redis.js';
import { startServer } from '../support/server.js';
import type { TestServer } from '../support/server.js';
import { clearVirtuoso, releaseVirtuoso, useVirtuoso } from '../support/virtuoso.js';

/** Items created through a replica: enough that a structure kept per item would show (READ_MODEL_ITEMS raises it, e.g. to 10000). */
const ITEMS = Number(process.env['READ_MODEL_ITEMS'] ?? 2_000);
const CONCURRENT = 8;
/** The replicas' bound on the states they cache (`STATES_CACHE`), far under the items created. */
const STATES_CACHE = 300;

const S = 'http://schema.org/';

const createMany = async (api: ReturnType<typeof client>, project: string, count: number, name: (i: number) => string) => {
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENT }, async () => {
      for (let i = next++; i < count; i = next++) {
        const res = await api.put(`/v1/resources/${project}/_/r${i}`, { '@context': { '@vocab': S }, '@type': 'Thing', name: name(i), rank: i });
        expect(res.status, res.text).to.equal(201);
      }
    }),
  );
};

/** Waits until the store's writer caught up with the log (a listing reads the store and answers 503 while it is behind). */
const storeCaughtUp = async (api: ReturnType<typeof client>) => {
  const until = Date.now() + 300_000;
  for (;;) {
    const res = await api.get('/v1/resources?size=1');
    if (res.status === 200) return;
    expect(res.status, res.text).to.equal(503);
    expect(Date.now(), 'the store caught up').to.be.below(until);
    // Asked again shortly, not at once: a request a millisecond takes the cores the writer it waits for needs.
    await new Promise((r) => setTimeout(r, 50));
  }
};

const idsOf = (body: { _results: { '@id': string }[] }) => body._results.map((r) => r['@id'].slice(r['@id'].lastIndexOf('/') + 2));

/**
 * A `q` listing sorted otherwise than by score whose word is in more items than one page query
 * names (`LISTED_ITEMS_AT_ONCE`): asked per chunk and merged, the same total, order and cursors as
 * the listing without `q` over the same items. Items named `common item i` for i % 10 != 0.
 */
const sortedCommonWord = async (api: ReturnType<typeof client>, project: string, count: number) => {
  const common = Array.from({ length: count }, (_, i) => i).filter((i) => i % 10 !== 0);
  const descending = [...common].reverse().map(String);
  const page = await api.get(`/v1/resources/${project}?q=common&sort=-rank&from=5&size=3`);
  expect([page.status, page.body._total, idsOf(page.body)], page.text).to.deep.equal([200, common.length, descending.slice(5, 8)]);
  // Walks a few pages by cursor: exact, whatever chunk each row came from.
  let next = `/v1/resources/${project}?q=common&sort=-rank&size=4`;
  const walked: string[] = [];
  for (let i = 0; i < 3; i++) {
    const res = await api.get(next);
    expect(res.status, res.text).to.equal(200);
    walked.push(...idsOf(res.body));
    next = new URL(res.body._next).pathname + new URL(res.body._next).search;
  }
  expect(walked).to.deep.equal(descending.slice(0, 12));
  const byCreation = await api.get(`/v1/resources/${project}?q=common&sort=_rev&sort=@id&size=2`);
  const plain = await api.get(`/v1/resources/${project}?sort=_rev&sort=@id&size=30`);
  expect(byCreation.status, byCreation.text).to.equal(200);
  expect(idsOf(byCreation.body)).to.deep.equal(
    idsOf(plain.body)
      .filter((id) => Number(id) % 10 !== 0)
      .slice(0, 2),
  );
};

describe('replicas hold no read model that grows with the items', function () {
  this.timeout(600_000);

  it('embedded: the catalogue index holds an entry per item (what the gauge counts)', async () => {
    const server = await startServer();
    try {
      const api = client(server.url);
      await api.put('/v1/orgs/e', {});
      await api.put('/v1/projects/e/p', {});
      await createMany(api, 'e/p', 20, (i) => `item ${i}`);
      expect((await heldEntries(api))['catalogue']).to.be.at.least(20);
    } finally {
      await server.stop(true);
    }
  });

  it('embedded: a sorted q listing of a word in more items than a page query names is merged from chunks, as on the external store', async () => {
    const server = await startServer();
    try {
      const api = client(server.url);
      await api.put('/v1/orgs/e', {});
      await api.put('/v1/projects/e/p', {});
      await createMany(api, 'e/p', 1_200, (i) => (i % 10 === 0 ? `rare heron ${i}` : `common item ${i}`));
      await sortedCommonWord(api, 'e/p', 1_200);
    } finally {
      await server.stop(true);
    }
  });

  describe('on the external store (Virtuoso) with the log on Redis', () => {
    let config: Partial<Config>;
    const servers: TestServer[] = [];
    before(async () => {
      const virtuoso = await useVirtuoso();
      await clearVirtuoso(virtuoso.server);
      config = { sparqlStore: virtuoso.server, redisUrl: REDIS_URL, redisPrefix: uniquePrefix('read-models'), statesCache: STATES_CACHE };
      servers.push(await startServer(config), await startServer(config));
    });
    after(async () => {
      for (const server of servers) await server.stop(true);
      if (config?.redisPrefix) await dropPrefix(config.redisPrefix);
      await releaseVirtuoso();
    });

    it(`after ${ITEMS} creates through a replica, neither replica holds a catalogue or payload sort entry, and both list, sort, search and count them all`, async () => {
      const [a, b] = servers.map((s) => client(s.url)) as [ReturnType<typeof client>, ReturnType<typeof client>];
      expect((await a.put('/v1/orgs/x', {})).status).to.equal(201);
      expect((await a.put('/v1/projects/x/p', {})).status).to.equal(201);
      await createMany(a, 'x/p', ITEMS, (i) => (i % 10 === 0 ? `rare heron ${i}` : `common item ${i}`));
      await storeCaughtUp(b);
      for (const api of [a, b]) {
        // Sorted by a payload field (the embedded layout's payload sort index) and listed in the default order.
        const sorted = await api.get(`/v1/resources/x/p?sort=-rank&size=3`);
        expect(sorted.status, sorted.text).to.equal(200);
        expect([sorted.body._total, sorted.body._results.map((r: { '@id': string }) => r['@id'].slice(r['@id'].lastIndexOf('/') + 2))]).to.deep.equal([
          ITEMS,
          [ITEMS - 1, ITEMS - 2, ITEMS - 3].map(String),
        ]);
        const listed = await api.get('/v1/resources/x/p?size=2');
        expect(listed.body._total).to.equal(ITEMS);
        const q = await api.get('/v1/resources/x/p?q=heron&size=1');
        expect(q.body._total).to.equal(ITEMS / 10);
        // Sorted otherwise than by score: the matches listed in that order. (Not yet a word of most of
        // 10,000 items: the matches reach the page query as one VALUES block, which Virtuoso refuses
        // past a few thousand, SP030.)
        const sortedQ = await api.get('/v1/resources/x/p?q=heron&sort=-rank&size=2');
        expect([sortedQ.status, sortedQ.body._total], sortedQ.text).to.deep.equal([200, ITEMS / 10]);
        await sortedCommonWord(api, 'x/p', ITEMS);
        const aggregated = await api.get('/v1/resources/x/p?q=heron&aggregations=true');
        expect(aggregated.status, aggregated.text).to.equal(200);
        const held = await heldEntries(api);
        expect([held['catalogue'], held['payloadSorts']]).to.deep.equal([0, 0]);
        expect(held['listingCache']).to.be.within(0, 256);
        // No state of a resource in the fold's maps (those held are the org's, project's, views'...),
        // and the states cached (the shared states' cache, the fold's last ones) within their bounds.
        expect(held['states'], 'states held in the maps').to.be.below(50);
        expect(held['stateCaches'], 'states cached').to.be.within(1, 2 * STATES_CACHE);
      }
    });

    it('a listing on the other replica right after a write shows it (the read barrier waits for the store)', async () => {
      const [a, b] = servers.map((s) => client(s.url)) as [ReturnType<typeof client>, ReturnType<typeof client>];
      await a.put('/v1/projects/x/fresh', {});
      await storeCaughtUp(b);
      for (let i = 0; i < 5; i++) {
        const id = `http://ex.org/w${i}`;
        const written = await a.put(`/v1/resources/x/fresh/_/${enc(id)}?indexing=async`, { '@context': { '@vocab': S }, name: `written ${i}` });
        expect(written.status, written.text).to.equal(201);
        // Each listing is asked again after every write: a page kept by either replica must not hide it.
        for (const api of [b, a]) {
          const listing = await api.get('/v1/resources/x/fresh?size=100');
          expect([listing.status, listing.body._total], listing.text).to.deep.equal([200, i + 1]);
          expect(listing.body._results.map((r: { '@id': string }) => r['@id'])).to.include(id);
          const org = await api.get('/v1/resources/x?size=1');
          expect(org.body._total).to.equal(ITEMS + i + 1);
        }
        const q = await b.get(`/v1/resources/x/fresh?q=written`);
        expect([q.status, q.body._total], q.text).to.deep.equal([200, i + 1]);
      }
    });
  });
});
