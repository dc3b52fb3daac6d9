import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, killStarted, ready, start } from '../support/process.js';
import type { Proc } from '../support/process.js';
import { dropPrefix, REDIS_URL, uniquePrefix } from '../support/redis.js';
import { clearVirtuoso, releaseVirtuoso, storeEnv, useVirtuoso } from '../support/virtuoso.js';
import type { Virtuoso } from '../support/virtuoso.js';

const json = { 'content-type': 'application/json' };
const enc = encodeURIComponent;

/**
 * The store's writer on Debian's stock `virtuoso.ini` (its limits, not the tests' minimal ones),
 * through a replica on Redis: a plain load of many resources is written whole (its requests sized
 * to what the store accepts), and an id the store cannot take as written never holds the writer.
 */
describe('the store writer on Virtuoso with its stock settings (one replica, Redis)', function () {
  this.timeout(300_000);
  let virtuoso: Virtuoso;
  let prefix: string;
  let proc: Proc;
  let dir: string;
  before(async () => {
    virtuoso = await useVirtuoso('stock');
    await clearVirtuoso(virtuoso.server);
    prefix = uniquePrefix('writer-stock');
    dir = mkdtempSync(join(tmpdir(), 'registry-writer-stock-'));
    proc = start({
      PORT: String(await freePort()),
      BASE_URL: 'http://registry.test',
      DATA_DIR: dir,
      REDIS_URL,
      REDIS_PREFIX: prefix,
      STORAGE_PASSWORD: 'shared',
      ...storeEnv(virtuoso.server),
    });
    await ready(proc);
    for (const path of ['/v1/orgs/o', '/v1/projects/o/p0', '/v1/projects/o/odd', '/v1/projects/o/other'])
      expect((await call('PUT', path, {})).status, path).to.equal(201);
  });
  after(async () => {
    killStarted();
    rmSync(dir, { recursive: true, force: true });
    if (prefix) await dropPrefix(prefix);
    await releaseVirtuoso('stock');
  });

  const call = async (method: string, path: string, body?: unknown) => {
    const answer = await fetch(`${proc.url}${path}`, { method, headers: json, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
    const text = await answer.text();
    return { status: answer.status, text, body: text ? (JSON.parse(text) as Record<string, any>) : {} };
  };

  /** A read once the store's writer caught up: until then readers answer 503 ProjectionsBehind (the writer goes on meanwhile). */
  const settled = async (method: string, path: string, body?: unknown) => {
    for (const deadline = Date.now() + 240_000; ;) {
      const answer = await call(method, path, body);
      if (answer.status !== 503 || answer.body['@type'] !== 'ProjectionsBehind' || Date.now() > deadline) return answer;
      await new Promise((r) => setTimeout(r, 100));
    }
  };

  it('loads 2,000 resources of ~25 properties at concurrency 16 and reads them all back by a sorted listing', async () => {
    const total = 2_000;
    let next = 0;
    const worker = async () => {
      for (let i = next++; i < total; i = next++) {
        const payload: Record<string, unknown> = { '@id': `http://example.org/o/p0/x${i}`, '@type': 'http://example.org/T', 'http://example.org/n': i };
        for (let k = 0; k < 24; k++) payload[`http://example.org/p${k}`] = `value ${k} of resource ${i}`;
        const created = await call('POST', '/v1/resources/o/p0', payload);
        expect(created.status, created.text).to.equal(201);
      }
    };
    await Promise.all(Array.from({ length: 16 }, worker));
    // Sorted by a payload field: read from the store once its writer wrote every change.
    const seen: number[] = [];
    let page: string | undefined = `/v1/resources/o/p0?sort=${enc('http://example.org/n')}&size=500`;
    while (page) {
      const listed = await settled('GET', page);
      expect(listed.status, listed.text).to.equal(200);
      expect(listed.body['_total']).to.equal(total);
      seen.push(...(listed.body['_results'] as { '@id': string }[]).map((r) => Number(r['@id'].slice('http://example.org/o/p0/x'.length))));
      const after = listed.body['_next'] as string | undefined;
      page = after ? after.slice(after.indexOf('/v1/')) : undefined;
    }
    expect(seen).to.deep.equal(Array.from({ length: total }, (_, i) => i));
    const offset = await call('GET', '/v1/views/o/p0/search/offset');
    expect(offset.status, offset.text).to.equal(200);
    // Written whole: nothing refused, nothing quarantined.
    const metrics = await fetch(`${proc.url}/metrics`).then((r) => r.text());
    expect(metrics).to.match(/registry_projection_quarantined\{projection="store"\} 0\b/);
  });

  it("writes past a resource whose @id holds a space: other projects' store-backed reads (search, q, SPARQL, sorted listing) keep answering", async () => {
    const odd = 'http://example.org/with space';
    const created = await call('POST', '/v1/resources/o/odd', { '@id': odd, 'http://schema.org/name': 'spaced' });
    expect(created.status, created.text).to.equal(201);
    for (let i = 0; i < 3; i++)
      expect((await call('PUT', `/v1/resources/o/other/_/r${i}`, { 'http://schema.org/name': `plainword ${i}` })).status).to.equal(201);
    const sorted = await settled('GET', `/v1/resources/o/other?sort=${enc('http://schema.org/name')}`);
    expect([sorted.status, sorted.body['_total']], sorted.text).to.deep.equal([200, 3]);
    const q = await call('GET', '/v1/resources/o/other?q=plainword');
    expect([q.status, q.body['_total']], q.text).to.deep.equal([200, 3]);
    const sparql = await call('GET', `/v1/views/o/other/graph/sparql?query=${enc('SELECT ?s WHERE { ?s <http://schema.org/name> ?n }')}`);
    expect([sparql.status, sparql.body['results']?.bindings.length], sparql.text).to.deep.equal([200, 3]);
    const search = await call('POST', '/v1/search/query', { query: { match: { 'http://schema.org/name': 'plainword' } } });
    expect([search.status, search.body['hits']?.total?.value], search.text).to.deep.equal([200, 3]);
    // The odd one is served from the store too, spelled percent-encoded there.
    const located = await call('GET', `/v1/resources/o/odd?sort=${enc('http://schema.org/name')}`);
    expect([located.status, located.body['_results']?.[0]?.['@id']], located.text).to.deep.equal([200, odd]);
    const oddSparql = await call('GET', `/v1/views/o/odd/graph/sparql?query=${enc('SELECT ?s WHERE { ?s <http://schema.org/name> "spaced" }')}`);
    expect(oddSparql.body['results']?.bindings.map((b: { s: { value: string } }) => b.s.value)).to.deep.equal(['http://example.org/with%20space']);
  });
});
