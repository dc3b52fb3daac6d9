import { expect } from 'chai';
import { serve, startServer } from '../support/server.js';
import type { TestServer } from '../support/server.js';
import { client, enc } from '../support/client.js';
import { EX, freshProject, schemaPath, schemaPayload, SHACL_SCHEMA, thing, unique } from '../support/schemas.js';

const SHACL_CONTEXT = 'https://bluebrain.github.io/nexus/contexts/shacl-20170720.json';
const METADATA = 'https://bluebrain.github.io/nexus/contexts/metadata.json';

describe('schemas: lifecycle over HTTP', () => {
  let server: TestServer;
  let api: ReturnType<typeof client>;
  serve((s, a) => ((server = s), (api = a)));

  it('creates with POST and PUT; write responses carry the schema metadata', async () => {
    const p = await freshProject(api);
    const id = `${EX}${unique('s')}`;
    const created = await api.post(`/v1/schemas/${p}`, schemaPayload(id, 'Person', { name: { datatype: 'xsd:string', minCount: 1 } }));
    expect(created.status).to.equal(201);
    const self = `${server.url}${schemaPath(p, id)}`;
    expect(created.body).to.include({ '@id': id, '@type': 'Schema', _constrainedBy: SHACL_SCHEMA, _project: p, _rev: 1, _deprecated: false, _self: self });
    expect(created.body._incoming).to.equal(`${self}/incoming`);
    expect(created.body._outgoing).to.equal(`${self}/outgoing`);
    expect(created.body['@context']).to.include(METADATA);

    const put = await api.put(`/v1/schemas/${p}/mine`, { shapes: [] });
    expect(put.status).to.equal(201);
    expect(put.body['@id']).to.equal(`${server.url}/v1/resources/${p}/_/mine`);
    expect((await api.put(`/v1/schemas/${p}/mine`, { shapes: [] })).status).to.equal(409);
    const clash = await api.put(`/v1/schemas/${p}/other`, { '@id': `${EX}different`, shapes: [] });
    expect(clash.body['@type']).to.equal('UnexpectedId');
  });

  it('fetches compacted with the SHACL context appended, by rev and tag, source, annotated source and tags', async () => {
    const p = await freshProject(api);
    const id = `${EX}${unique('s')}`;
    const payload = schemaPayload(id, 'Person', { name: { datatype: 'xsd:string' } });
    await api.post(`/v1/schemas/${p}`, payload);
    const path = schemaPath(p, id);
    const fetched = await api.get(path);
    expect(fetched.status).to.equal(200);
    expect(fetched.body['@type']).to.equal('Schema');
    expect(fetched.body['@context']).to.deep.equal([{ ex: EX }, METADATA, SHACL_CONTEXT]);
    expect(fetched.body.shapes[0].targetClass).to.equal('ex:Person');
    expect(fetched.body._incoming).to.equal(`${server.url}${path}/incoming`);

    const second = schemaPayload(id, 'Person', { name: { datatype: 'xsd:string', minCount: 1 } });
    const updated = await api.put(`${path}?rev=1`, second);
    expect(updated.body._rev).to.equal(2);
    expect((await api.put(`${path}?rev=1`, payload)).status).to.equal(409);
    const tagged = await api.post(`${path}/tags?rev=2`, { tag: 'v1', rev: 1 });
    expect(tagged.status).to.equal(201);
    expect(tagged.body._rev).to.equal(3);
    expect((await api.get(`${path}?tag=v1`)).body.shapes[0].property[0].minCount).to.equal(undefined);
    expect((await api.get(`${path}?rev=2`)).body.shapes[0].property[0].minCount).to.equal(1);
    expect((await api.get(`${path}/source?rev=1`)).body).to.deep.equal(payload);
    const annotated = await api.get(`${path}/source?annotate=true`);
    expect(annotated.body).to.include({ '@id': id, '@type': 'Schema', _rev: 3, _constrainedBy: SHACL_SCHEMA });
    expect(annotated.body.shapes).to.deep.equal(second.shapes);
    expect((await api.get(`${path}/tags`)).body.tags).to.deep.equal([{ rev: 1, tag: 'v1' }]);
    const untagged = await api.delete(`${path}/tags/v1?rev=3`);
    expect(untagged.body._rev).to.equal(4);
    expect((await api.get(`${path}/tags`)).body.tags).to.deep.equal([]);
    expect((await api.get(`${path}?rev=9`)).status).to.equal(404);
    expect((await api.get(schemaPath(p, `${EX}missing`))).status).to.equal(404);
  });

  it('deprecates and undeprecates; a deprecated schema is locked and leaves listings', async () => {
    const p = await freshProject(api);
    const id = `${EX}${unique('s')}`;
    await api.post(`/v1/schemas/${p}`, schemaPayload(id, 'Person', {}));
    const path = schemaPath(p, id);
    expect((await api.get(`/v1/schemas/${p}`)).body._total).to.equal(1);
    const deprecated = await api.delete(`${path}?rev=1`);
    expect(deprecated.body).to.include({ _rev: 2, _deprecated: true });
    expect((await api.put(`${path}?rev=2`, schemaPayload(id, 'Person', {}))).body['@type']).to.equal('ResourceIsDeprecated');
    expect((await api.get(`/v1/schemas/${p}`)).body._total).to.equal(0);
    expect((await api.get(`/v1/schemas/${p}?deprecated=true`)).body._total).to.equal(1);
    expect((await api.put(`${path}/undeprecate?rev=2`)).body).to.include({ _rev: 3, _deprecated: false });
    expect((await api.get(`/v1/schemas/${p}`)).body._total).to.equal(1);
  });

  it('lists schemas at project, organization and global scope with the listing parameters', async () => {
    const p = await freshProject(api);
    const [org] = p.split('/');
    for (const n of [1, 2, 3]) await api.post(`/v1/schemas/${p}`, schemaPayload(`${EX}${unique(`l${n}`)}`, 'Person', {}));
    await api.put(`${schemaPath(p, (await api.get(`/v1/schemas/${p}`)).body._results[0]['@id'])}?rev=1`, { shapes: [] });
    const listed = await api.get(`/v1/schemas/${p}?size=2`);
    expect(listed.body._total).to.equal(3);
    expect(listed.body._results).to.have.length(2);
    expect(listed.body._next).to.be.a('string');
    expect(listed.body._results[0]).to.include({ '@type': 'Schema', _constrainedBy: SHACL_SCHEMA });
    expect(listed.body._results[0]._incoming).to.be.a('string');
    expect((await api.get(`/v1/schemas/${org}`)).body._total).to.equal(3);
    expect((await api.get('/v1/schemas')).body._total).to.be.at.least(3);
    expect((await api.get(`/v1/schemas/${p}?rev=2`)).body._total).to.equal(1);
    expect((await api.get(`/v1/schemas/${p}?type=nxv:Schema`)).body._total).to.equal(3);
    const aggregated = await api.get(`/v1/schemas/${p}?aggregations=true`);
    expect(aggregated.body.total).to.equal(3);
    expect((await api.get('/v1/schemas/nope')).body['@type']).to.equal('OrganizationNotFound');
  });

  it('refuses a schema that is not valid SHACL with InvalidSchema and the report', async () => {
    const p = await freshProject(api);
    const bad = await api.post(`/v1/schemas/${p}`, schemaPayload(`${EX}bad`, 'Person', { name: { minCount: 'many' } }));
    expect(bad.status).to.equal(400);
    expect(bad.body['@type']).to.equal('InvalidSchema');
    expect(bad.body.details).to.include({ '@type': 'sh:ValidationReport', conforms: false });
    expect(bad.body.details.result[0]['sh:resultPath']).to.deep.equal({ '@id': 'http://www.w3.org/ns/shacl#minCount' });
    expect((await api.get(schemaPath(p, `${EX}bad`))).status).to.equal(404);
  });

  it('resolves imports across three levels; a missing or deprecated import is InvalidSchemaResolution naming it', async () => {
    const p = await freshProject(api);
    const [a, b, c] = ['a', 'b', 'c'].map((n) => `${EX}${unique(n)}`) as [string, string, string];
    const missing = await api.post(`/v1/schemas/${p}`, schemaPayload(a, 'Person', {}, [b]));
    expect(missing.status).to.equal(400);
    expect(missing.body['@type']).to.equal('InvalidSchemaResolution');
    expect(missing.body.reason).to.contain(b);
    expect((await api.post(`/v1/schemas/${p}`, schemaPayload(c, 'Person', { age: { datatype: 'xsd:integer', minCount: 1 } }))).status).to.equal(201);
    expect((await api.post(`/v1/schemas/${p}`, schemaPayload(b, 'Person', { email: { datatype: 'xsd:string', minCount: 1 } }, [c]))).status).to.equal(201);
    expect((await api.post(`/v1/schemas/${p}`, schemaPayload(a, 'Person', { name: { datatype: 'xsd:string', minCount: 1 } }, [b]))).status).to.equal(201);

    const against = `/v1/resources/${p}/${enc(a)}`;
    const full = await api.post(against, thing('Person', { name: 'Ann', email: 'a@x', age: 3 }));
    expect(full.status).to.equal(201);
    const noAge = await api.post(against, thing('Person', { name: 'Ann', email: 'a@x' }));
    expect(noAge.body['@type']).to.equal('InvalidResource');
    expect(JSON.stringify(noAge.body.details)).to.contain(`${EX}age`);

    // A deprecated import, even two levels down, is refused by name.
    await api.delete(`${schemaPath(p, c)}?rev=1`);
    const refreshed = await api.put(`${schemaPath(p, a)}/refresh`);
    expect(refreshed.body['@type']).to.equal('InvalidSchemaResolution');
    expect(refreshed.body.reason).to.contain(c);
  });

  it('is cycle-safe: schemas importing each other resolve and validate', async () => {
    const p = await freshProject(api);
    const [a, b] = ['a', 'b'].map((n) => `${EX}${unique(n)}`) as [string, string];
    await api.post(`/v1/schemas/${p}`, schemaPayload(a, 'Person', { name: { datatype: 'xsd:string', minCount: 1 } }));
    await api.post(`/v1/schemas/${p}`, schemaPayload(b, 'Person', { email: { datatype: 'xsd:string', minCount: 1 } }, [a]));
    const cyclic = await api.put(`${schemaPath(p, a)}?rev=1`, schemaPayload(a, 'Person', { name: { datatype: 'xsd:string', minCount: 1 } }, [b]));
    expect(cyclic.status).to.equal(200);
    expect((await api.put(`${schemaPath(p, b)}/refresh`)).body._rev).to.equal(2);
    expect((await api.post(`/v1/resources/${p}/${enc(a)}`, thing('Person', { name: 'Ann', email: 'a@x' }))).status).to.equal(201);
    expect((await api.post(`/v1/resources/${p}/${enc(b)}`, thing('Person', { name: 'Ann' }))).body['@type']).to.equal('InvalidResource');
  });

  it('picks up a change of an imported schema on refresh, and only then', async () => {
    const p = await freshProject(api);
    const [top, base] = ['top', 'base'].map((n) => `${EX}${unique(n)}`) as [string, string];
    await api.post(`/v1/schemas/${p}`, schemaPayload(base, 'Person', { name: { datatype: 'xsd:string' } }));
    await api.post(`/v1/schemas/${p}`, schemaPayload(top, 'Person', {}, [base]));
    const against = `/v1/resources/${p}/${enc(top)}`;
    expect((await api.put(`${schemaPath(p, top)}/refresh`)).body._rev).to.equal(1);
    expect((await api.post(against, thing('Person', { other: 1 }))).status).to.equal(201);
    await api.put(`${schemaPath(p, base)}?rev=1`, schemaPayload(base, 'Person', { name: { datatype: 'xsd:string', minCount: 1 } }));
    // The top schema's revision pins the import as it was.
    expect((await api.post(against, thing('Person', { other: 1 }))).status).to.equal(201);
    const refreshed = await api.put(`${schemaPath(p, top)}/refresh`);
    expect(refreshed.body._rev).to.equal(2);
    expect((await api.post(against, thing('Person', { other: 1 }))).body['@type']).to.equal('InvalidResource');
    expect((await api.post(against, thing('Person', { name: 'Ann' }))).status).to.equal(201);
  });

  it('imports a resource of the project holding shape triples', async () => {
    const p = await freshProject(api);
    const ontology = `${EX}${unique('onto')}`;
    const shapes = {
      '@context': { sh: 'http://www.w3.org/ns/shacl#', ex: EX },
      '@id': ontology,
      'ex:describes': { '@id': 'ex:Person' },
      'sh:property': { 'sh:path': { '@id': 'ex:name' }, 'sh:minCount': 1 },
      '@type': 'sh:NodeShape',
      'sh:targetClass': { '@id': 'ex:Person' },
    };
    expect((await api.post(`/v1/resources/${p}`, shapes)).status).to.equal(201);
    const id = `${EX}${unique('s')}`;
    expect((await api.post(`/v1/schemas/${p}`, schemaPayload(id, 'Person', {}, [ontology]))).status).to.equal(201);
    expect((await api.post(`/v1/resources/${p}/${enc(id)}`, thing('Person', { other: 1 }))).body['@type']).to.equal('InvalidResource');
    expect((await api.post(`/v1/resources/${p}/${enc(id)}`, thing('Person', { name: 'x' }))).status).to.equal(201);
  });

  it('keeps schemas and validation across a restart', async () => {
    const own = await startServer();
    const ownApi = client(own.url);
    const p = await freshProject(ownApi);
    const id = `${EX}${unique('s')}`;
    await ownApi.post(`/v1/schemas/${p}`, schemaPayload(id, 'Person', { name: { datatype: 'xsd:string', minCount: 1 } }));
    await own.stop();
    const again = await startServer({}, own.dataDir);
    const againApi = client(again.url);
    try {
      expect((await againApi.get(`/v1/schemas/${p}`)).body._total).to.equal(1);
      expect((await againApi.post(`/v1/resources/${p}/${enc(id)}`, thing('Person', {}))).body['@type']).to.equal('InvalidResource');
      expect((await againApi.post(`/v1/resources/${p}/${enc(id)}`, thing('Person', { name: 'Ann' }))).status).to.equal(201);
    } finally {
      await again.stop(true);
    }
  });
});
