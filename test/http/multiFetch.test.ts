import { expect } from 'chai';
import { request } from 'node:http';
import { serve } from '../support/server.js';
import type { TestServer } from '../support/server.js';
import { client } from '../support/client.js';

describe('multi-fetch', () => {
  let server: TestServer;
  let api: ReturnType<typeof client>;
  serve((s, a) => ((server = s), (api = a)), { multiFetchMax: 5 });
  const A = 'http://ex.org/a';
  const S = 'http://ex.org/schema';

  before(async () => {
    await api.put('/v1/orgs/mf', {});
    await api.put('/v1/projects/mf/p1', {});
    await api.put('/v1/projects/mf/p2', {});
    expect(
      (await api.put(`/v1/resources/mf/p1/_/${encodeURIComponent(A)}`, { '@context': { '@vocab': 'http://schema.org/' }, name: 'first', note: null })).status,
    ).to.equal(201);
    expect(
      (await api.put(`/v1/resources/mf/p1/_/${encodeURIComponent(A)}?rev=1`, { '@context': { '@vocab': 'http://schema.org/' }, name: 'second' })).status,
    ).to.equal(200);
    await api.post(`/v1/resources/mf/p1/_/${encodeURIComponent(A)}/tags?rev=2`, { tag: 'v1', rev: 1 });
    expect((await api.put(`/v1/schemas/mf/p2/${encodeURIComponent(S)}`, { shapes: [] })).status).to.equal(201);
  });

  const fetchMany = (format: string, resources: { id: string; project: string }[]) => api.post(`/v1/multi-fetch/resources`, { format, resources });
  /** GET with a JSON body, as existing clients send it (fetch refuses a body on GET). */
  const getMany = (body: unknown): Promise<{ status: number; body: { resources: { value: { name: string } }[] } }> =>
    new Promise((resolve, reject) => {
      const text = JSON.stringify(body);
      const req = request(
        `${server.url}/v1/multi-fetch/resources`,
        { method: 'GET', headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) } },
        (res) => {
          let data = '';
          res.on('data', (d) => (data += d));
          res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(data) }));
        },
      );
      req.on('error', reject);
      req.end(text);
    });

  it('answers in request order across projects and kinds, with revisions, tags, and per-entry NotFound', async () => {
    const res = await fetchMany('source', [
      { id: `${A}?rev=1`, project: 'mf/p1' },
      { id: S, project: 'mf/p2' },
      { id: `${A}?tag=v1`, project: 'mf/p1' },
      { id: A, project: 'mf/p1' },
      { id: 'http://ex.org/missing', project: 'mf/p1' },
    ]);
    expect(res.status).to.equal(200);
    const [rev1, schema, tagged, latest, missing] = res.body.resources;
    expect(rev1).to.deep.equal({ '@id': `${A}?rev=1`, project: 'mf/p1', value: { '@context': { '@vocab': 'http://schema.org/' }, name: 'first', note: null } });
    expect(schema.value).to.deep.equal({ shapes: [] });
    expect(tagged.value.name).to.equal('first');
    expect(latest.value.name).to.equal('second');
    expect(missing.error).to.deep.equal({ '@type': 'NotFound', reason: `The resource 'http://ex.org/missing' was not found in project 'mf/p1'.` });
    expect(res.body.format).to.equal('source');
  });

  it('gives the value of the single fetch in every format', async () => {
    const one = [{ id: A, project: 'mf/p1' }];
    const compacted = (await fetchMany('compacted', one)).body.resources[0].value;
    const single = await api.get(`/v1/resources/mf/p1/_/${encodeURIComponent(A)}`);
    expect(compacted).to.deep.equal(single.body);
    const annotated = (await fetchMany('annotated-source', one)).body.resources[0].value;
    expect(annotated).to.deep.equal((await api.get(`/v1/resources/mf/p1/_/${encodeURIComponent(A)}/source?annotate=true`)).body);
    expect((await fetchMany('expanded', one)).body.resources[0].value[0]['@id']).to.equal(A);
    const triples = (await fetchMany('n-triples', one)).body.resources[0].value;
    expect(triples).to.equal((await api.get(`/v1/resources/mf/p1/_/${encodeURIComponent(A)}`, { accept: 'application/n-triples' })).text);
    expect((await fetchMany('dot', one)).body.resources[0].value).to.match(/^digraph/);
    const viaGet = await getMany({ format: 'source', resources: one });
    expect(viaGet.body.resources[0].value.name).to.equal('second');
  });

  it('refuses a malformed request, an unknown format and too many entries with 400', async () => {
    expect((await fetchMany('yaml', [{ id: A, project: 'mf/p1' }])).body['@type']).to.equal('MalformedRequestContentRejection');
    expect((await api.post('/v1/multi-fetch/resources', { format: 'source' })).status).to.equal(400);
    expect((await fetchMany('source', [{ id: A, project: 'not a project' }])).status).to.equal(400);
    const tooMany = await fetchMany(
      'source',
      Array.from({ length: 6 }, () => ({ id: A, project: 'mf/p1' })),
    );
    expect(tooMany.status).to.equal(400);
    expect(tooMany.body.reason).to.include('At most 5');
    expect(server.url).to.be.a('string');
  });
});
