import { expect } from 'chai';
import { client } from '../support/client.js';
import { startServer } from '../support/server.js';
import type { TestServer } from '../support/server.js';
import { toyCapability } from '../support/toyCapability.js';

/**
 * A capability is one line in the capability list: the toy (test/support/toyCapability.ts) gets its
 * route, its event stream, the status of its rejection, its listing, its search document and its
 * multi-fetch entry from what it registers, with no shared file edited.
 */
describe('a capability wired by one line (the toy capability)', () => {
  let server: TestServer;
  let api: ReturnType<typeof client>;
  before(async () => {
    server = await startServer({}, undefined, { capabilities: [toyCapability] });
    api = client(server.url);
    await api.put('/v1/orgs/o', {});
    await api.put('/v1/projects/o/p', {});
  });
  after(() => server.stop(true));
  /** The project's default base, which a path's id is resolved against. */
  const BASE = () => `${server.url}/v1/resources/o/p/_/`;

  it('serves its route and maps its rejection to its status', async () => {
    const created = await api.put('/v1/toys/o/p/teddy', { name: 'woolly bear' });
    expect(created.status, created.text).to.equal(201);
    // The path's id resolved at the edge, as every kind's: against the project's base.
    expect((await api.get('/v1/toys/o/p/teddy')).body).to.deep.include({ '@id': `${BASE()}teddy`, name: 'woolly bear' });
    const again = await api.put('/v1/toys/o/p/teddy', { name: 'other' });
    expect(again.status).to.equal(409);
    expect(again.body['@type']).to.equal('ToyAlreadyExists');
  });

  it('lists its items through the catalogue, finds them by their search document, fetches them in a multi-fetch', async () => {
    await api.put('/v1/toys/o/p/kite', { name: 'paper kite' });
    expect((await api.get('/v1/toys/o/p')).body).to.deep.include({ _total: 2 });
    expect((await api.get('/v1/toys/o/p?q=kite')).body._results).to.deep.equal([`${BASE()}kite`]);
    const fetched = await api.post('/v1/multi-fetch/resources', { format: 'source', resources: [{ id: 'kite', project: 'o/p' }] });
    expect(fetched.status, fetched.text).to.equal(200);
    expect(fetched.body.resources[0]).to.deep.include({ value: { name: 'paper kite' } });
  });

  it('streams its events on /v1/toys/events, and documents its routes in OpenAPI', async () => {
    const stream = await fetch(`${server.url}/v1/toys/events`, { headers: { accept: 'text/event-stream' } });
    expect(stream.status).to.equal(200);
    const reader = stream.body!.getReader();
    let text = '';
    while (!text.includes('ToyCreated')) text += new TextDecoder().decode((await reader.read()).value);
    await reader.cancel();
    const doc = (await api.get('/v1/openapi.json')).body as { paths: Record<string, Record<string, { summary: string }>> };
    expect(Object.values(doc.paths).flatMap((ops) => Object.values(ops).map((op) => op.summary))).to.include.members(['Create a toy', 'List toys']);
  });
});
