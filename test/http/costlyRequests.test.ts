import { expect } from 'chai';
import { startServer } from '../support/server.js';
import type { TestServer } from '../support/server.js';
import { client } from '../support/client.js';

/** Searches that cost the CPU most per byte sent: many wildcard clauses, many prefixes. */
const wildcards = (salt: number) => ({
  query: { bool: { should: Array.from({ length: 1_000 }, (_, i) => ({ wildcard: { 'name.keyword': `${'*?'.repeat(20)}${salt}-${i}x` } })) } },
});
const prefixes = (salt: number) => ({ query: { query_string: { query: Array.from({ length: 1_000 }, (_, i) => `w${salt}${i}*`).join(' ') } } });

const seed = async (api: ReturnType<typeof client>, count: number) => {
  expect((await api.put('/v1/orgs/cr', {})).status).to.equal(201);
  expect((await api.put('/v1/projects/cr/p', {})).status).to.equal(201);
  for (let i = 0; i < count; i++) {
    const res = await api.put(`/v1/resources/cr/p/_/r${i}`, {
      '@context': { '@vocab': 'http://x/' },
      name: `item number ${i} ${'abcdefgh'.repeat(4)}`,
      description: `${'lorem ipsum dolor sit amet '.repeat(5)}${i}`,
    });
    expect(res.status).to.equal(201);
  }
};

describe('costly requests share the event loop: searches run in slices, and each caller has a share', function () {
  this.timeout(120_000);

  describe('ten costly searches at once', () => {
    let server: TestServer;
    let api: ReturnType<typeof client>;
    before(async () => {
      server = await startServer({ searchTimeoutMillis: 600_000, costlyPerCaller: 20 });
      api = client(server.url);
      await seed(api, 100);
    });
    after(() => server?.stop(true));

    it('answers GET /v1/version before any of ten costly searches (wildcards, query_string prefixes) finishes', async () => {
      let finished = 0;
      const searches = Array.from({ length: 10 }, (_, i) =>
        api.post('/v1/search/query', i % 2 ? prefixes(i) : wildcards(i)).then((res) => {
          finished++;
          return res;
        }),
      );
      // Let the searches reach the server first: the probe comes in behind them.
      await new Promise((r) => setTimeout(r, 200));
      const probe = await api.get('/v1/version');
      expect(probe.status).to.equal(200);
      expect(finished, 'searches that finished before the probe was answered').to.equal(0);
      const answers = await Promise.all(searches);
      for (const res of answers) expect(res.status, res.text).to.equal(200);
    });
  });

  describe('a share per caller', () => {
    let server: TestServer;
    let api: ReturnType<typeof client>;
    before(async () => {
      server = await startServer({ searchTimeoutMillis: 600_000, costlyPerCaller: 2 });
      api = client(server.url);
      await seed(api, 30);
    });
    after(() => server?.stop(true));

    it('takes the caller’s first two costly requests, refuses any past its share in flight with a typed 429 and Retry-After, then serves it again', async () => {
      // How many overlap depends on the machine's speed: the exact count at the limit is tested by
      // ordering in costlyShare.test.ts. Here, over HTTP: the first two are always taken, and every
      // refusal is the typed 429.
      const answers = await Promise.all(Array.from({ length: 6 }, (_, i) => api.post('/v1/search/query', wildcards(i))));
      expect(answers.map((res) => res.status).filter((status) => status !== 200 && status !== 429)).to.deep.equal([]);
      expect(answers.filter((res) => res.status === 200).length).to.be.at.least(2);
      for (const refused of answers.filter((res) => res.status === 429)) {
        expect(refused.body['@type']).to.equal('TooManyRequests');
        expect(refused.headers.get('retry-after')).to.equal('1');
        expect(refused.body.limit).to.equal(2);
      }
      // The share is given back as searches finish; cheap requests are never counted.
      expect((await api.post('/v1/search/query', { query: { match_all: {} } })).status).to.equal(200);
      expect((await api.get('/v1/version')).status).to.equal(200);
    });
  });
});
