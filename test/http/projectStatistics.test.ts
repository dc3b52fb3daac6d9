import { expect } from 'chai';
import { serve } from '../support/server.js';
import type { TestServer } from '../support/server.js';
import { client } from '../support/client.js';

const payload = (n: number) => ({ '@context': { '@vocab': 'http://schema.org/' }, '@type': 'Thing', name: `thing ${n}` });

/** `GET /v1/projects/{org}/{project}/statistics` in Delta's shape (projects-api.md, "Fetch statistics"). */
describe('project statistics', () => {
  let server: TestServer;
  let api: ReturnType<typeof client>;
  serve((s, a) => ((server = s), (api = a)));

  it("counts the project's items and their events, with the instant of the latest", async () => {
    await api.put('/v1/orgs/stats', {});
    await api.put('/v1/projects/stats/p', {});
    await api.put('/v1/projects/stats/other', {});
    const fresh = await api.get('/v1/projects/stats/p/statistics');
    expect(fresh.status).to.equal(200);
    // The default storage is the project's first item, as Delta's default views and storage are.
    expect(fresh.body).to.include({ '@context': 'https://bluebrain.github.io/nexus/contexts/statistics.json', eventsCount: 1, resourcesCount: 1 });
    await api.put('/v1/resources/stats/p/_/a', payload(1));
    await api.put('/v1/resources/stats/p/_/a?rev=1', payload(2));
    const last = await api.delete('/v1/resources/stats/p/_/a?rev=2');
    await api.put('/v1/schemas/stats/p/s', { shapes: [] });
    await api.put('/v1/resources/stats/other/_/b', payload(3));
    const stats = await api.get('/v1/projects/stats/p/statistics');
    expect(stats.body).to.include({ eventsCount: 1 + 3 + 1, resourcesCount: 3 });
    expect(stats.body.lastProcessedEventDateTime >= last.body['_updatedAt']).to.equal(true);
    expect(Object.keys(stats.body).sort()).to.deep.equal(['@context', 'eventsCount', 'lastProcessedEventDateTime', 'resourcesCount']);
  });

  it('is 404 ProjectNotFound for an unknown project, and guarded by resources/read on the project', async () => {
    const missing = await api.get('/v1/projects/stats/nope/statistics');
    expect([missing.status, missing.body['@type']]).to.deep.equal([404, 'ProjectNotFound']);
    const route = server.registry.routes.find((r) => r.path === '/v1/projects/:org/:project/statistics' && r.method === 'get');
    expect(route?.guard).to.include({ permission: 'resources/read' });
  });
});
