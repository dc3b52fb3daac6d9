import { expect } from 'chai';
import { startServer } from '../support/server.js';
import type { TestServer } from '../support/server.js';
import { call, client, enc } from '../support/client.js';
import type { Reply } from '../support/client.js';

const ERROR_CONTEXT = 'https://bluebrain.github.io/nexus/contexts/error.json';

let counter = 0;
const unique = (prefix: string) => `${prefix}${Date.now().toString(36)}${counter++}`;

/** The typed error body of the wire format, with the expected status. */
const expectError = (res: Reply, status: number, type: string) => {
  expect(res.status, `${type}: ${res.text}`).to.equal(status);
  expect(res.body, res.text).to.be.an('object');
  expect(res.body['@context']).to.equal(ERROR_CONTEXT);
  expect(res.body['@type'], res.text).to.equal(type);
  expect(res.body.reason).to.be.a('string').and.not.equal('');
  expect(res.text).to.not.match(/\bat .*\.js:\d+/); // never a stack trace
};

describe('resources: bad input over HTTP', () => {
  let server: TestServer;
  let api: ReturnType<typeof client>;

  /** A project with one resource `r` (two revisions, tag `t1` on 1) and the state to compare against. */
  const fixture = async () => {
    const org = unique('org');
    const proj = unique('proj');
    await api.put(`/v1/orgs/${org}`, {});
    await api.put(`/v1/projects/${org}/${proj}`, {});
    const p = `${org}/${proj}`;
    const path = `/v1/resources/${p}/_/r`;
    expect((await api.put(`${path}?tag=t1`, { '@context': { '@vocab': 'http://schema.org/' }, v: 1 })).status).to.equal(201);
    expect((await api.put(`${path}?rev=1`, { '@context': { '@vocab': 'http://schema.org/' }, v: 2 })).status).to.equal(200);
    const snapshot = async () => ({
      resource: (await api.get(path)).text,
      source: (await api.get(`${path}/source`)).text,
      tags: (await api.get(`${path}/tags`)).text,
      listing: (await api.get(`/v1/resources/${p}?deprecated=true`)).body['_total'] + (await api.get(`/v1/resources/${p}`)).body['_total'],
      all: (await api.get(`/v1/resources/${p}?deprecated=true&size=1000`)).body['_results']
        .map((r: { '@id': string; _rev: number }) => `${r['@id']}@${r._rev}`)
        .join(','),
    });
    const before = await snapshot();
    return { org, proj, p, path, unchanged: async () => expect(await snapshot()).to.deep.equal(before) };
  };

  before(async () => {
    server = await startServer();
    api = client(server.url);
  });
  after(() => server.stop(true));

  it('malformed JSON', async () => {
    const { p, path, unchanged } = await fixture();
    expectError(await api.put(`${path}?rev=2`, '{"v": '), 400, 'MalformedRequestContentRejection');
    expectError(await api.post(`/v1/resources/${p}/_`, '{not json}'), 400, 'MalformedRequestContentRejection');
    expectError(await api.put(`/v1/resources/${p}/_/new`, '{"a": 1,}'), 400, 'MalformedRequestContentRejection');
    expect((await api.get(`/v1/resources/${p}/_/new`)).status).to.equal(404);
    await unchanged();
  });

  it('a payload that is not a JSON object', async () => {
    const { p, path, unchanged } = await fixture();
    for (const body of ['[{"v": 1}]', '"a string"', '42', 'null', 'true']) {
      expectError(await api.put(`${path}?rev=2`, body), 400, 'MalformedRequestContentRejection');
      expectError(await api.post(`/v1/resources/${p}`, body), 400, 'MalformedRequestContentRejection');
      expectError(await api.put(`/v1/resources/${p}/_/new`, body), 400, 'MalformedRequestContentRejection');
    }
    // no body at all on a create or update
    expectError(await call(server.url, 'PUT', `/v1/resources/${p}/_/new`), 400, 'MalformedRequestContentRejection');
    expectError(await call(server.url, 'PUT', `${path}?rev=2`), 400, 'MalformedRequestContentRejection');
    expectError(await call(server.url, 'POST', `/v1/resources/${p}`), 400, 'MalformedRequestContentRejection');
    await unchanged();
  });

  it('invalid JSON-LD', async () => {
    const { p, path, unchanged } = await fixture();
    for (const body of [
      { '@context': 5, v: 1 },
      { '@context': { '@vocab': 5 }, v: 1 },
      { '@context': { v: { '@id': 5 } }, v: 1 },
      { '@type': 5 },
      { '@context': { '@vocab': 'http://schema.org/' }, '@id': 5 },
      { '@context': { '@vocab': 'http://schema.org/' }, v: { '@value': 'x', '@type': 3 } },
    ]) {
      expectError(await api.put(`${path}?rev=2`, body), 400, 'InvalidJsonLdFormat');
      expectError(await api.post(`/v1/resources/${p}`, body), 400, 'InvalidJsonLdFormat');
    }
    await unchanged();
  });

  it('an unresolvable remote context is refused naming it, and no network fetch happens', async () => {
    const { p, path, unchanged } = await fixture();
    for (const ctx of ['https://example.com/nowhere/context.json', 'not-a-resource-here', 'https://bluebrain.github.io/nexus/contexts/nope.json']) {
      const res = await api.put(`${path}?rev=2`, { '@context': ctx, v: 3 });
      expectError(res, 400, 'InvalidJsonLdFormat');
      expect(res.body.reason).to.contain(ctx);
      const created = await api.post(`/v1/resources/${p}`, { '@context': [ctx, { '@vocab': 'http://schema.org/' }], v: 3 });
      expectError(created, 400, 'InvalidJsonLdFormat');
      expect(created.body.reason).to.contain(ctx);
    }
    // a resource of the project without @context is not a context
    expect((await api.put(`/v1/resources/${p}/_/no-context`, { v: 0 })).status).to.equal(201);
    const named = await api.put(`/v1/resources/${p}/_/uses-r`, { '@context': `${server.url}/v1/resources/${p}/_/no-context`, v: 3 });
    expectError(named, 400, 'InvalidJsonLdFormat');
    // a context nested inside a context
    const nested = await api.post(`/v1/resources/${p}`, {
      '@context': { a: { '@id': 'http://a/', '@context': 'https://example.com/scoped.json' } },
      a: { b: 1 },
    });
    expectError(nested, 400, 'InvalidJsonLdFormat');
    expect(nested.body.reason).to.contain('https://example.com/scoped.json');
    await api.delete(`/v1/resources/${p}/_/no-context?prune=true`);
    await unchanged();
  });

  it('a payload @id differing from the path id', async () => {
    const { p, path, unchanged } = await fixture();
    const other = 'http://example.com/other';
    expectError(await api.put(`/v1/resources/${p}/_/new`, { '@id': other, v: 1 }), 400, 'UnexpectedId');
    expectError(await api.put(`/v1/resources/${p}/_/new`, { '@id': other }), 400, 'UnexpectedId');
    expectError(await api.put(`${path}?rev=2`, { '@id': other, v: 1 }), 400, 'UnexpectedId');
    expectError(await api.put(`${path}?rev=2`, { '@context': { '@base': 'http://example.com/' }, '@id': 'r', v: 1 }), 400, 'UnexpectedId');
    expect((await api.get(`/v1/resources/${p}/_/new`)).status).to.equal(404);
    expect((await api.get(`/v1/resources/${p}/_/${enc(other)}`)).status).to.equal(404);
    await unchanged();
  });

  it('root fields starting with `_` and types from the service vocabulary', async () => {
    const { p, path, unchanged } = await fixture();
    for (const body of [{ _rev: 3, v: 1 }, { _self: 'x' }, { '@context': { '@vocab': 'http://schema.org/' }, _anything: null }]) {
      const res = await api.put(`${path}?rev=2`, body);
      expectError(res, 400, 'MalformedRequestContentRejection');
      expectError(await api.post(`/v1/resources/${p}`, body), 400, 'MalformedRequestContentRejection');
    }
    // `_` deeper than the root is allowed
    const nested = await api.post(`/v1/resources/${p}`, { '@context': { '@vocab': 'http://schema.org/' }, inner: { _x: 1 } });
    expect(nested.status).to.equal(201);
    expect((await api.delete(`${nested.body['_self'].slice(server.url.length)}?prune=true`)).status).to.be.oneOf([200, 204]);
    for (const body of [
      { '@type': 'https://bluebrain.github.io/nexus/vocabulary/Schema' },
      { '@context': { nxv: 'https://bluebrain.github.io/nexus/vocabulary/' }, '@type': ['http://schema.org/Person', 'nxv:Storage'] },
      { '@context': { '@vocab': 'https://bluebrain.github.io/nexus/vocabulary/' }, '@type': 'Resolver' },
    ]) {
      const res = await api.put(`${path}?rev=2`, body);
      expectError(res, 400, 'ReservedResourceTypes');
      expectError(await api.post(`/v1/resources/${p}`, body), 400, 'ReservedResourceTypes');
    }
    await unchanged();
  });

  it('an oversize body is 413 at the default limit', async () => {
    const { p, path, unchanged } = await fixture();
    const big = { v: 'x'.repeat(300 * 1024) };
    expectError(await api.put(`${path}?rev=2`, big), 413, 'PayloadTooLarge');
    expectError(await api.post(`/v1/resources/${p}`, big), 413, 'PayloadTooLarge');
    // just under the limit is fine
    const fits = await api.post(`/v1/resources/${p}`, { v: 'x'.repeat(200 * 1024) });
    expect(fits.status).to.equal(201);
    await api.delete(`${fits.body['_self'].slice(server.url.length)}?prune=true`);
    await unchanged();
  });

  it('an oversize body is 413 at a configured limit', async () => {
    const small = await startServer({ maxPayloadBytes: 2048 });
    try {
      const s = client(small.url);
      await s.put('/v1/orgs/o', {});
      await s.put('/v1/projects/o/p', {});
      expect((await s.put('/v1/resources/o/p/_/ok', { v: 'x'.repeat(1500) })).status).to.equal(201);
      const res = await s.put('/v1/resources/o/p/_/big', { v: 'x'.repeat(3000) });
      expectError(res, 413, 'PayloadTooLarge');
      expectError(await s.put('/v1/resources/o/p/_/ok?rev=1', { v: 'x'.repeat(3000) }), 413, 'PayloadTooLarge');
      expect((await s.get('/v1/resources/o/p/_/big')).status).to.equal(404);
      expect((await s.get('/v1/resources/o/p/_/ok')).body['_rev']).to.equal(1);
      expect((await s.get('/v1/resources/o/p')).body['_total']).to.equal(1);
    } finally {
      await small.stop(true);
    }
  });

  it('an unsupported content type is 415', async () => {
    const { p, path, unchanged } = await fixture();
    expectError(await api.put(`${path}?rev=2`, '{"v": 3}', { 'content-type': 'text/plain' }), 415, 'UnsupportedRequestContentTypeRejection');
    expectError(await api.post(`/v1/resources/${p}`, '<a/>', { 'content-type': 'application/xml' }), 415, 'UnsupportedRequestContentTypeRejection');
    expectError(
      await api.put(`/v1/resources/${p}/_/new`, 'v=1', { 'content-type': 'application/x-www-form-urlencoded' }),
      415,
      'UnsupportedRequestContentTypeRejection',
    );
    // application/ld+json and a charset are fine
    expect((await api.put(`/v1/resources/${p}/_/ld`, '{"v": 1}', { 'content-type': 'application/ld+json' })).status).to.equal(201);
    expect((await api.put(`/v1/resources/${p}/_/cs`, '{"v": 1}', { 'content-type': 'application/json; charset=utf-8' })).status).to.equal(201);
    await api.delete(`/v1/resources/${p}/_/ld?prune=true`);
    await api.delete(`/v1/resources/${p}/_/cs?prune=true`);
    await unchanged();
  });

  it('bad query parameters on fetch and writes', async () => {
    const { path, unchanged } = await fixture();
    const MQP = 'MalformedQueryParamRejection';
    expectError(await api.get(`${path}?rev=1&tag=t1`), 400, MQP);
    expectError(await api.get(`${path}/source?rev=1&tag=t1`), 400, MQP);
    expectError(await api.get(`${path}/tags?rev=1&tag=t1`), 400, MQP);
    expectError(await api.get(`${path}/remote-contexts?rev=1&tag=t1`), 400, MQP);
    for (const rev of ['abc', '-1', '1.5', '0', '', '1e3', '99999999999999999999']) {
      expectError(await api.get(`${path}?rev=${enc(rev)}`), rev === '99999999999999999999' ? 400 : 400, MQP);
      expectError(await api.put(`${path}?rev=${enc(rev)}`, { v: 9 }), 400, MQP);
      expectError(await api.delete(`${path}?rev=${enc(rev)}`), 400, MQP);
    }
    expectError(await api.get(`${path}?rev=1&rev=2`), 400, MQP);
    expectError(await api.get(`${path}/source?annotate=yes`), 400, MQP);
    expectError(await api.put(`${path}?rev=2&indexing=later`, { v: 9 }), 400, MQP);
    expectError(await api.delete(`${path}?prune=maybe`), 400, MQP);
    // rev missing where required
    expectError(await api.delete(path), 400, MQP);
    expectError(await api.post(`${path}/tags`, { tag: 'x', rev: 1 }), 400, MQP);
    expectError(await api.delete(`${path}/tags/t1`), 400, MQP);
    expectError(await api.put(`${path}/undeprecate`), 400, MQP);
    // a malformed tag body
    for (const body of [{ tag: 'x' }, { rev: 1 }, { tag: '', rev: 1 }, { tag: 'x', rev: '1' }, { tag: 5, rev: 1 }])
      expectError(await api.post(`${path}/tags?rev=2`, body), 400, 'MalformedRequestContentRejection');
    expectError(await api.post(`${path}/tags?rev=2`, '[1]'), 400, 'MalformedRequestContentRejection');
    await unchanged();
  });

  it('bad listing parameters', async () => {
    const { org, p, unchanged } = await fixture();
    const MQP = 'MalformedQueryParamRejection';
    for (const scope of ['/v1/resources', `/v1/resources/${org}`, `/v1/resources/${p}`, `/v1/resources/${p}/_`]) {
      for (const q of [
        'from=abc',
        'size=abc',
        'from=-1',
        'size=0',
        'size=1001',
        'from=10001',
        'size=1.5',
        'rev=x',
        'deprecated=maybe',
        'aggregations=perhaps',
        `from=1&after=${enc('[{"type":"literal","value":"x"}]')}`,
        `after=${enc('not json')}`,
        `after=${enc('[]')}`,
        `after=${enc('{"a":1}')}`,
        `after=${enc('[1,2]')}`,
        // a tagged string's tag must be a language tag, on a literal
        `after=${enc('[{"type":"literal","value":"x","xml:lang":"en gb"},{"type":"uri","value":"urn:x"}]')}`,
        `after=${enc('[{"type":"literal","value":"x","xml:lang":""},{"type":"uri","value":"urn:x"}]')}`,
        `after=${enc('[{"type":"literal","value":"x","xml:lang":7},{"type":"uri","value":"urn:x"}]')}`,
        `after=${enc('[{"type":"literal","value":"x","xml:lang":"fr\\"}"},{"type":"uri","value":"urn:x"}]')}`,
        `after=${enc('[{"type":"uri","value":"urn:y","xml:lang":"en"},{"type":"uri","value":"urn:x"}]')}`,
        'size=1&size=2',
      ]) {
        expectError(await api.get(`${scope}?${q}`), 400, MQP);
      }
    }
    for (const scope of ['/v1/resources', `/v1/resources/${org}`, `/v1/resources/${p}`]) {
      for (const q of [
        'createdAt=yesterday',
        `createdAt=${enc('2024-01-01T00:00:00Z')}`,
        `createdAt=${enc('2024-01-01..2024-02-01')}`,
        `updatedAt=${enc('2024-13-01T00:00:00Z..*')}`,
        `updatedAt=${enc('*..*..*')}`,
        `createdAt=${enc('2024-02-01T00:00:00Z..2024-01-01T00:00:00Z')}`,
        'typeOperator=xor',
        `createdBy=${enc('not an iri')}`,
        `type=${enc('http://example.com/a b')}`,
        `type=${enc('<>')}`,
        `sort=${enc('_unknown')}`,
        'sort=',
        `locate=${enc('not an iri')}`,
      ]) {
        const res = await api.get(`${scope}?${q}`);
        expect(res.status, `${scope}?${q}: ${res.text}`).to.be.oneOf([200, 400]);
        if (res.status === 400) expectError(res, 400, MQP);
        else expect(res.body['_total'], `${scope}?${q}`).to.equal(0);
      }
      expectError(await api.get(`${scope}?createdAt=yesterday`), 400, MQP);
      expectError(await api.get(`${scope}?updatedAt=${enc('2024-01-01..2024-02-01')}`), 400, MQP);
      expectError(await api.get(`${scope}?typeOperator=xor`), 400, MQP);
    }
    // the listing filtered by schema has no createdAt, updatedAt, schema or locate
    for (const q of [`createdAt=${enc('*..*')}`, `updatedAt=${enc('*..*')}`, `schema=_`, `locate=r`])
      expectError(await api.get(`/v1/resources/${p}/_?${q}`), 400, MQP);
    // a forged after cursor with a datatype SPARQL cannot spell never reaches the store as syntax
    for (const cursor of [
      [
        { type: 'literal', value: 'x', datatype: 'http://a b' },
        { type: 'uri', value: 'urn:x' },
      ],
      [
        { type: 'literal', value: 'x', datatype: 'http://a b' },
        { type: 'uri', value: 'http://a b' },
        { type: 'uri', value: 'urn:x y' },
      ],
      [
        { type: 'literal', value: 'x', datatype: 'http://www.w3.org/2001/XMLSchema#integer' },
        { type: 'literal', value: '"}' },
        { type: 'uri', value: 'urn:x' },
      ],
      [
        { type: 'uri', value: '> } } DROP ALL #' },
        { type: 'uri', value: 'urn:x' },
        { type: 'literal', value: 'x' },
      ],
    ]) {
      const forged = await api.get(`/v1/resources/${p}?after=${enc(JSON.stringify(cursor))}`);
      expect(forged.status, forged.text).to.be.oneOf([200, 400]);
      if (forged.status === 400) expectError(forged, 400, MQP);
    }
    await unchanged();
  });

  it('unknown organizations, projects, resources, revisions and tags are 404', async () => {
    const { org, p, path, unchanged } = await fixture();
    const unknownOrg = await api.get(`/v1/resources/${unique('nope')}/p/_/r`);
    expect(unknownOrg.status).to.equal(404);
    expect(unknownOrg.body['@type']).to.be.oneOf(['OrganizationNotFound', 'ProjectNotFound']);
    const unknownProject = await api.get(`/v1/resources/${org}/nope/_/r`);
    expectError(unknownProject, 404, 'ProjectNotFound');
    expectError(await api.put(`/v1/resources/${org}/nope/_/r`, { v: 1 }), 404, 'ProjectNotFound');
    expectError(await api.post(`/v1/resources/${org}/nope`, { v: 1 }), 404, 'ProjectNotFound');
    expectError(await api.get(`/v1/resources/${org}/nope`), 404, 'ProjectNotFound');
    expectError(await api.get(`/v1/resources/${unique('nope')}`), 404, 'OrganizationNotFound');
    expectError(await api.get(`/v1/resources/${p}/_/missing`), 404, 'ResourceNotFound');
    expectError(await api.get(`/v1/resources/${p}/_/missing/source`), 404, 'ResourceNotFound');
    expectError(await api.get(`/v1/resources/${p}/_/missing/tags`), 404, 'ResourceNotFound');
    expectError(await api.get(`/v1/resources/${p}/_/missing/remote-contexts`), 404, 'ResourceNotFound');
    expectError(await api.get(`/v1/resources/${p}/_/missing/incoming`), 404, 'ResourceNotFound');
    expectError(await api.get(`/v1/resources/${p}/_/missing/outgoing`), 404, 'ResourceNotFound');
    expectError(await api.put(`/v1/resources/${p}/_/missing?rev=1`, { v: 1 }), 404, 'ResourceNotFound');
    expectError(await api.delete(`/v1/resources/${p}/_/missing?rev=1`), 404, 'ResourceNotFound');
    expectError(await api.delete(`/v1/resources/${p}/_/missing?prune=true`), 404, 'ResourceNotFound');
    expectError(await api.put(`/v1/resources/${p}/_/missing/refresh`), 404, 'ResourceNotFound');
    expectError(await api.put(`/v1/resources/${p}/_/missing/undeprecate?rev=1`), 404, 'ResourceNotFound');
    expectError(await api.post(`/v1/resources/${p}/_/missing/tags?rev=1`, { tag: 'a', rev: 1 }), 404, 'ResourceNotFound');
    expectError(await api.get(`${path}?rev=3`), 404, 'RevisionNotFound');
    expectError(await api.get(`${path}?rev=3000`), 404, 'RevisionNotFound');
    expectError(await api.get(`${path}/source?rev=3`), 404, 'RevisionNotFound');
    expectError(await api.get(`${path}?tag=nope`), 404, 'TagNotFound');
    expectError(await api.get(`${path}/source?tag=nope`), 404, 'TagNotFound');
    expectError(await api.get(`${path}/remote-contexts?tag=nope`), 404, 'TagNotFound');
    expectError(await api.delete(`${path}/tags/nope?rev=2`), 404, 'TagNotFound');
    expectError(await api.post(`${path}/tags?rev=2`, { tag: 'x', rev: 3 }), 404, 'RevisionNotFound');
    expectError(await api.post(`${path}/tags?rev=2`, { tag: 'x', rev: 0 }), 404, 'RevisionNotFound');
    await unchanged();
  });

  it('a stale rev is 409 IncorrectRev with numeric provided and expected', async () => {
    const { path, unchanged } = await fixture();
    for (const res of [
      await api.put(`${path}?rev=1`, { v: 9 }),
      await api.put(`${path}?rev=5`, { v: 9 }),
      await api.delete(`${path}?rev=1`),
      await api.post(`${path}/tags?rev=1`, { tag: 'x', rev: 1 }),
      await api.delete(`${path}/tags/t1?rev=1`),
      await api.put(`${path}/undeprecate?rev=1`),
    ]) {
      expectError(res, 409, 'IncorrectRev');
      expect(res.body.provided).to.be.a('number');
      expect(res.body.expected).to.equal(2);
    }
    await unchanged();
  });

  it('writes to a deprecated resource and undeprecating an active one', async () => {
    const { p, path } = await fixture();
    const active = await api.put(`${path}/undeprecate?rev=2`);
    expectError(active, 400, 'ResourceIsNotDeprecated');
    expect((await api.get(path)).body['_rev']).to.equal(2);
    expect((await api.delete(`${path}?rev=2`)).status).to.equal(200);
    const deprecatedState = (await api.get(path)).text;
    expectError(await api.put(`${path}?rev=3`, { v: 9 }), 400, 'ResourceIsDeprecated');
    expectError(await api.delete(`${path}?rev=3`), 400, 'ResourceIsDeprecated');
    expectError(await api.post(`${path}/tags?rev=3`, { tag: 'x', rev: 1 }), 400, 'ResourceIsDeprecated');
    expectError(await api.delete(`${path}/tags/t1?rev=3`), 400, 'ResourceIsDeprecated');
    expectError(await api.put(`${path}/refresh`), 400, 'ResourceIsDeprecated');
    expect((await api.get(path)).text).to.equal(deprecatedState);
    expect((await api.get(`/v1/resources/${p}`)).body['_total']).to.equal(0);
    // the stale rev wins over deprecation when both apply
    expectError(await api.put(`${path}?rev=1`, { v: 9 }), 409, 'IncorrectRev');
  });

  it('writes in a deprecated project or organization', async () => {
    const { org, proj, p, path } = await fixture();
    expect((await api.delete(`/v1/projects/${p}?rev=1`)).status).to.equal(200);
    const state = (await api.get(path)).text;
    expectError(await api.put(`${path}?rev=2`, { v: 9 }), 400, 'ProjectIsDeprecated');
    expectError(await api.post(`/v1/resources/${p}`, { v: 9 }), 400, 'ProjectIsDeprecated');
    expectError(await api.put(`/v1/resources/${p}/_/new`, { v: 9 }), 400, 'ProjectIsDeprecated');
    expectError(await api.delete(`${path}?rev=2`), 400, 'ProjectIsDeprecated');
    expectError(await api.post(`${path}/tags?rev=2`, { tag: 'x', rev: 1 }), 400, 'ProjectIsDeprecated');
    expectError(await api.delete(`${path}/tags/t1?rev=2`), 400, 'ProjectIsDeprecated');
    expectError(await api.put(`${path}/refresh`), 400, 'ProjectIsDeprecated');
    expectError(await api.delete(`${path}?prune=true`), 400, 'ProjectIsDeprecated');
    // reads still work
    expect((await api.get(path)).text).to.equal(state);
    expect((await api.get(`/v1/resources/${p}/_/new`)).status).to.equal(404);
    // and in a deprecated organization
    const org2 = unique('org');
    await api.put(`/v1/orgs/${org2}`, {});
    await api.put(`/v1/projects/${org2}/${proj}`, {});
    await api.delete(`/v1/orgs/${org2}?rev=1`);
    const res = await api.put(`/v1/resources/${org2}/${proj}/_/x`, { v: 1 });
    expect(res.status).to.equal(400);
    expect(res.body['@type']).to.be.oneOf(['OrganizationIsDeprecated', 'ProjectIsDeprecated']);
    expect((await api.get(`/v1/resources/${org2}/${proj}/_/x`)).status).to.equal(404);
    expect(org).to.be.a('string');
  });

  it('invalid ids in the path', async () => {
    const { p, unchanged } = await fixture();
    expectError(await api.get(`/v1/resources/${p}/_/%E0%A4%A`), 400, 'InvalidResourceId');
    expectError(await api.put(`/v1/resources/${p}/_/%ZZ`, { v: 1 }), 400, 'InvalidResourceId');
    expectError(await api.put(`/v1/resources/${p}/_/${enc('http://example.com/<bad>')}`, { v: 1 }), 400, 'InvalidResourceId');
    await unchanged();
  });

  it('unknown routes are 404 and wrong methods 405 with an Allow header', async () => {
    const { p, path, unchanged } = await fixture();
    for (const route of ['/v1/nothing', '/v2/resources', '/', `${path}/nothing`, `${path}/tags/t1/x`, '/v1/resources/a/b/c/d/e/f'])
      expectError(await api.get(route), 404, 'ResourceNotFound');
    const cases: [string, string, string[]][] = [
      ['PATCH', path, ['GET', 'PUT', 'DELETE']],
      ['POST', path, ['GET', 'PUT', 'DELETE']],
      ['DELETE', `/v1/resources/${p}`, ['GET', 'POST']],
      ['PUT', `/v1/resources/${p}`, ['GET', 'POST']],
      ['PUT', `${path}/source`, ['GET']],
      ['POST', `${path}/refresh`, ['PUT']],
      ['GET', `${path}/undeprecate`, ['PUT']],
      ['PUT', `${path}/tags`, ['GET', 'POST']],
      ['POST', `${path}/incoming`, ['GET']],
      ['DELETE', '/v1/resources', ['GET']],
    ];
    for (const [method, route, allowed] of cases) {
      const res = await call(server.url, method, route, method === 'GET' ? undefined : { v: 1 });
      expectError(res, 405, 'HttpMethodNotAllowed');
      const allow = (res.headers.get('allow') ?? '').split(',').map((m) => m.trim());
      for (const m of allowed) expect(allow, `${method} ${route}`).to.include(m);
    }
    await unchanged();
  });

  it('fetch with an unacceptable Accept is 406', async () => {
    const { path, unchanged } = await fixture();
    const res = await api.get(path, { accept: 'image/png' });
    expect(res.status).to.equal(406);
    expect(res.body['@context']).to.equal(ERROR_CONTEXT);
    expect(res.body['@type']).to.equal('UnacceptedResponseContentTypeRejection');
    await unchanged();
  });

  it('nothing in this file ever produced a 500 (a final sweep of odd requests)', async () => {
    const { p, path, unchanged } = await fixture();
    const odd = [
      api.get(`${path}?rev=`),
      api.get(`${path}?tag=`),
      api.get(`/v1/resources/${p}?sort=${enc('-')}`),
      api.get(`/v1/resources/${p}?sort=${enc('http://example.com/with space')}`),
      api.get(`/v1/resources/${p}?locate=${enc('http://example.com/a b')}`),
      api.get(`/v1/resources?locate=${enc('http://example.com/a b')}`),
      api.get(`/v1/resources/${p}?schema=${enc('http://example.com/a b')}`),
      api.get(`/v1/resources/${p}?type=${enc('http://example.com/a#b#c')}&type=x`),
      api.get(`/v1/resources/${p}?locate=${enc('http://example.com/a#b#c')}`),
      api.get(`/v1/resources/${p}?type[a]=1`),
      api.get(`/v1/resources/${p}?size[]=1`),
      api.get(`/v1/resources/${p}/_/${enc('http://example.com/a b')}/incoming`),
      api.get(`/v1/resources/${p}/_/${enc('http://example.com/a b')}/outgoing`),
      api.post(`${path}/tags?rev=2`, { tag: 'x'.repeat(100), rev: 1 }),
      api.put(`/v1/resources/${p}/_/${'x'.repeat(5000)}`, { v: 1 }),
      api.put(`/v1/resources/${p}/_/x?tag=`, { v: 1 }),
      api.put(`${path}?rev=2`, {
        '@context': { '@vocab': 'http://schema.org/' },
        '@graph': [
          { '@id': 'http://a/1', v: 1 },
          { '@id': 'http://a/2', v: 2 },
        ],
      }),
      api.put(`${path}?rev=2`, { '@context': [null, 'https://example.com/x'] }),
      api.put(`${path}?rev=2`, { '@context': { '@vocab': 'http://schema.org/' }, '@reverse': 3 }),
      call(server.url, 'GET', path, undefined, { accept: '' }),
      call(server.url, 'GET', path, undefined, { accept: 'application/ld+json;q=0' }),
    ];
    for (const res of await Promise.all(odd)) {
      expect(res.status, res.text).to.not.equal(500);
      expect(res.status, res.text).to.be.below(500);
    }
    // the long id and the @graph update may legitimately succeed; the rest changed nothing
    const longId = await api.get(`/v1/resources/${p}/_/${'x'.repeat(5000)}`);
    if (longId.status === 200) await api.delete(`/v1/resources/${p}/_/${'x'.repeat(5000)}?prune=true`);
    const graphUpdate = await api.get(path);
    if (graphUpdate.body['_rev'] === 2) await unchanged();
  });
});
