import { expect } from 'chai';
import { serve } from '../support/server.js';
import { client } from '../support/client.js';
import { EX, freshProject, schemaPayload, thing, unique } from '../support/schemas.js';

/** Awaits `work`, checking by ordering that another request is answered before it finishes. */
const meanwhile = async <T>(api: ReturnType<typeof client>, work: Promise<T>): Promise<{ result: T }> => {
  let finished = false;
  const watched = work.finally(() => (finished = true));
  await new Promise((r) => setTimeout(r, 200)); // the heavy request is under way
  expect((await api.get('/v1/version')).status).to.equal(200);
  expect(finished, 'the probe was answered only after the heavy request').to.equal(false);
  return { result: await watched };
};

describe('CPU-heavy work runs in workers with a time budget', function () {
  this.timeout(30_000);
  let api: ReturnType<typeof client>;
  serve((_s, a) => (api = a), { workBudgetMillis: 1_500 });

  it('refuses a payload whose expansion runs over budget (a 45,000-value array) with 400 ProcessingTimeExceeded, writes nothing, and answers others meanwhile', async () => {
    const p = await freshProject(api);
    const body = JSON.stringify({ '@context': { '@vocab': 'http://x/' }, '@id': 'http://e/big', a: Array.from({ length: 45_000 }, (_, i) => i) });
    expect(body.length).to.be.lessThan(256 * 1024);
    const { result } = await meanwhile(api, api.put(`/v1/resources/${p}/_/${encodeURIComponent('http://e/big')}`, body));
    expect(result.status).to.equal(400);
    expect(result.body['@type'], result.body.reason).to.equal('ProcessingTimeExceeded');
    expect((await api.get(`/v1/resources/${p}/_/${encodeURIComponent('http://e/big')}`)).status).to.equal(404);
    expect((await api.put(`/v1/resources/${p}/_/${encodeURIComponent('http://e/small')}`, { 'http://x/a': [1, 2, 3] })).status).to.equal(201);
  });
});

// The default budget (10 s): creating the schema is ordinary SHACL work that a loaded machine can
// stretch past a short budget; the backtracking never ends, so any budget stops it.
describe('CPU-heavy work runs in workers with a time budget: SHACL', function () {
  this.timeout(60_000);
  let api: ReturnType<typeof client>;
  serve((_s, a) => (api = a));

  it('bounds a schema pattern that backtracks exponentially: the validation is refused, the process answers meanwhile', async () => {
    const p = await freshProject(api);
    const schemaId = `${EX}${unique('s')}`;
    const schema = schemaPayload(schemaId, 'Word', {}) as { shapes: { property: unknown[] }[] };
    schema.shapes[0]!.property.push({ path: 'ex:word', pattern: '^(a+)+$' });
    const created = await api.post(`/v1/schemas/${p}`, schema);
    expect(created.status, created.text).to.equal(201);
    const { result } = await meanwhile(api, api.post(`/v1/resources/${p}/${encodeURIComponent(schemaId)}`, thing('Word', { word: `${'a'.repeat(40)}!` })));
    expect(result.status).to.equal(400);
    expect(result.body['@type']).to.equal('ProcessingTimeExceeded');
    // The replaced worker serves the next validations.
    expect((await api.post(`/v1/resources/${p}/${encodeURIComponent(schemaId)}`, thing('Word', { word: 'aaaa' }))).status).to.equal(201);
    expect((await api.post(`/v1/resources/${p}/${encodeURIComponent(schemaId)}`, thing('Word', { word: 'b' }))).body['@type']).to.equal('InvalidResource');
  });
});
