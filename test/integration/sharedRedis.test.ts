import { expect } from 'chai';
import { client } from '../support/client.js';
import type { Reply } from '../support/client.js';
import { dropPrefix, REDIS_URL, uniquePrefix } from '../support/redis.js';
import { startServer } from '../support/server.js';
import type { TestServer } from '../support/server.js';
import { openStream } from '../support/sse.js';

/** Polls until `check` holds for a reply, failing after a deadline (visibility is eventual across processes, but bounded). */
const eventually = async (what: string, probe: () => Promise<Reply>, check: (r: Reply) => boolean, deadlineMillis = 5_000): Promise<Reply> => {
  const deadline = Date.now() + deadlineMillis;
  for (;;) {
    const reply = await probe();
    if (check(reply)) return reply;
    if (Date.now() > deadline) throw new Error(`not visible in time: ${what} (last status ${reply.status})`);
    await new Promise((r) => setTimeout(r, 20));
  }
};

describe('two registries sharing one Redis event log', () => {
  const prefix = uniquePrefix('shared');
  let a: TestServer;
  let b: TestServer;
  let apiA: ReturnType<typeof client>;
  let apiB: ReturnType<typeof client>;

  before(async () => {
    a = await startServer({ redisUrl: REDIS_URL, redisPrefix: prefix });
    b = await startServer({ redisUrl: REDIS_URL, redisPrefix: prefix });
    apiA = client(a.url);
    apiB = client(b.url);
    expect((await apiA.get('/v1/version')).body.dependencies.eventLog).to.equal('redis');
    // The project every test writes in: made through A, seen by B.
    expect((await apiA.put('/v1/orgs/shared', {})).status).to.equal(201);
    expect((await apiA.put('/v1/projects/shared/p', {})).status).to.equal(201);
    await eventually(
      'project on B',
      () => apiB.get('/v1/projects/shared/p'),
      (r) => r.status === 200,
    );
  });
  after(async () => {
    await a.stop(true);
    await b.stop(true);
    await dropPrefix(prefix);
  });

  it('makes a write through one readable through the other (fetch and listing)', async () => {
    expect((await apiB.put('/v1/projects/shared/p', {})).status).to.equal(409);

    const created = await apiA.put('/v1/resources/shared/p/_/one', { '@type': 'http://schema.org/Thing', name: 'one' });
    expect(created.status).to.equal(201);
    // Each process reads its own writes at once.
    expect((await apiA.get('/v1/resources/shared/p/_/one')).status).to.equal(200);
    const fetched = await eventually(
      'resource on B',
      () => apiB.get('/v1/resources/shared/p/_/one'),
      (r) => r.status === 200,
    );
    expect(fetched.body).to.include({ name: 'one', _rev: 1 });
    const listed = await eventually(
      'listing on B',
      () => apiB.get('/v1/resources/shared/p'),
      (r) => r.status === 200 && r.body._total >= 1,
    );
    expect(listed.body._results.map((r: { '@id': string }) => r['@id'])).to.include(created.body['@id']);
  });

  it('keeps optimistic concurrency exact across both processes', async () => {
    const path = '/v1/resources/shared/p/_/contended';
    expect((await apiB.put(path, { n: 0 })).status).to.equal(201);
    await eventually(
      'contended on A',
      () => apiA.get(path),
      (r) => r.status === 200,
    );
    const replies = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? apiA : apiB).put(`${path}?rev=1`, { n: i + 1 })));
    const statuses = replies.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).to.have.length(1);
    expect(statuses.filter((s) => s === 409)).to.have.length(19);
    expect(replies.filter((r) => r.status === 409).every((r) => r.body['@type'] === 'IncorrectRev')).to.equal(true);
    const winner = replies.find((r) => r.status === 200)!;
    for (const api of [apiA, apiB])
      await eventually(
        'the winning revision',
        () => api.get(path),
        (r) => r.body?._rev === 2,
      );
    expect(winner.body._rev).to.equal(2);
  });

  it('streams through one process the events written through the other, with the same ids', async () => {
    expect((await apiB.put('/v1/resources/shared/p/_/streamed', { n: 1 })).status).to.equal(201);
    const onA = await openStream(`${a.url}/v1/resources/shared/p/events`);
    const onB = await openStream(`${b.url}/v1/resources/shared/p/events`);
    const replayA = await onA.until((e) => e.payload._resourceId.endsWith('/streamed'));
    const replayB = await onB.until((e) => e.payload._resourceId.endsWith('/streamed'));
    expect(replayB.map((e) => e.id)).to.deep.equal(replayA.map((e) => e.id));
    expect((await apiA.put('/v1/resources/shared/p/_/live', { live: true })).status).to.equal(201);
    const [live] = await onB.take(1);
    onA.close();
    onB.close();
    expect(live!.payload).to.include({ '@type': 'ResourceCreated', _project: 'shared/p' });
    expect(live!.payload._resourceId).to.match(/\/live$/);
  });

  it('lets a new process with an empty data directory catch up from the shared log', async () => {
    expect((await apiA.put('/v1/resources/shared/p/_/caught', { n: 1 })).status).to.equal(201);
    expect((await apiA.put('/v1/resources/shared/p/_/caught?rev=1', { n: 2 })).status).to.equal(200);
    const c = await startServer({ redisUrl: REDIS_URL, redisPrefix: prefix });
    try {
      const fetched = await client(c.url).get('/v1/resources/shared/p/_/caught');
      expect(fetched.body._rev).to.equal(2);
    } finally {
      await c.stop(true);
    }
  });
});
