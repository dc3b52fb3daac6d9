import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { RedisCostlyShares } from '../../src/http/RedisCostlyShares.js';
import { consoleLog } from '../../src/kernel/Log.js';
import { client, enc } from '../support/client.js';
import { killStarted } from '../support/process.js';
import type { Proc } from '../support/process.js';
import { dropPrefix, REDIS_URL, uniquePrefix } from '../support/redis.js';
import { startReplicas } from '../support/replicas.js';

const PER_CALLER = 2;

/** Two replicas as a deployment runs them (separate processes and data directories, one Redis). */
describe('two replicas on one Redis: reads see writes made on the other, and one share of costly requests per caller', function () {
  this.timeout(300_000);
  const prefix = uniquePrefix('costly-replicas');
  const dirs = [mkdtempSync(join(tmpdir(), 'replica-a-')), mkdtempSync(join(tmpdir(), 'replica-b-'))];
  let a: Proc;
  let b: Proc;
  const redis = new Redis(REDIS_URL);
  before(async () => {
    [a, b] = (await startReplicas(prefix, dirs, { COSTLY_PER_CALLER: String(PER_CALLER) })) as [Proc, Proc];
    expect((await client(a.url).put('/v1/orgs/cr', {})).status).to.equal(201);
    expect((await client(a.url).put('/v1/projects/cr/p', {})).status).to.equal(201);
  });
  after(async () => {
    killStarted();
    redis.disconnect();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    await dropPrefix(prefix);
  });

  // B learns of A's writes only from the log: each read waits for what its route declared, or would miss them.
  it('answers on B, at once, the q and sorted listings, links, search and SPARQL of what was written on A', async () => {
    const [onA, onB] = [client(a.url), client(b.url)];
    const ctx = { '@vocab': 'http://schema.org/' };
    let previous: string | undefined;
    for (let round = 0; round < 5; round++) {
      const id = `http://ex.org/cr-${round}`;
      const word = `crossword${round}x`;
      const created = await onA.put(`/v1/resources/cr/p/_/${enc(id)}`, { '@context': ctx, name: word, ...(previous ? { knows: { '@id': previous } } : {}) });
      expect(created.status, created.text).to.equal(201);
      const byWord = await onB.get(`/v1/resources/cr/p?q=${word}`);
      expect(
        byWord.body['_results'].map((r: { '@id': string }) => r['@id']),
        byWord.text,
      ).to.deep.equal([id]);
      const newest = await onB.get('/v1/resources/cr/p?sort=-_createdAt&size=1');
      expect(newest.body['_results'][0]['@id'], newest.text).to.equal(id);
      if (previous) {
        const incoming = await onB.get(`/v1/resources/cr/p/_/${enc(previous)}/incoming`);
        expect(
          incoming.body['_results'].map((r: { '@id': string }) => r['@id']),
          incoming.text,
        ).to.include(id);
      }
      const searched = await onB.post('/v1/search/query', { query: { match_all: {} }, size: 1000 });
      expect(
        searched.body.hits.hits.map((h: { _id: string }) => h._id),
        searched.text,
      ).to.include(id);
      const query = `SELECT ?s WHERE { ?s <http://schema.org/name> "${word}" }`;
      const selected = await onB.get(`/v1/views/cr/p/graph/sparql?query=${enc(query)}`, { accept: 'application/sparql-results+json' });
      expect(
        selected.body.results.bindings.map((r: { s: { value: string } }) => r.s.value),
        selected.text,
      ).to.deep.equal([id]);
      previous = id;
    }
  });

  /**
   * A request in flight cannot be held on a replica from outside; its share is held here instead,
   * through the same port on the same Redis key as a third replica serving the caller would.
   */
  it('refuses on both replicas the costly requests of a caller whose share is in flight elsewhere, and serves them once it is given back; cheap requests still pass', async () => {
    const elsewhere = new RedisCostlyShares(redis, `{${prefix}}:costly`, PER_CALLER, consoleLog);
    // Anonymous callers count by the address they connect from: this test's, on loopback.
    const held = [await elsewhere.take('address 127.0.0.1'), await elsewhere.take('address 127.0.0.1')];
    const search = (url: string) => client(url).post('/v1/search/query', { query: { match_all: {} }, size: 1 });
    const sparql = (url: string) =>
      client(url).get(`/v1/views/cr/p/graph/sparql?query=${enc('SELECT * WHERE { ?s ?p ?o } LIMIT 1')}`, { accept: 'application/sparql-results+json' });
    for (const answer of [await search(a.url), await search(b.url), await sparql(b.url)]) {
      expect([answer.status, answer.headers.get('retry-after'), answer.body['@type'], answer.body.limit], answer.text).to.deep.equal([
        429,
        '1',
        'TooManyRequests',
        PER_CALLER,
      ]);
    }
    expect((await client(b.url).get('/v1/resources/cr/p')).status).to.equal(200);
    await held[0]!();
    expect((await search(a.url)).status).to.equal(200);
    expect((await sparql(b.url)).status).to.equal(200);
    await held[1]!();
    // Every request gave its share back: the caller's set in Redis is empty again (a replica gives
    // it back once its answer is sent, so it may land just after the client has read it).
    const key = `{${prefix}}:costly:address 127.0.0.1`;
    for (let i = 0; i < 100 && (await redis.zcard(key)) > 0; i++) await new Promise((r) => setTimeout(r, 20));
    expect(await redis.zcard(key)).to.equal(0);
  });
});
