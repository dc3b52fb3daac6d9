import { expect } from 'chai';
import { serve } from '../support/server.js';
import type { client } from '../support/client.js';

describe('indexing=async and the projections each read waits for', () => {
  let api: ReturnType<typeof client>;
  let base = '';
  serve((s, a) => {
    api = a;
    base = s.url;
  });

  before(async () => {
    await api.put('/v1/orgs/ix', {});
    await api.put('/v1/projects/ix/p', {});
  });

  it('acknowledges an async write once appended: its revision is fetched at once, and the next listing and search include it', async () => {
    const created = await api.put('/v1/resources/ix/p/_/a1?indexing=async', { '@type': 'http://x/T', 'http://x/name': 'zebra' });
    expect(created.status).to.equal(201);
    expect((await api.get('/v1/resources/ix/p/_/a1')).body).to.include({ _rev: 1 });
    // Reads wait for the projections they read as of their arrival: no stale listing after an async write.
    const listed = await api.get('/v1/resources/ix/p?type=http://x/T');
    expect(listed.body._total).to.equal(1);
    expect((await api.get('/v1/resources/ix/p?q=zebra')).body._total).to.equal(1);
    const updated = await api.put('/v1/resources/ix/p/_/a1?rev=1&indexing=async', { '@type': 'http://x/T', 'http://x/name': 'yak' });
    expect(updated.status).to.equal(200);
    expect((await api.get('/v1/resources/ix/p?q=yak')).body._total).to.equal(1);
  });

  it("shows each projection's position and lag in /metrics", async () => {
    const text = await (await fetch(`${base}/metrics`)).text();
    for (const name of ['states', 'catalogue', 'text', 'sparql'])
      expect(text).to.match(new RegExp(`registry_projection_position\\{projection="${name}"\\} [1-9]`));
    expect(text).to.match(/registry_projection_lag\{projection="catalogue"\} 0/);
    expect(text).to.match(/registry_projection_failures\{projection="text"\} 0/);
  });
});
