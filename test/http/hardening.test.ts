import { expect } from 'chai';
import { serve } from '../support/server.js';
import { client, enc } from '../support/client.js';
import { EX, freshProject, schemaPayload, unique } from '../support/schemas.js';

const DEFAULT_STORAGE = 'https://bluebrain.github.io/nexus/vocabulary/diskStorageDefault';

describe('hardening: ids and payloads', () => {
  let api: ReturnType<typeof client>;
  serve((_s, a) => (api = a));

  it('keeps an @id unique in a project across kinds: 409 ResourceAlreadyExists, and the default storage id is reserved', async () => {
    const p = await freshProject(api);
    const schemaId = `${EX}${unique('s')}`;
    expect((await api.post(`/v1/schemas/${p}`, schemaPayload(schemaId, 'Person', {}))).status).to.equal(201);
    const asResource = await api.put(`/v1/resources/${p}/_/${enc(schemaId)}`, { 'http://x/n': 1 });
    expect(asResource.status).to.equal(409);
    expect(asResource.body['@type']).to.equal('ResourceAlreadyExists');

    const resourceId = `${EX}${unique('r')}`;
    expect((await api.put(`/v1/resources/${p}/_/${enc(resourceId)}`, { 'http://x/n': 1 })).status).to.equal(201);
    const asSchema = await api.put(`/v1/schemas/${p}/${enc(resourceId)}`, { shapes: [] });
    expect(asSchema.status).to.equal(409);
    expect(asSchema.body['@type']).to.equal('ResourceAlreadyExists');

    for (const path of [`/v1/resources/${p}/_/${enc(DEFAULT_STORAGE)}`, `/v1/resources/${p}/_/defaultStorage`, `/v1/schemas/${p}/${enc(DEFAULT_STORAGE)}`])
      expect((await api.put(path, { shapes: [] })).status, path).to.equal(409);
  });

  it('refuses schemas with the payload defects of resources with 400, not 500', async () => {
    const p = await freshProject(api);
    const badLanguage = await api.post(`/v1/schemas/${p}`, { shapes: [], 'http://x/label': { '@value': 'v', '@language': 'en-' } });
    expect(badLanguage.status).to.equal(400);
    expect(badLanguage.body['@type']).to.equal('InvalidJsonLdFormat');
    const badId = await api.post(`/v1/schemas/${p}`, { '@id': 'http://e/\ud800', shapes: [] });
    expect(badId.status).to.equal(400);
    expect(badId.body['@type']).to.equal('InvalidResourceId');
    const named = await api.put(`/v1/schemas/${p}/${enc('http://e/sg')}`, {
      '@id': 'http://e/sg',
      shapes: [],
      '@graph': [{ '@id': 'http://e/h', 'http://x/q': 1 }],
    });
    expect(named.status).to.be.oneOf([201, 400]);
    expect(named.status).to.not.equal(500);
  });

  it('names the offending value in reasons, never an engine internal', async () => {
    const p = await freshProject(api);
    const malformed = await api.get(`/v1/resources/${p}/_/%E0%A4%A`);
    expect(malformed.status).to.equal(400);
    expect(malformed.body['@type']).to.equal('InvalidResourceId');
    expect(malformed.body.reason).to.not.match(/URI malformed/i);
    const deep = await api.post(`/v1/resources/${p}`, `${'['.repeat(5_000)}${']'.repeat(5_000)}`);
    expect(deep.status).to.equal(400);
    expect(deep.body.reason).to.not.match(/call stack/i);
  });

  it('refuses bracketed and repeated single-valued query parameters with 400 naming them', async () => {
    const p = await freshProject(api);
    expect((await api.put(`/v1/resources/${p}/_/r`, { 'http://x/n': 1 })).status).to.equal(201);
    const bracketed = await api.put(`/v1/resources/${p}/_/r?rev[]=1`, { 'http://x/n': 2 });
    expect(bracketed.status).to.equal(400);
    expect(bracketed.body['@type']).to.equal('MalformedQueryParamRejection');
    expect(bracketed.body.reason).to.include("'rev[]'");
    const nested = await api.get(`/v1/resources/${p}?a[b]=c`);
    expect(nested.status).to.equal(400);
    const repeated = await api.put(`/v1/resources/${p}/_/r?rev=1&rev=2`, { 'http://x/n': 2 });
    expect(repeated.status).to.equal(400);
    expect(repeated.body.reason).to.include("'rev'");
    expect((await api.get(`/v1/resources/${p}/_/r`)).body._rev).to.equal(1);
  });
});
