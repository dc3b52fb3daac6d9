import { expect } from 'chai';
import { startServer } from '../support/server.js';
import { client } from '../support/client.js';

describe('sorting by a bare field name', () => {
  it('sorts by the property the payloads mean by the name, also after a restart', async () => {
    const first = await startServer();
    let api = client(first.url);
    await api.put('/v1/orgs/terms', {});
    await api.put('/v1/projects/terms/p', {});
    const names = ['delta', 'alpha', 'charlie', 'bravo'];
    for (const [i, name] of names.entries()) {
      await api.put(`/v1/resources/terms/p/_/r${i}`, { '@context': { '@vocab': 'http://schema.org/' }, '@type': 'Person', name });
    }
    // A payload whose own context maps the name elsewhere does not change what `name` means here.
    await api.put('/v1/resources/terms/p/_/other', { '@context': { name: 'http://example.org/label' }, name: 'aaa' });
    const sorted = async (sort: string) =>
      (
        (await api.get(`/v1/resources/terms/p?type=${encodeURIComponent('http://schema.org/Person')}&sort=${sort}`)).body['_results'] as { '@id': string }[]
      ).map((r) => r['@id'].slice(r['@id'].lastIndexOf('/') + 1));
    expect(await sorted('name')).to.deep.equal(['r1', 'r3', 'r2', 'r0']);
    expect(await sorted('-name')).to.deep.equal(['r0', 'r2', 'r3', 'r1']);
    await first.stop();
    const second = await startServer({}, first.dataDir);
    api = client(second.url);
    try {
      expect(await sorted('name')).to.deep.equal(['r1', 'r3', 'r2', 'r0']);
    } finally {
      await second.stop(true);
    }
  });
});
