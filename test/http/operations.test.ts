import { expect } from 'chai';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { request } from 'node:http';
import { serve } from '../support/server.js';
import type { TestServer } from '../support/server.js';
import { client } from '../support/client.js';

/** A raw request (fetch would decompress on its own): status, headers and the body bytes. */
const raw = (url: string, headers: Record<string, string>): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> =>
  new Promise((resolve, reject) => {
    const req = request(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });

describe('operations and first contact', () => {
  let server: TestServer;
  let api: ReturnType<typeof client>;
  serve((s, a) => ((server = s), (api = a)));
  // What the conditional, compression and metrics tests read: each passes alone and in any order.
  before(async () => {
    expect((await api.put('/v1/orgs/ops', {})).status).to.equal(201);
    expect((await api.put('/v1/projects/ops/p', {})).status).to.equal(201);
    expect((await api.put('/v1/resources/ops/p/_/r', { 'http://x/n': 1 })).status).to.equal(201);
  });

  it('answers CORS preflights and exposes the headers browser clients read', async () => {
    const preflight = await fetch(`${server.url}/v1/resources/o/p`, {
      method: 'OPTIONS',
      headers: { origin: 'http://app.example', 'access-control-request-method': 'PUT', 'access-control-request-headers': 'authorization,content-type' },
    });
    expect(preflight.status).to.be.oneOf([200, 204]);
    expect(preflight.headers.get('access-control-allow-origin')).to.equal('*');
    expect(preflight.headers.get('access-control-allow-methods')).to.include('PUT');
    expect(preflight.headers.get('access-control-allow-headers')?.toLowerCase()).to.include('authorization');
    const get = await fetch(`${server.url}/v1/version`, { headers: { origin: 'http://app.example' } });
    expect(get.headers.get('access-control-allow-origin')).to.equal('*');
    expect(get.headers.get('access-control-expose-headers')).to.include('ETag').and.include('Location').and.include('Last-Event-Id');
  });

  it('echoes a request id, taking a sane one from the client (its log line: test/integration/requestLog)', async () => {
    const given = await fetch(`${server.url}/v1/version`, { headers: { 'x-request-id': 'abc-123' } });
    expect(given.headers.get('x-request-id')).to.equal('abc-123');
    const fresh = await fetch(`${server.url}/v1/version`, { headers: { 'x-request-id': 'bad id with spaces' } });
    expect(fresh.headers.get('x-request-id')).to.match(/^[0-9a-f-]{36}$/);
  });

  // Conditional requests go through node:http: fetch adds `Cache-Control: no-cache` to them (the Fetch standard).
  it('answers fetches conditionally: ETag and Last-Modified, 304 on If-None-Match and If-Modified-Since, 412 on a failed If-Match', async () => {
    const first = await fetch(`${server.url}/v1/resources/ops/p/_/r`);
    const etag = first.headers.get('etag')!;
    expect(etag).to.match(/^"\d+-application\/ld\+json"$/);
    expect(first.headers.get('last-modified')).to.be.a('string');
    expect((await raw(`${server.url}/v1/resources/ops/p/_/r`, { 'if-none-match': etag })).status).to.equal(304);
    expect((await raw(`${server.url}/v1/resources/ops/p/_/r`, { 'if-modified-since': first.headers.get('last-modified')! })).status).to.equal(304);
    const triples = await raw(`${server.url}/v1/resources/ops/p/_/r`, { accept: 'application/n-triples', 'if-none-match': etag });
    expect(triples.status, 'another representation has another tag').to.equal(200);
    const failed = await raw(`${server.url}/v1/resources/ops/p/_/r`, { 'if-match': '"1-other"' });
    expect(failed.status).to.equal(412);
    expect(JSON.parse(failed.body.toString())['@type']).to.equal('PreconditionFailed');
    expect((await api.put('/v1/resources/ops/p/_/r?rev=1', { 'http://x/n': 2 })).status).to.equal(200);
    expect((await raw(`${server.url}/v1/resources/ops/p/_/r`, { 'if-none-match': etag })).status, 'a new revision is modified').to.equal(200);
    expect((await raw(`${server.url}/v1/resources/ops/p/_/r?rev=1`, { 'if-none-match': etag })).status, 'revision 1 never changes').to.equal(304);
    const source = await fetch(`${server.url}/v1/resources/ops/p/_/r/source`);
    expect((await raw(`${server.url}/v1/resources/ops/p/_/r/source`, { 'if-none-match': source.headers.get('etag')! })).status).to.equal(304);
  });

  it('judges the validator whatever the request cache directives say: WHATWG fetch (Cache-Control: no-cache) gets 304', async () => {
    const first = await fetch(`${server.url}/v1/resources/ops/p/_/r`);
    const etag = first.headers.get('etag')!;
    const again = await fetch(`${server.url}/v1/resources/ops/p/_/r`, { headers: { 'if-none-match': etag } });
    expect(again.status).to.equal(304);
    expect(await again.text()).to.equal('');
    const since = await fetch(`${server.url}/v1/resources/ops/p/_/r`, { headers: { 'if-modified-since': first.headers.get('last-modified')! } });
    expect(since.status).to.equal(304);
    const weak = await raw(`${server.url}/v1/resources/ops/p/_/r`, { 'if-none-match': `"x", W/${etag}`, 'cache-control': 'no-cache', pragma: 'no-cache' });
    expect(weak.status, 'weak comparison, any tag of the list').to.equal(304);
    const other = await fetch(`${server.url}/v1/resources/ops/p/_/r`, {
      headers: { 'if-none-match': '"1-other"', 'if-modified-since': first.headers.get('last-modified')! },
    });
    expect(other.status, 'If-None-Match decides when present').to.equal(200);
    expect((await fetch(`${server.url}/v1/resources/ops/p/_/r`, { headers: { 'if-none-match': '*' } })).status).to.equal(304);
  });

  it('compresses JSON answers from 1 KiB for clients that accept it', async () => {
    for (let i = 0; i < 60; i++) await api.put(`/v1/resources/ops/p/_/c${i}`, { 'http://x/n': i });
    const zipped = await raw(`${server.url}/v1/resources/ops/p?size=60`, { 'accept-encoding': 'gzip' });
    expect(zipped.headers['content-encoding']).to.equal('gzip');
    expect(JSON.parse(gunzipSync(zipped.body).toString())['_total']).to.be.at.least(60);
    // A page of the default size: about 14 KiB, under the 16 KiB the threshold once was.
    const page = await raw(`${server.url}/v1/resources/ops/p`, { 'accept-encoding': 'gzip' });
    expect(page.headers['content-encoding']).to.equal('gzip');
    const unzipped = gunzipSync(page.body);
    expect(unzipped.length).to.be.within(1024, 16 * 1024);
    expect(JSON.parse(unzipped.toString())['_results']).to.have.length(20);
    const brotli = await raw(`${server.url}/v1/projects/ops/p`, { 'accept-encoding': 'br' });
    expect(brotli.headers['content-encoding']).to.equal('br');
    expect(JSON.parse(brotliDecompressSync(brotli.body).toString())['_label']).to.equal('p');
    const small = await raw(`${server.url}/v1/orgs/ops`, { 'accept-encoding': 'gzip' });
    expect(small.body.length, 'the organization is under 1 KiB').to.be.below(1024);
    expect(small.headers['content-encoding'], 'small answers go as they are').to.equal(undefined);
    const plain = await raw(`${server.url}/v1/resources/ops/p?size=60`, {});
    expect(plain.headers['content-encoding']).to.equal(undefined);
    expect(String(zipped.headers['vary']), 'a compressible answer varies by Accept-Encoding').to.match(/accept-encoding/i);
    // Where nothing could be compressed the compression middleware is skipped (its cost on every answer).
    expect(String(plain.headers['vary'] ?? ''), 'a client accepting no encoding').to.not.match(/accept-encoding/i);
    const written = await fetch(`${server.url}/v1/resources/ops/p/_/c0?rev=1`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json', 'accept-encoding': 'gzip' },
      body: JSON.stringify({ 'http://x/n': 'again' }),
    });
    expect(written.status).to.equal(200);
    expect(written.headers.get('vary') ?? '', 'a write answers its metadata as it is').to.not.match(/accept-encoding/i);
  });

  it('names the embedded store and its cap in /v1/version', async () => {
    const version = await api.get('/v1/version');
    expect(version.body.dependencies.store).to.equal('oxigraph (embedded)');
    expect(version.body.store.maxQuads).to.be.a('number');
  });

  it('reports liveness and readiness, and metrics behind supervision/read', async () => {
    expect((await api.get('/health/live')).status).to.equal(200);
    const ready = await api.get('/health/ready');
    expect(ready.status).to.equal(200);
    expect(ready.body.status).to.equal('ready');
    const metrics = await fetch(`${server.url}/metrics`);
    expect(metrics.status).to.equal(200);
    const text = await metrics.text();
    for (const name of [
      'registry_http_request_duration_seconds_bucket',
      'registry_event_log_append_seconds_count',
      'registry_projection_lag_events',
      'registry_store_quads',
      'registry_store_max_quads',
      'registry_sse_open_streams',
      'registry_worker_queue_tasks',
      'registry_change_feed_changes',
    ])
      expect(text, name).to.include(name);
    expect(text).to.match(
      /registry_http_request_duration_seconds_count\{method="PUT",route="\/v1\/resources\/:org\/:project\/:schema\/:id",status="201"\} \d+/,
    );
  });
});
