import { expect } from 'chai';
import { serve } from '../support/server.js';
import { client } from '../support/client.js';

/** Delta 1.12: a deployment's default base and vocab for new projects (`projects.prefix`). */
describe("new projects' base and vocab from the configuration", function () {
  this.timeout(30_000);
  let api: ReturnType<typeof client>;
  serve((_s, a) => (api = a), { projectPrefix: { base: 'https://ex.org/{{org}}/{{project}}/', vocab: 'https://ex.org/terms/{{project}}#' } });

  it('gives a project created without base and vocab the rendered templates, which its resources then use; a payload still sets its own', async () => {
    expect((await api.put('/v1/orgs/prefixorg', {})).status).to.equal(201);
    const created = await api.put('/v1/projects/prefixorg/plain', {});
    expect(created.status, created.text).to.equal(201);
    const project = await api.get('/v1/projects/prefixorg/plain');
    expect(project.body).to.include({ base: 'https://ex.org/prefixorg/plain/', vocab: 'https://ex.org/terms/plain#' });
    const resource = await api.put('/v1/resources/prefixorg/plain/_/alice', { '@type': 'Person', name: 'Alice' });
    expect(resource.status, resource.text).to.equal(201);
    expect(resource.body['@id']).to.equal('https://ex.org/prefixorg/plain/alice');
    const fetched = await api.get('/v1/resources/prefixorg/plain/_/alice', { accept: 'application/n-triples' });
    expect(fetched.text).to.include('<https://ex.org/prefixorg/plain/alice> <https://ex.org/terms/plain#name> "Alice"');

    expect((await api.put('/v1/projects/prefixorg/own', { base: 'https://own.org/', vocab: 'https://own.org/v/' })).status).to.equal(201);
    expect((await api.get('/v1/projects/prefixorg/own')).body).to.include({ base: 'https://own.org/', vocab: 'https://own.org/v/' });
  });
});
