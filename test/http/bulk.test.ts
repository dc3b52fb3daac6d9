import { expect } from 'chai';
import { MINIMUM_PERMISSIONS } from '../../src/kernel/permissions.js';
import { serve, startServer } from '../support/server.js';
import type { TestServer } from '../support/server.js';
import { client, enc } from '../support/client.js';
import { EX, freshProject, schemaPayload, thing, unique } from '../support/schemas.js';
import { interruptedImport, postLines } from '../support/ndjson.js';

describe('bulk import', function () {
  this.timeout(60_000);
  let server: TestServer;
  let api: ReturnType<typeof client>;
  serve((s, a) => ((server = s), (api = a)), { maxPayloadBytes: 4 * 1024 });

  const bulk = (p: string, lines: (string | object)[], query = '', schema = '') =>
    postLines(`${server.url}/v1/bulk/resources/${p}${schema ? `/${schema}` : ''}${query}`, lines);
  const item = (id: string, extra: Record<string, unknown> = {}) => ({
    '@context': { ex: EX },
    '@id': `${EX}${id}`,
    '@type': 'ex:Thing',
    'ex:name': id,
    ...extra,
  });

  it('creates every line, answering one line per input line in order with its id and revision; events and fetches as single creates', async () => {
    const p = await freshProject(api);
    const lines = Array.from({ length: 300 }, (_, i) => item(`bulk-${i}`, { 'ex:n': i }));
    const res = await bulk(p, lines, '?tag=imported');
    expect(res.status).to.equal(200);
    expect(res.type).to.match(/^application\/x-ndjson/);
    expect(res.lines.map((l) => l.line)).to.deep.equal(lines.map((_, i) => i + 1));
    expect(res.lines.every((l) => l.status === 201 && l._rev === 1)).to.equal(true);
    expect(res.lines[7]['@id']).to.equal(`${EX}bulk-7`);
    const fetched = await api.get(`/v1/resources/${p}/_/${enc(`${EX}bulk-7`)}`);
    expect(fetched.status).to.equal(200);
    expect(fetched.body).to.include({ _rev: 1, 'ex:n': 7 });
    const source = await api.get(`/v1/resources/${p}/_/${enc(`${EX}bulk-7`)}/source`);
    expect(source.body).to.deep.equal(lines[7]);
    const tags = await api.get(`/v1/resources/${p}/_/${enc(`${EX}bulk-7`)}/tags`);
    expect(tags.body.tags).to.deep.equal([{ rev: 1, tag: 'imported' }]);
    // Listed (indexing=sync is the default: the projections hold every line once answered).
    const listed = await api.get(`/v1/resources/${p}?size=1`);
    expect(listed.body._total).to.equal(300);
  });

  it('judges each line on its own: malformed, reserved fields, duplicates, bad ids refused; blank lines skipped; the rest written', async () => {
    const p = await freshProject(api);
    const res = await bulk(p, [
      item('good-1'),
      '{"not json',
      '',
      { ...item('reserved'), _rev: 3 },
      item('good-1'),
      '[1, 2]',
      { '@id': 'http://example.com/a/../b' },
      item('good-2'),
    ]);
    expect(res.status).to.equal(200);
    const byLine = Object.fromEntries(res.lines.map((l) => [l.line, l]));
    expect(Object.keys(byLine).map(Number)).to.deep.equal([1, 2, 4, 5, 6, 7, 8]);
    expect(byLine[1]).to.include({ status: 201, '@id': `${EX}good-1` });
    expect(byLine[2]).to.include({ status: 400, '@type': 'MalformedRequestContentRejection' });
    expect(byLine[2].reason).to.match(/not JSON/);
    expect(byLine[4]).to.include({ status: 400, '@type': 'MalformedRequestContentRejection' });
    expect(byLine[5]).to.include({ status: 409, '@type': 'ResourceAlreadyExists' });
    expect(byLine[6]).to.include({ status: 400, '@type': 'MalformedRequestContentRejection' });
    expect(byLine[7]).to.include({ status: 400, '@type': 'InvalidResourceId' });
    expect(byLine[8]).to.include({ status: 201, '@id': `${EX}good-2` });
    expect((await api.get(`/v1/resources/${p}?size=1`)).body._total).to.equal(2);
  });

  it('validates every line against the schema of the path', async () => {
    const p = await freshProject(api);
    const schemaId = `${EX}schemas/${unique('person')}`;
    expect((await api.post(`/v1/schemas/${p}`, schemaPayload(schemaId, 'Person', { name: { datatype: 'xsd:string', minCount: 1 } }))).status).to.equal(201);
    const res = await bulk(p, [thing('Person', { name: 'Ann' }), thing('Person', {}), thing('Person', { name: 'Bo' })], '', enc(schemaId));
    expect(res.lines.map((l) => l.status)).to.deep.equal([201, 400, 201]);
    expect(res.lines[1]['@type']).to.equal('InvalidResource');
    const created = await api.get(`/v1/resources/${p}/_/${enc(res.lines[0]['@id'])}`);
    expect(created.body._constrainedBy).to.equal(schemaId);
  });

  it('with update=true updates the items that exist at their current revision, and creates the others', async () => {
    const p = await freshProject(api);
    await bulk(p, [item('u-1'), item('u-2')]);
    expect((await api.put(`/v1/resources/${p}/_/${enc(`${EX}u-2`)}?rev=1`, item('u-2', { 'ex:v': 2 }))).status).to.equal(200);
    const res = await bulk(p, [item('u-1', { 'ex:v': 'new' }), item('u-2', { 'ex:v': 3 }), item('u-3'), item('u-3', { 'ex:v': 'again' })], '?update=true');
    expect(res.lines.map((l) => [l.status, l._rev])).to.deep.equal([
      [200, 2],
      [200, 3],
      [201, 1],
      [200, 2],
    ]);
    const u3 = await api.get(`/v1/resources/${p}/_/${enc(`${EX}u-3`)}/source`);
    expect(u3.body['ex:v']).to.equal('again');
    // Without update=true an existing item is a conflict.
    const again = await bulk(p, [item('u-1')]);
    expect(again.lines[0]).to.include({ status: 409, '@type': 'ResourceAlreadyExists' });
  });

  it('answers a line over the payload limit with PayloadTooLarge, and goes on with the next', async () => {
    const p = await freshProject(api);
    const res = await bulk(p, [item('small-1'), item('big', { 'ex:blob': 'x'.repeat(5 * 1024) }), item('small-2')]);
    expect(res.lines.map((l) => l.status)).to.deep.equal([201, 413, 201]);
    expect(res.lines[1]['@type']).to.equal('PayloadTooLarge');
  });

  it('refuses a body that is not NDJSON, and a project that does not exist, before reading it', async () => {
    const p = await freshProject(api);
    const wrong = await postLines(`${server.url}/v1/bulk/resources/${p}`, [item('x')], { 'content-type': 'application/json' });
    expect(wrong.status).to.equal(415);
    expect(wrong.body['@type']).to.equal('UnsupportedRequestContentTypeRejection');
    const missing = await postLines(`${server.url}/v1/bulk/resources/nope/nothere`, [item('x')]);
    expect(missing.status).to.equal(404);
  });

  it('leaves every acknowledged line in and nothing of a line cut off when the client drops the connection', async () => {
    const p = await freshProject(api);
    const lines = Array.from({ length: 40 }, (_, i) => JSON.stringify(item(`cut-${i}`)));
    const partial = JSON.stringify(item('cut-partial')).slice(0, 40);
    const answers = (await interruptedImport(`${server.url}/v1/bulk/resources/${p}`, lines, partial, 40)).map(
      (l) => JSON.parse(l) as { line: number; status: number },
    );
    expect(answers.map((a) => a.status)).to.deep.equal(lines.map(() => 201));
    await new Promise((r) => setTimeout(r, 200));
    for (let i = 0; i < 40; i++) {
      const source = await api.get(`/v1/resources/${p}/_/${enc(`${EX}cut-${i}`)}/source`);
      expect(source.body).to.deep.equal(JSON.parse(lines[i]!));
    }
    expect((await api.get(`/v1/resources/${p}/_/${enc(`${EX}cut-partial`)}`)).status).to.equal(404);
    expect((await api.get(`/v1/resources/${p}?size=1`)).body._total).to.equal(40);
    // The import resumes from the next line.
    expect((await bulk(p, [item('cut-partial')])).lines[0].status).to.equal(201);
  });
});

describe('bulk import permissions', function () {
  this.timeout(60_000);
  let server: TestServer;
  before(async () => {
    server = await startServer();
    const api = client(server.url);
    await api.put('/v1/orgs/o', {});
    await api.put('/v1/projects/o/p', {});
    const kept = MINIMUM_PERMISSIONS.filter((perm) => perm !== 'resources/write');
    const locked = await api.put('/v1/acls?rev=0', { acl: [{ identity: { '@type': 'Anonymous' }, permissions: kept }] });
    expect(locked.status, locked.text).to.equal(201);
  });
  after(() => server.stop(true));

  it('needs resources/write on the project, as a single create does', async () => {
    const res = await postLines(`${server.url}/v1/bulk/resources/o/p`, [{ '@id': `${EX}x` }]);
    expect(res.status).to.equal(403);
    expect(res.body['@type']).to.equal('AuthorizationFailed');
    expect((await client(server.url).get('/v1/resources/o/p')).body._total).to.equal(0);
  });
});
