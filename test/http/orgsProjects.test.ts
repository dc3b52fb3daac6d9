import { expect } from 'chai';
import { serve } from '../support/server.js';
import type { TestServer } from '../support/server.js';
import { client } from '../support/client.js';

describe('organizations and projects', () => {
  let server: TestServer;
  let api: ReturnType<typeof client>;
  serve((s, a) => ((server = s), (api = a)));

  it('creates, fetches, updates and deprecates an organization', async () => {
    const created = await api.put('/v1/orgs/acme', { description: 'ACME' });
    expect(created.status).to.equal(201);
    expect(created.body['_rev']).to.equal(1);
    expect(created.body['@id']).to.equal(`${server.url}/v1/orgs/acme`);
    const fetched = await api.get('/v1/orgs/acme');
    expect(fetched.body.description).to.equal('ACME');
    expect((await api.put('/v1/orgs/acme?rev=1', { description: 'ACME 2' })).body['_rev']).to.equal(2);
    expect((await api.get('/v1/orgs/acme')).body.description).to.equal('ACME 2');
    expect((await api.put('/v1/orgs/acme', {})).body['@type']).to.equal('OrganizationAlreadyExists');
    const stale = await api.put('/v1/orgs/acme?rev=1', {});
    expect(stale.status).to.equal(409);
    expect(stale.body).to.include({ '@type': 'IncorrectRev', provided: 1, expected: 2 });
    expect((await api.delete('/v1/orgs/acme?rev=2')).body['_deprecated']).to.equal(true);
    const below = await api.put('/v1/projects/acme/p1', {});
    expect(below.status).to.equal(400);
    expect(below.body['@type']).to.equal('OrganizationIsDeprecated');
  });

  it('creates projects with defaults and api mappings', async () => {
    await api.put('/v1/orgs/lab', {});
    const created = await api.put('/v1/projects/lab/p1', { description: 'p', apiMappings: [{ prefix: 'schema', namespace: 'http://schema.org/' }] });
    expect(created.status).to.equal(201);
    const fetched = await api.get('/v1/projects/lab/p1');
    expect(fetched.body.base).to.equal(`${server.url}/v1/resources/lab/p1/_/`);
    expect(fetched.body.vocab).to.equal(`${server.url}/v1/vocabs/lab/p1/`);
    expect(fetched.body.apiMappings).to.deep.equal([{ prefix: 'schema', namespace: 'http://schema.org/' }]);
    const again = await api.put('/v1/projects/lab/p1', {});
    expect([again.status, again.body['@type']]).to.deep.equal([409, 'ProjectAlreadyExists']);
    expect((await api.get('/v1/projects/lab')).body['_total']).to.equal(1);
    expect((await api.get('/v1/projects')).body['_total']).to.be.at.least(1);
    // lab, and acme when its test ran first.
    expect((await api.get('/v1/orgs')).body['_total']).to.be.at.least(1);
  });

  it('rejects bad labels, unknown organizations and projects', async () => {
    const bad = await api.put('/v1/orgs/not%20valid', {});
    expect(bad.status).to.equal(400);
    expect(bad.body['@type']).to.equal('InvalidLabel');
    expect((await api.get('/v1/orgs/nope')).body['@type']).to.equal('OrganizationNotFound');
    expect((await api.get('/v1/projects/nope/p')).body['@type']).to.equal('ProjectNotFound');
    expect((await api.put('/v1/projects/nope/p', {})).status).to.equal(404);
    // An organization of its own: the test passes alone and in any order.
    expect((await api.put('/v1/orgs/labels', {})).status).to.equal(201);
    expect((await api.put('/v1/projects/labels/bad-base', { base: 'not an iri' })).body['@type']).to.equal('MalformedRequestContentRejection');
    expect((await api.get('/v1/projects/labels/bad-base')).status).to.equal(404);
  });
});
