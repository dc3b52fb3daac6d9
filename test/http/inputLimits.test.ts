import { expect } from 'chai';
import { connect } from 'node:net';
import { serve } from '../support/server.js';
import type { TestServer } from '../support/server.js';
import { client, enc } from '../support/client.js';

const ctx = { '@vocab': 'http://schema.org/' };

describe('small inputs past their limits get a typed 400 saying what is wrong', () => {
  let api: ReturnType<typeof client>;
  let server: TestServer;
  serve((s, a) => ((server = s), (api = a)));

  before(async () => {
    expect((await api.put('/v1/orgs/il', {})).status).to.equal(201);
    expect((await api.put('/v1/projects/il/p', {})).status).to.equal(201);
    expect((await api.put('/v1/resources/il/p/_/x', { '@context': ctx, name: 'x' })).status).to.equal(201);
  });

  it('answers a 60,000-character q with a typed 400 body (RequestHeadersTooLarge), not a bare 400, 414 or 500', async () => {
    const res = await api.get(`/v1/resources/il/p?q=${'a'.repeat(60_000)}`);
    expect(res.status).to.equal(400);
    expect(res.body?.['@type'], res.text).to.equal('RequestHeadersTooLarge');
    expect(res.body.reason).to.include("'q'");
    expect((await api.get('/v1/version')).status).to.equal(200);
  });

  it('answers what is not HTTP at all with a typed 400 body (MalformedHttpRequest) and closes the connection', async () => {
    const socket = connect(Number(new URL(server.url).port), '127.0.0.1');
    let received = '';
    socket.on('data', (d) => (received += d));
    socket.write('NOT HTTP AT ALL\r\n\r\n');
    await new Promise((r) => socket.once('close', r));
    expect(received)
      .to.match(/^HTTP\/1.1 400 /)
      .and.include('"@type":"MalformedHttpRequest"');
  });

  it('says which rule a tag breaks: control characters (CR, LF) or its length', async () => {
    const crlf = await api.post('/v1/resources/il/p/_/x/tags?rev=1', { tag: 'a\r\nb', rev: 1 });
    expect([crlf.status, crlf.body['@type']]).to.deep.equal([400, 'MalformedRequestContentRejection']);
    expect(crlf.body.reason).to.include('control characters (such as CR or LF)').and.include('U+000D at position 1');
    const long = await api.post('/v1/resources/il/p/_/x/tags?rev=1', { tag: 'a'.repeat(65), rev: 1 });
    expect([long.status, long.body['@type']]).to.deep.equal([400, 'MalformedRequestContentRejection']);
    expect(long.body.reason).to.include('at most 64 characters, this one has 65');
    // Nothing was tagged.
    expect((await api.get('/v1/resources/il/p/_/x/tags')).body.tags).to.deep.equal([]);
  });

  it('refuses ids made of dot segments with 400 InvalidResourceId instead of creating what no address reaches the same way', async () => {
    const before = (await api.get('/v1/resources/il/p')).body._total;
    for (const segment of ['%2E%2E%2F%2E%2E', 'a%2F..%2Fb', enc('http://ex.org/a/./b'), '..%2Fescape']) {
      const res = await api.put(`/v1/resources/il/p/_/${segment}`, { '@context': ctx, name: 'dots' });
      expect([res.status, res.body['@type']], segment).to.deep.equal([400, 'InvalidResourceId']);
    }
    const posted = await api.post('/v1/resources/il/p', { '@context': ctx, '@id': 'http://ex.org/a/../b', name: 'dots' });
    expect([posted.status, posted.body['@type']]).to.deep.equal([400, 'InvalidResourceId']);
    // `.` and `..` alone are dot segments of the path itself: the request names another route.
    for (const segment of ['.', '..', '%2E', '%2E%2E'])
      expect((await api.put(`/v1/resources/il/p/_/${segment}`, { '@context': ctx })).status).to.not.equal(201);
    expect((await api.get('/v1/resources/il/p')).body._total).to.equal(before);
  });

  it('refuses queries nested past a depth with 400 TooDeeplyNested, never a 500 from a stack overflow', async () => {
    const parens = await api.post('/v1/search/query', { query: { query_string: { query: `${'('.repeat(5_000)}a${')'.repeat(5_000)}` } } });
    expect([parens.status, parens.body['@type']], parens.text).to.deep.equal([400, 'TooDeeplyNested']);
    // Written as text: JSON.stringify itself recurses.
    const bool = `${'{"bool":{"must":['.repeat(5_000)}{"match_all":{}}${']}}'.repeat(5_000)}`;
    const bools = await api.post('/v1/search/query', `{"query":${bool}}`, { 'content-type': 'application/json' });
    // JSON this deep is refused by the body reader already, typed.
    expect([bools.status, bools.body['@type']], bools.text).to.deep.equal([400, 'MalformedRequestContentRejection']);
    const aggs = `${'{"t":{"terms":{"field":"name.keyword"},"aggs":'.repeat(5_000)}{}${'}}'.repeat(5_000)}`;
    const nestedAggs = await api.post('/v1/search/query', `{"size":0,"aggs":${aggs}}`, { 'content-type': 'application/json' });
    expect([nestedAggs.status, nestedAggs.body['@type']], nestedAggs.text).to.deep.equal([400, 'MalformedRequestContentRejection']);
    const sparql = await api.post('/v1/views/il/p/graph/sparql', `SELECT * WHERE ${'{'.repeat(5_000)} ?s ?p ?o ${'}'.repeat(5_000)}`, {
      'content-type': 'application/sparql-query',
    });
    expect([sparql.status, sparql.body['@type']], sparql.text).to.deep.equal([400, 'TooDeeplyNested']);
    const filter = await api.post('/v1/views/il/p/graph/sparql', `SELECT * WHERE { ?s ?p ?o FILTER(${'('.repeat(5_000)}1${')'.repeat(5_000)}) }`, {
      'content-type': 'application/sparql-query',
    });
    expect([filter.status, filter.body['@type']], filter.text).to.deep.equal([400, 'TooDeeplyNested']);
    // Ordinary nesting is evaluated as before.
    const fine = await api.post('/v1/search/query', { query: { query_string: { query: '((x) OR (name:x))' } } });
    expect(fine.status, fine.text).to.equal(200);
  });
});
