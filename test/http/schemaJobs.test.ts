import { expect } from 'chai';
import { serve } from '../support/server.js';
import type { client } from '../support/client.js';
import { enc } from '../support/client.js';
import { EX, freshProject, schemaPayload, thing, unique } from '../support/schemas.js';

const CONTEXTS = 'https://bluebrain.github.io/nexus/contexts/';

/** Delta 1.11's schema-validation job (SchemaJobRoutes): POST …/jobs/schemas/validation/{org}/{project}, then …/statistics and …/errors. */
describe('schema-validation jobs over a project', function () {
  this.timeout(60_000);
  let api: ReturnType<typeof client>;
  serve((_s, a) => (api = a));
  const J = (p: string) => `/v1/jobs/schemas/validation/${p}`;
  const finished = async (p: string) => {
    for (let tries = 0; tries < 400; tries++) {
      const stats = await api.get(`${J(p)}/statistics`);
      expect(stats.status, stats.text).to.equal(200);
      if (stats.body.remainingEvents === 0) return stats.body;
      await new Promise((r) => setTimeout(r, 25));
    }
    throw new Error('the job did not finish');
  };

  it("checks every current resource again against its schema's latest revision: deprecated and unconstrained ones discarded, failures listed", async () => {
    const p = await freshProject(api);
    const schema = `${EX}schemas/${unique('person')}`;
    expect(
      (await api.put(`/v1/schemas/${p}/${enc(schema)}`, schemaPayload(schema, 'Person', { name: { datatype: 'xsd:string', minCount: 1 } }))).status,
    ).to.equal(201);
    const create = async (id: string, fields: Record<string, unknown>, schemaSegment = enc(schema)) => {
      const res = await api.put(`/v1/resources/${p}/${schemaSegment}/${enc(`${EX}${id}`)}`, thing('Person', fields, `${EX}${id}`));
      expect(res.status, res.text).to.equal(201);
    };
    await create('ann', { name: 'Ann' });
    await create('bob', { name: 'Bob', age: 40 });
    await create('cid', { name: 'Cid' });
    await create('dee', { name: 'Dee' });
    await create('eve', { nickname: 'Eve' }, '_');
    expect((await api.delete(`/v1/resources/${p}/_/${enc(`${EX}dee`)}?rev=1`)).status).to.equal(200);

    const before = await api.get(`${J(p)}/statistics`);
    expect(before.body).to.deep.include({ processedEvents: 0, remainingEvents: 5, totalEvents: 5 });
    // Rev 2 of the schema also requires an integer age: the resources were validated against rev 1.
    const updated = await api.put(
      `/v1/schemas/${p}/${enc(schema)}?rev=1`,
      schemaPayload(schema, 'Person', { name: { datatype: 'xsd:string', minCount: 1 }, age: { datatype: 'xsd:integer', minCount: 1 } }),
    );
    expect(updated.status, updated.text).to.equal(200);

    const started = await api.post(J(p));
    expect(started.status, started.text).to.equal(202);
    const stats = await finished(p);
    expect(stats).to.deep.include({
      '@context': `${CONTEXTS}statistics.json`,
      '@type': 'ViewStatistics',
      delayInSeconds: 0,
      processedEvents: 5,
      discardedEvents: 2,
      failedEvents: 2,
      evaluatedEvents: 1,
      remainingEvents: 0,
      totalEvents: 5,
    });
    expect(stats.lastProcessedEventDateTime).to.equal(stats.lastEventDateTime);

    const errors = await api.get(`${J(p)}/errors`);
    expect(errors.status).to.equal(200);
    expect(errors.headers.get('content-type')).to.match(/^application\/json/);
    const lines = errors.text
      .split('\n')
      .filter((l: string) => l !== '')
      .map((l: string) => JSON.parse(l));
    expect(lines.map((l: { id: string }) => l.id)).to.deep.equal([`${EX}ann`, `${EX}cid`]);
    for (const line of lines) {
      expect(line).to.include({ project: p, rev: 1 });
      expect(line.offset['@type']).to.equal('At');
      expect(line.offset.value).to.be.a('number');
      expect(line.reason.type).to.equal('ValidateSchema');
      expect(line.reason.value['@type']).to.equal('InvalidResource');
      expect(line.reason.value.details.conforms).to.equal(false);
    }
    // The resources themselves are untouched: still at rev 1, validated when written.
    expect((await api.get(`/v1/resources/${p}/_/${enc(`${EX}ann`)}`)).body._rev).to.equal(1);

    // Fixed and run again: the job's results are replaced.
    expect((await api.put(`/v1/resources/${p}/_/${enc(`${EX}ann`)}?rev=1`, thing('Person', { name: 'Ann', age: 30 }, `${EX}ann`))).status).to.equal(200);
    expect((await api.post(J(p))).status).to.equal(202);
    expect(await finished(p)).to.deep.include({ processedEvents: 5, failedEvents: 1, evaluatedEvents: 2 });
    expect((await api.get(`${J(p)}/errors`)).text.trim().split('\n')).to.have.length(1);
  });

  it('fails a resource whose schema is gone as a write would (deprecated schema)', async () => {
    const p = await freshProject(api);
    const schema = `${EX}schemas/${unique('thing')}`;
    expect((await api.put(`/v1/schemas/${p}/${enc(schema)}`, schemaPayload(schema, 'Thing', { name: {} }))).status).to.equal(201);
    expect((await api.put(`/v1/resources/${p}/${enc(schema)}/${enc(`${EX}t`)}`, thing('Thing', { name: 't' }, `${EX}t`))).status).to.equal(201);
    expect((await api.delete(`/v1/schemas/${p}/${enc(schema)}?rev=1`)).status).to.equal(200);
    expect((await api.post(J(p))).status).to.equal(202);
    expect(await finished(p)).to.deep.include({ processedEvents: 1, failedEvents: 1 });
    const [line] = (await api.get(`${J(p)}/errors`)).text
      .trim()
      .split('\n')
      .map((l: string) => JSON.parse(l));
    expect(line.id).to.equal(`${EX}t`);
    expect(line.reason.value['@type']).to.be.a('string');
  });

  it('refuses an unknown project (404) and a caller without schemas/run (403)', async () => {
    for (const [method, path] of [
      ['post', J('nope/nope')],
      ['get', `${J('nope/nope')}/statistics`],
      ['get', `${J('nope/nope')}/errors`],
    ] as const) {
      const res = await api[method](path);
      expect([res.status, res.body['@type']], path).to.deep.equal([404, 'ProjectNotFound']);
    }
    const p = await freshProject(api);
    const acls = await api.get('/v1/acls');
    const root = (acls.body._results as { _path: string; _rev: number; acl: { identity: unknown; permissions: string[] }[] }[]).find((a) => a._path === '/')!;
    const without = root.acl.map((e) => ({ ...e, permissions: e.permissions.filter((x) => x !== 'schemas/run') }));
    expect((await api.put(`/v1/acls?rev=${root._rev}`, { acl: without })).status).to.be.oneOf([200, 201]);
    for (const [method, path] of [
      ['post', J(p)],
      ['get', `${J(p)}/statistics`],
      ['get', `${J(p)}/errors`],
    ] as const) {
      const res = await api[method](path);
      expect([res.status, res.body['@type']], path).to.deep.equal([403, 'AuthorizationFailed']);
    }
  });
});
