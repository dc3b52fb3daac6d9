import { expect } from 'chai';
import { serve } from '../support/server.js';
import type { TestServer } from '../support/server.js';
import { client, enc } from '../support/client.js';
import { EX, freshProject, schemaPath, schemaPayload, thing, unique } from '../support/schemas.js';

describe('resources constrained by schemas', () => {
  // `_constrainedBy` is the schema's plain IRI; which revision validated is shown by what validates.
  let server: TestServer;
  let api: ReturnType<typeof client>;
  serve((s, a) => ((server = s), (api = a)));

  /** A project with a `Person` schema requiring a string `name`; returns paths and ids. */
  const setup = async (projectBody: Record<string, unknown> = {}, schemaId?: (p: string) => string) => {
    const p = await freshProject(api, projectBody);
    const id = schemaId ? schemaId(p) : `${EX}schemas/${unique('person')}`;
    const created = await api.post(`/v1/schemas/${p}`, schemaPayload(id, 'Person', { name: { datatype: 'xsd:string', minCount: 1 } }));
    expect(created.status).to.equal(201);
    return { p, id, R: `/v1/resources/${p}/${enc(id)}` };
  };

  it('creates against a schema given as alias, CURIE, relative id or encoded IRI, pinning the revision', async () => {
    const id = `${EX}schemas/${unique('person')}`;
    const { p } = await setup(
      {
        apiMappings: [
          { prefix: 'person', namespace: id },
          { prefix: 'exs', namespace: `${EX}schemas/` },
        ],
      },
      () => id,
    );
    const local = id.slice(`${EX}schemas/`.length);
    for (const segment of ['person', `exs:${local}`, enc(id)]) {
      const created = await api.post(`/v1/resources/${p}/${segment}`, thing('Person', { name: 'Ann' }));
      expect(created.status, segment).to.equal(201);
      expect(created.body._constrainedBy).to.equal(`${id}`);
    }
    const relative = await setup({}, (proj) => `${server.url}/v1/resources/${proj}/_/rel-schema`);
    const viaRelative = await api.post(`/v1/resources/${relative.p}/rel-schema`, thing('Person', { name: 'Ann' }));
    expect(viaRelative.status).to.equal(201);
    expect(viaRelative.body._constrainedBy).to.equal(`${relative.id}`);
  });

  it('creates against a named revision or tag of the schema', async () => {
    const { p, id } = await setup();
    await api.put(`${schemaPath(p, id)}?rev=1`, schemaPayload(id, 'Person', { name: { datatype: 'xsd:integer', minCount: 1 } }));
    await api.post(`${schemaPath(p, id)}/tags?rev=2`, { tag: 'first', rev: 1 });
    const atRev1 = await api.post(`/v1/resources/${p}/${enc(`${id}?rev=1`)}`, thing('Person', { name: 'Ann' }));
    expect(atRev1.body._constrainedBy).to.equal(`${id}`);
    const atTag = await api.post(`/v1/resources/${p}/${enc(`${id}?tag=first`)}`, thing('Person', { name: 'Ann' }));
    expect(atTag.body._constrainedBy).to.equal(`${id}`);
    expect((await api.post(`/v1/resources/${p}/${enc(id)}`, thing('Person', { name: 'Ann' }))).body['@type']).to.equal('InvalidResource');
    expect((await api.post(`/v1/resources/${p}/${enc(id)}`, thing('Person', { name: 5 }))).body._constrainedBy).to.equal(`${id}`);
    expect((await api.post(`/v1/resources/${p}/${enc(`${id}?tag=nope`)}`, thing('Person', { name: 'Ann' }))).status).to.equal(404);
  });

  it('refuses a non-conforming resource with InvalidResource and the report, writing nothing', async () => {
    const { p, R } = await setup();
    const refused = await api.put(`${R}/${enc(`${EX}ann`)}`, thing('Person', { name: 5 }));
    expect(refused.status).to.equal(400);
    expect(refused.body['@type']).to.equal('InvalidResource');
    expect(refused.body.details).to.include({ '@type': 'sh:ValidationReport', conforms: false, targetedNodes: 1 });
    expect(refused.body.details.result[0]).to.include({ focusNode: `${EX}ann`, sourceConstraintComponent: 'sh:DatatypeConstraintComponent' });
    expect((await api.get(`/v1/resources/${p}/_/${enc(`${EX}ann`)}`)).status).to.equal(404);
    expect((await api.get(`/v1/resources/${p}`)).body._total).to.equal(0);
  });

  it('refuses NoTargetedNode, SchemaIsDeprecated and an unknown schema (404)', async () => {
    const { p, id, R } = await setup();
    const untargeted = await api.post(R, thing('Dog', { name: 'Rex' }));
    expect(untargeted.status).to.equal(400);
    expect(untargeted.body['@type']).to.equal('NoTargetedNode');
    const unknown = await api.post(`/v1/resources/${p}/${enc(`${EX}nothing`)}`, thing('Person', { name: 'Ann' }));
    expect(unknown.status).to.equal(404);
    await api.delete(`${schemaPath(p, id)}?rev=1`);
    const deprecated = await api.post(R, thing('Person', { name: 'Ann' }));
    expect(deprecated.status).to.equal(400);
    expect(deprecated.body['@type']).to.equal('SchemaIsDeprecated');
  });

  it('updates with `_` against the latest schema revision; another schema is refused, another revision allowed', async () => {
    const { p, id, R } = await setup();
    const other = await setup();
    const rid = `${EX}${unique('r')}`;
    expect((await api.put(`${R}/${enc(rid)}`, thing('Person', { name: 'Ann' }))).status).to.equal(201);
    await api.put(`${schemaPath(p, id)}?rev=1`, schemaPayload(id, 'Person', { name: { datatype: 'xsd:string', minCount: 1 }, age: { minCount: 1 } }));
    const stale = await api.put(`/v1/resources/${p}/_/${enc(rid)}?rev=1`, thing('Person', { name: 'Bob' }));
    expect(stale.body['@type']).to.equal('InvalidResource');
    const updated = await api.put(`/v1/resources/${p}/_/${enc(rid)}?rev=1`, thing('Person', { name: 'Bob', age: 3 }));
    expect(updated.body).to.include({ _rev: 2, _constrainedBy: `${id}` });
    const pinned = await api.put(`/v1/resources/${p}/${enc(`${id}?rev=1`)}/${enc(rid)}?rev=2`, thing('Person', { name: 'Cy' }));
    expect(pinned.body).to.include({ _rev: 3, _constrainedBy: `${id}` });
    const elsewhere = await api.put(`/v1/resources/${p}/${enc(other.id)}/${enc(rid)}?rev=3`, thing('Person', { name: 'Di' }));
    expect(elsewhere.status).to.equal(400);
    expect(elsewhere.body['@type']).to.equal('UnexpectedResourceSchema');
  });

  it('changes the schema with update-schema only when the current payload conforms', async () => {
    const { p, R } = await setup();
    const strict = `${EX}schemas/${unique('strict')}`;
    await api.post(`/v1/schemas/${p}`, schemaPayload(strict, 'Person', { name: { datatype: 'xsd:string', minCount: 1 }, age: { minCount: 1 } }));
    const loose = `${EX}schemas/${unique('loose')}`;
    await api.post(`/v1/schemas/${p}`, schemaPayload(loose, 'Person', {}));
    const rid = `${EX}${unique('r')}`;
    await api.put(`${R}/${enc(rid)}`, thing('Person', { name: 'Ann' }));
    const refused = await api.put(`/v1/resources/${p}/${enc(strict)}/${enc(rid)}/update-schema`);
    expect(refused.body['@type']).to.equal('InvalidResource');
    const changed = await api.put(`/v1/resources/${p}/${enc(loose)}/${enc(rid)}/update-schema`);
    expect(changed.body).to.include({ _rev: 2, _constrainedBy: `${loose}` });
    expect((await api.get(`/v1/resources/${p}/_/${enc(rid)}/source`)).body['ex:name']).to.equal('Ann');
  });

  it('validates against a named schema without changing anything', async () => {
    const { p, R } = await setup();
    const strict = `${EX}schemas/${unique('strict')}`;
    await api.post(`/v1/schemas/${p}`, schemaPayload(strict, 'Person', { age: { minCount: 1 } }));
    const rid = `${EX}${unique('r')}`;
    await api.put(`${R}/${enc(rid)}`, thing('Person', { name: 'Ann' }));
    const ok = await api.get(`${R}/${enc(rid)}/validate`);
    expect(ok.status).to.equal(200);
    expect(ok.body).to.deep.equal({
      '@context': 'https://bluebrain.github.io/nexus/contexts/shacl-20170720.json',
      '@type': 'sh:ValidationReport',
      conforms: true,
      targetedNodes: 1,
    });
    const failing = await api.get(`/v1/resources/${p}/${enc(strict)}/${enc(rid)}/validate`);
    expect(failing.body).to.include({ conforms: false, targetedNodes: 1 });
    expect(failing.body.result).to.have.length(1);
    expect((await api.get(`/v1/resources/${p}/_/${enc(rid)}/validate`)).body.conforms).to.equal(true);
    expect((await api.get(`/v1/resources/${p}/_/${enc(rid)}`)).body._rev).to.equal(1);
  });

  it('fetches with a schema segment only when it is the resource schema', async () => {
    const { p, id, R } = await setup();
    const rid = `${EX}${unique('r')}`;
    await api.put(`${R}/${enc(rid)}`, thing('Person', { name: 'Ann' }));
    expect((await api.get(`${R}/${enc(rid)}`)).status).to.equal(200);
    expect((await api.get(`/v1/resources/${p}/${enc(`${id}?rev=1`)}/${enc(rid)}`)).status).to.equal(200);
    expect((await api.get(`/v1/resources/${p}/${enc(`${EX}other`)}/${enc(rid)}`)).status).to.equal(404);
  });

  it('lists by schema, with the path segment and the schema filter', async () => {
    const { p, id, R } = await setup();
    await api.post(R, thing('Person', { name: 'Ann' }));
    await api.put(`${schemaPath(p, id)}?rev=1`, schemaPayload(id, 'Person', { name: { datatype: 'xsd:string' } }));
    await api.post(R, thing('Person', { name: 'Bob' }));
    await api.post(`/v1/resources/${p}`, thing('Person', { name: 'Cy' }));
    expect((await api.get(R)).body._total).to.equal(2);
    expect((await api.get(`/v1/resources/${p}?schema=${enc(id)}`)).body._total).to.equal(2);
    expect((await api.get(`/v1/resources/${p}/_`)).body._total).to.equal(1);
    expect((await api.get(`/v1/resources/${p}?schema=_`)).body._total).to.equal(1);
  });

  it('refreshes a resource against the changed schema', async () => {
    const { p, id, R } = await setup();
    const rid = `${EX}${unique('r')}`;
    await api.put(`${R}/${enc(rid)}`, thing('Person', { name: 'Ann' }));
    const path = `/v1/resources/${p}/_/${enc(rid)}`;
    expect((await api.put(`${path}/refresh`)).body._rev).to.equal(1);
    await api.put(`${schemaPath(p, id)}?rev=1`, schemaPayload(id, 'Person', { name: { datatype: 'xsd:string', minCount: 1 }, age: { minCount: 1 } }));
    expect((await api.put(`${path}/refresh`)).body['@type']).to.equal('InvalidResource');
    await api.put(`${schemaPath(p, id)}?rev=2`, schemaPayload(id, 'Person', { name: { datatype: 'xsd:string' } }));
    const refreshed = await api.put(`${path}/refresh`);
    expect(refreshed.body).to.include({ _rev: 2, _constrainedBy: `${id}` });
  });
});
