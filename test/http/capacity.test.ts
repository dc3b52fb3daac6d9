import { expect } from 'chai';
import { startServer } from '../support/server.js';
import type { TestServer } from '../support/server.js';
import { client } from '../support/client.js';

describe('store capacity', () => {
  let server: TestServer;
  let api: ReturnType<typeof client>;
  before(async () => {
    server = await startServer({ maxStoreQuads: 1_000 });
    api = client(server.url);
    await api.put('/v1/orgs/cap', {});
    await api.put('/v1/projects/cap/p', {});
  });
  after(() => server.stop(true));

  it('refuses writes with 507 StoreCapacityReached before the store is full, and changes nothing', async () => {
    const payload = (i: number) => {
      const doc: Record<string, unknown> = { '@context': { '@vocab': 'http://schema.org/' }, '@type': 'Thing' };
      for (let p = 0; p < 40; p++) doc[`p${p}`] = `value ${p} of ${i}`;
      return doc;
    };
    let refused: Awaited<ReturnType<typeof api.put>> | undefined;
    let created = 0;
    for (let i = 0; i < 100 && !refused; i++) {
      const res = await api.put(`/v1/resources/cap/p/_/r${i}`, payload(i));
      if (res.status === 201) created++;
      else refused = res;
    }
    expect(refused?.status).to.equal(507);
    expect(refused?.body['@type']).to.equal('StoreCapacityReached');
    expect(created).to.be.greaterThan(0);
    const listing = await api.get('/v1/resources/cap/p');
    expect(listing.body['_total']).to.equal(created);
    // Reads go on.
    expect((await api.get('/v1/resources/cap/p/_/r0')).status).to.equal(200);
  });
});
