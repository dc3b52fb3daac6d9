import { expect } from 'chai';
import { serve } from '../support/server.js';
import type { TestServer } from '../support/server.js';
import { client, enc } from '../support/client.js';
import { storagesConfig, upload } from '../support/files.js';
import { loadConfig } from '../../src/config/Config.js';
import { ConfigError } from '../../src/kernel/ConfigError.js';

const BROWSER = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
const ID = 'http://ex.org/ada';

/** A GET that does not follow redirects. */
const get = (url: string, accept: string) => fetch(url, { headers: { accept }, redirect: 'manual' });

const seed = async (api: ReturnType<typeof client>, url: string) => {
  await api.put('/v1/orgs/o', {});
  await api.put('/v1/projects/o/p', {});
  expect((await api.put(`/v1/resources/o/p/_/${enc(ID)}`, { '@context': { '@vocab': 'http://schema.org/' }, name: 'Ada' })).status).to.equal(201);
  await api.post(`/v1/resources/o/p/_/${enc(ID)}/tags?rev=1`, { tag: 'first', rev: 1 });
  const schema = { '@context': { sh: 'http://www.w3.org/ns/shacl#' }, shapes: [{ '@id': 'http://ex.org/Shape', '@type': 'sh:NodeShape' }] };
  expect((await api.put(`/v1/schemas/o/p/${enc('http://ex.org/schema')}`, schema)).status).to.equal(201);
  expect((await upload(`${url}/v1/files/o/p/report`, 'PUT', 'hello')).status).to.equal(201);
};

describe('fetches with Accept: text/html redirect to the frontend when enabled (spec 4.1, 4.3; Delta fusion.enable-redirects)', function () {
  this.timeout(60_000);

  describe('enabled, with an external frontend base', () => {
    let server: TestServer;
    let api: ReturnType<typeof client>;
    serve((s, a) => ((server = s), (api = a)), {
      storages: storagesConfig().config,
      frontend: { enableRedirects: true, base: 'https://fusion.example.org/web', clientId: 'web' },
    });
    before(() => seed(api, server.url));

    it('answers 303 to {base}/{org}/{project}/resources/{id} for a resource, a schema, a storage and a file, keeping rev and tag', async () => {
      const cases: [string, string][] = [
        [`/v1/resources/o/p/_/${enc(ID)}`, `https://fusion.example.org/web/o/p/resources/${enc(ID)}`],
        [`/v1/resources/o/p/_/${enc(ID)}?rev=1`, `https://fusion.example.org/web/o/p/resources/${enc(ID)}?rev=1`],
        [`/v1/resources/o/p/_/${enc(ID)}?tag=first`, `https://fusion.example.org/web/o/p/resources/${enc(ID)}?tag=first`],
        [`/v1/schemas/o/p/${enc('http://ex.org/schema')}`, `https://fusion.example.org/web/o/p/resources/${enc('http://ex.org/schema')}`],
        ['/v1/storages/o/p/defaultStorage', 'https://fusion.example.org/web/o/p/resources/defaultStorage'],
        ['/v1/files/o/p/report', 'https://fusion.example.org/web/o/p/resources/report'],
      ];
      for (const [path, location] of cases) {
        const res = await get(`${server.url}${path}`, BROWSER);
        expect([path, res.status, res.headers.get('location')]).to.deep.equal([path, 303, location]);
      }
    });

    it('keeps answering JSON-LD, file bytes, listings and event streams to everything else', async () => {
      const json = await get(`${server.url}/v1/resources/o/p/_/${enc(ID)}`, 'application/ld+json');
      expect([json.status, ((await json.json()) as { name: string }).name]).to.deep.equal([200, 'Ada']);
      // `*/*` alone, or text/html with a lowered quality, is no browser asking for a page.
      expect(await get(`${server.url}/v1/files/o/p/report`, '*/*').then((r) => r.text())).to.equal('hello');
      expect((await get(`${server.url}/v1/resources/o/p/_/${enc(ID)}`, 'text/html;q=0.5, application/json')).status).to.equal(200);
      expect((await get(`${server.url}/v1/resources/o/p`, BROWSER)).status).to.equal(200);
      expect((await get(`${server.url}/v1/resources/o/p/_/${enc(ID)}/tags`, BROWSER)).status).to.not.equal(303);
      const events = await fetch(`${server.url}/v1/schemas/o/p/events`, {
        headers: { accept: BROWSER },
        redirect: 'manual',
        signal: AbortSignal.timeout(5_000),
      });
      expect(events.status).to.not.equal(303);
      await events.body?.cancel();
    });
  });

  describe('enabled without a base: the built-in frontend', () => {
    let server: TestServer;
    serve((s) => (server = s), { frontend: loadConfig({ FUSION_ENABLE_REDIRECTS: 'true' }).frontend! });
    it('points at {BASE_URL}/web', async () => {
      const res = await get(`${server.url}/v1/resources/o/p/_/x`, BROWSER);
      expect([res.status, res.headers.get('location')]).to.deep.equal([303, `${server.url}/web/o/p/resources/x`]);
    });
  });

  describe('disabled (the default)', () => {
    let server: TestServer;
    let api: ReturnType<typeof client>;
    serve((s, a) => ((server = s), (api = a)), { storages: storagesConfig().config });
    before(() => seed(api, server.url));
    it("keeps today's answers: 406 for an item the browser asks as HTML, the bytes of a file", async () => {
      const res = await get(`${server.url}/v1/resources/o/p/_/${enc(ID)}`, 'text/html');
      expect([res.status, ((await res.json()) as { '@type': string })['@type']]).to.deep.equal([406, 'UnacceptedResponseContentTypeRejection']);
      expect(await get(`${server.url}/v1/files/o/p/report`, BROWSER).then((r) => r.text())).to.equal('hello');
    });
    it('reads fusion.enable-redirects and fusion.base as Delta names them', () => {
      expect(loadConfig({}).frontend?.enableRedirects).to.equal(false);
      expect(loadConfig({ FUSION_ENABLE_REDIRECTS: 'true', FUSION_BASE: 'https://f.org/web/' }).frontend).to.include({
        enableRedirects: true,
        base: 'https://f.org/web',
      });
      expect(() => loadConfig({ FUSION_ENABLE_REDIRECTS: 'maybe' })).to.throw(ConfigError, /FUSION_ENABLE_REDIRECTS/);
      expect(() => loadConfig({ FUSION_BASE: 'ftp://x' })).to.throw(ConfigError, /FUSION_BASE/);
    });
  });
});
