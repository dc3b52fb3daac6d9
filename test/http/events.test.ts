import { expect } from 'chai';
import { client, enc } from '../support/client.js';
import { dropPrefix, REDIS_URL, uniquePrefix } from '../support/redis.js';
import { startServer } from '../support/server.js';
import type { TestServer } from '../support/server.js';
import type { SseEvent } from '../support/sse.js';
import { openStream } from '../support/sse.js';

const THING = 'http://schema.org/Thing';
const METADATA = 'https://bluebrain.github.io/nexus/contexts/metadata.json';
const UNCONSTRAINED = 'https://bluebrain.github.io/nexus/schemas/unconstrained.json';

const logs = [
  { name: 'journal', config: () => ({}) },
  { name: 'redis', config: () => ({ redisUrl: REDIS_URL, redisPrefix: uniquePrefix('sse') }) },
];

for (const log of logs)
  describe(`event streams (SSE) on the ${log.name} log`, () => {
    let server: TestServer;
    let api: ReturnType<typeof client>;
    let uuids: { project: string; org: string };
    let config: { redisPrefix?: string };

    const stream = (path: string, headers: Record<string, string> = {}) => openStream(`${server.url}${path}`, headers);
    const ids = (events: SseEvent[]) => events.map((e) => Number(e.id));
    const lastId = async (): Promise<number> => {
      const s = await stream('/v1/events');
      // The version route answers once projections caught up; the global stream's newest id is the log end.
      const all: SseEvent[] = [];
      for (;;) {
        const next = await Promise.race([s.take(1, 2_000).then((e) => e[0]), new Promise<undefined>((r) => setTimeout(r, 150))]);
        if (!next) break;
        all.push(next);
      }
      s.close();
      return Number(all[all.length - 1]?.id ?? 0);
    };

    before(async () => {
      config = log.config();
      server = await startServer({ ...config, sseKeepAliveMillis: 40 });
      api = client(server.url);
      await api.put('/v1/orgs/ev', {});
      await api.put('/v1/orgs/other', {});
      const project = await api.put('/v1/projects/ev/p1', {});
      await api.put('/v1/projects/ev/p2', {});
      await api.put('/v1/projects/other/p1', {});
      const fetched = await api.get('/v1/projects/ev/p1');
      uuids = { project: fetched.body['_uuid'], org: fetched.body['_organizationUuid'] };
      expect(project.status).to.equal(201);
      expect(uuids.project).to.be.a('string');
    });
    after(async () => {
      await server.stop(true);
      if (config.redisPrefix) await dropPrefix(config.redisPrefix);
    });

    it('answers HEAD /v1/events with 200 and no stream', async () => {
      const head = await api.head('/v1/events');
      expect(head.status).to.equal(200);
      expect(head.text).to.equal('');
      expect((await api.head('/v1/resources/events')).status).to.equal(200);
      expect((await api.head('/v1/resources/ev/p1/events')).status).to.equal(200);
    });

    it('streams resource events with the fields of spec §6, event type and increasing ids', async () => {
      const id = 'http://example.com/ev/one';
      const created = await api.put(`/v1/resources/ev/p1/_/${enc(id)}`, { '@type': THING, name: 'one' });
      expect(created.status).to.equal(201);
      expect((await api.put(`/v1/resources/ev/p1/_/${enc(id)}?rev=1`, { '@type': THING, name: 'two' })).status).to.equal(200);
      expect((await api.post(`/v1/resources/ev/p1/_/${enc(id)}/tags?rev=2`, { tag: 'v1', rev: 1 })).status).to.equal(201);
      expect((await api.delete(`/v1/resources/ev/p1/_/${enc(id)}?rev=3`)).status).to.equal(200);

      const s = await stream('/v1/resources/ev/p1/events', { 'content-type': 'application/json' });
      expect(s.status).to.equal(200);
      expect(s.headers.get('content-type')).to.match(/^text\/event-stream/);
      // Other tests may write to ev/p1 too: this one's events are those of its resource.
      const events = (await s.until((e) => e.event === 'ResourceDeprecated' && e.payload._resourceId === id)).filter((e) => e.payload._resourceId === id);
      s.close();
      expect(events.map((e) => e.event)).to.deep.equal(['ResourceCreated', 'ResourceUpdated', 'ResourceTagAdded', 'ResourceDeprecated']);
      expect(events.every((e) => e.payload['@type'] === e.event)).to.equal(true);
      const numbers = ids(events);
      expect(numbers).to.deep.equal([...numbers].sort((a, b) => a - b));
      const [c, u, t, d] = events.map((e) => e.payload);
      expect(c).to.deep.equal({
        '@context': METADATA,
        '@type': 'ResourceCreated',
        _resourceId: id,
        _source: { '@type': THING, name: 'one' },
        _types: [THING],
        _constrainedBy: UNCONSTRAINED,
        _project: 'ev/p1',
        _schemaProject: 'ev/p1',
        _instant: c._instant,
        _projectUuid: uuids.project,
        _organizationUuid: uuids.org,
        _rev: 1,
        _subject: `${server.url}/v1/anonymous`,
      });
      expect(c._instant).to.match(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      expect(u).to.include({ _rev: 2, _constrainedBy: UNCONSTRAINED });
      expect(u._source).to.deep.equal({ '@type': THING, name: 'two' });
      expect(t).to.include({ tag: 'v1', targetRev: 1, _rev: 3 });
      expect(t).to.not.have.property('_constrainedBy');
      expect(t).to.not.have.property('_source');
      expect(d).to.include({ _rev: 4, _constrainedBy: UNCONSTRAINED, _projectUuid: uuids.project });
      expect(d).to.not.have.property('_source');
      for (const e of events) expect(e.data).to.not.include('expanded');
    });

    it('carries every kind on the global stream and only its kind and scope elsewhere', async () => {
      await api.put('/v1/resources/ev/p1/_/scoped', { n: 1 });
      await api.put('/v1/resources/ev/p2/_/scoped', { n: 2 });
      await api.put('/v1/resources/other/p1/_/scoped', { n: 3 });
      const end = await lastId();

      const global = await stream('/v1/events');
      const all = await global.until((e) => Number(e.id) === end);
      global.close();
      // Each project's default storage is created right after it (StorageCreated).
      const withoutStorages = all.filter(
        (e) =>
          !e.event.startsWith('Storage') &&
          !e.event.startsWith('Resolver') &&
          !e.event.startsWith('ElasticSearchView') &&
          !e.event.startsWith('BlazegraphView'),
      );
      // The three projects of before (another test adds ev/events: each test passes in any order).
      const ofBefore = all.filter((e) => ['ev/p1', 'ev/p2', 'other/p1'].includes(e.payload._project));
      expect(ofBefore.filter((e) => e.event === 'StorageCreated')).to.have.length(3);
      // And its default resolver (ResolverCreated, Delta's `nxv:defaultInProject`).
      expect(ofBefore.filter((e) => e.event === 'ResolverCreated')).to.have.length(3);
      // And its default views (Delta's `nxv:defaultElasticSearchIndex`, `nxv:defaultSparqlIndex`).
      expect(ofBefore.filter((e) => e.event === 'ElasticSearchViewCreated' || e.event === 'BlazegraphViewCreated')).to.have.length(6);
      expect(withoutStorages.slice(0, 5).map((e) => e.event)).to.deep.equal([
        'OrganizationCreated',
        'OrganizationCreated',
        'ProjectCreated',
        'ProjectCreated',
        'ProjectCreated',
      ]);
      expect(all[0]!.payload).to.include({ '@type': 'OrganizationCreated', _label: 'ev', _rev: 1 });
      expect(withoutStorages[2]!.payload).to.include({ _label: 'p1', _organizationLabel: 'ev', _uuid: uuids.project, _organizationUuid: uuids.org });
      // From 1, in order, to the log's end; not one by one: the pruning test removes its resource's events.
      const numbers = ids(all);
      expect(numbers[0]).to.equal(1);
      expect(numbers.every((n, i) => i === 0 || n > numbers[i - 1]!)).to.equal(true);
      expect(numbers.at(-1)).to.equal(end);

      const resources = await stream('/v1/resources/events');
      const kind = await resources.until((e) => Number(e.id) === end);
      resources.close();
      expect(kind.every((e) => e.event.startsWith('Resource'))).to.equal(true);
      expect(kind.map((e) => e.id)).to.deep.equal(all.filter((e) => e.event.startsWith('Resource')).map((e) => e.id));

      const org = await stream('/v1/resources/ev/events');
      const inOrg = await org.until((e) => e.payload._resourceId === `${server.url}/v1/resources/ev/p2/_/scoped`);
      org.close();
      expect(inOrg.every((e) => e.payload._project.startsWith('ev/'))).to.equal(true);
      expect(inOrg.map((e) => e.payload._project)).to.include('ev/p1');

      const project = await stream('/v1/resources/other/p1/events');
      const [only] = await project.take(1);
      project.close();
      expect(only!.payload).to.include({ _project: 'other/p1', _resourceId: `${server.url}/v1/resources/other/p1/_/scoped` });

      const schemas = await stream('/v1/schemas/events');
      const storages = await stream('/v1/storages/ev/p1/events');
      expect([schemas.status, storages.status]).to.deep.equal([200, 200]);
      schemas.close();
      storages.close();
    });

    it('resumes after a Last-Event-Id taken from another scope, and refuses a malformed one', async () => {
      // Its own resource: the test resumes after its events, whatever ran before it.
      const id = 'http://example.com/ev/resumed';
      expect((await api.put(`/v1/resources/ev/p2/_/${enc(id)}`, { '@type': THING, name: 'r' })).status).to.equal(201);
      expect((await api.post(`/v1/resources/ev/p2/_/${enc(id)}/tags?rev=1`, { tag: 'v1', rev: 1 })).status).to.equal(201);
      expect((await api.delete(`/v1/resources/ev/p2/_/${enc(id)}?rev=2`)).status).to.equal(200);
      const global = await stream('/v1/events');
      const all = await global.until((e) => e.event === 'ResourceDeprecated' && e.payload._resourceId === id);
      global.close();
      const resumeAt = all.find((e) => e.event === 'ResourceTagAdded' && e.payload._resourceId === id)!;
      const resumed = await stream('/v1/resources/ev/events', { 'Last-Event-Id': resumeAt.id });
      const [next] = await resumed.take(1);
      resumed.close();
      expect(next!.event).to.equal('ResourceDeprecated');
      expect(Number(next!.id)).to.equal(Number(resumeAt.id) + 1);

      for (const bad of ['abc', '-1', '1.5', '12abc']) {
        const refused = await stream('/v1/events', { 'Last-Event-Id': bad });
        expect(refused.status, bad).to.equal(400);
        expect(refused.error).to.include({ '@type': 'MalformedHeaderRejection' });
      }
    });

    it('follows live writes after the replay with no gap and no duplicate at the seam', async () => {
      const start = await lastId();
      const writes = (from: number) => Promise.all(Array.from({ length: 10 }, (_, i) => api.put(`/v1/resources/ev/p1/_/seam-${from + i}`, { i: from + i })));
      await writes(0);
      // Open the stream while more writes are in flight: some land in the replay, some are live.
      const opening = stream('/v1/resources/ev/p1/events', { 'Last-Event-Id': String(start) });
      const [s] = await Promise.all([opening, writes(10)]);
      await writes(20);
      const seam: string[] = [];
      const events = await s.until((e) => {
        if (/\/seam-\d+$/.test(String(e.payload._resourceId))) seam.push(e.payload._resourceId);
        return new Set(seam).size === 30;
      });
      s.close();
      const numbers = ids(events);
      expect(
        numbers.every((n, i) => i === 0 || n > numbers[i - 1]!),
        'strictly increasing ids',
      ).to.equal(true);
      expect(seam).to.have.length(30);
      expect(numbers[0]).to.be.greaterThan(start);
    });

    it('answers 404 for an unknown organization or project', async () => {
      const org = await stream('/v1/resources/nope/events');
      expect(org.status).to.equal(404);
      expect(org.error).to.include({ '@type': 'OrganizationNotFound' });
      const project = await stream('/v1/schemas/ev/nope/events');
      expect(project.status).to.equal(404);
      expect(project.error).to.include({ '@type': 'ProjectNotFound' });
    });

    it('reads an access_token query parameter (never a bad token as anonymous) and sends keep-alive comments', async () => {
      const bad = await stream('/v1/events?access_token=abc');
      expect(bad.status).to.equal(401);
      expect(bad.error).to.include({ '@type': 'InvalidAccessTokenFormat' });
      const s = await stream('/v1/events', { 'Last-Event-Id': '999999' });
      expect(s.status).to.equal(200);
      const deadline = Date.now() + 5_000;
      while (s.comments < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      s.close();
      expect(s.comments).to.be.at.least(2);
    });

    it('leaves other methods on item paths named `events` to the item routes', async () => {
      expect((await api.put('/v1/projects/ev/events', {})).status).to.equal(201);
      const created = await api.post('/v1/resources/ev/events', { name: 'in a project named events' });
      expect(created.status).to.equal(201);
      expect(created.body['_project']).to.equal('ev/events');
    });

    it('streams schema events on the schema streams only, with _schemaId', async () => {
      const shapes = [
        { '@id': 'http://example.com/S', '@type': 'sh:NodeShape', targetClass: 'http://example.com/T', nodeKind: 'sh:BlankNodeOrIRI', property: [] },
      ];
      expect((await api.put('/v1/schemas/ev/p2/evschema', { shapes })).status).to.equal(201);
      expect((await api.delete('/v1/schemas/ev/p2/evschema?rev=1')).status).to.equal(200);
      const s = await stream('/v1/schemas/ev/p2/events');
      const events = await s.take(2);
      s.close();
      expect(events.map((e) => e.event)).to.deep.equal(['SchemaCreated', 'SchemaDeprecated']);
      const [created, deprecated] = events.map((e) => e.payload);
      expect(created._schemaId).to.equal(created._resourceId);
      expect(created).to.include({ _constrainedBy: 'https://bluebrain.github.io/nexus/schemas/shacl-20170720.ttl', _project: 'ev/p2', _rev: 1 });
      expect(created._source).to.deep.equal({ shapes });
      expect(deprecated).to.include({ _rev: 2, _projectUuid: created._projectUuid });
      expect(deprecated).to.not.have.property('_source');
    });

    it('shows only the deletion marker of a pruned resource on replay', async () => {
      await api.put('/v1/resources/ev/p2/_/doomed', { n: 1 });
      await api.put('/v1/resources/ev/p2/_/doomed?rev=1', { n: 2 });
      expect((await api.delete('/v1/resources/ev/p2/_/doomed?prune=true')).status).to.equal(204);
      const s = await stream('/v1/resources/ev/p2/events');
      const events = await s.until((e) => e.event === 'ResourceDeleted');
      s.close();
      const doomed = events.filter((e) => String(e.payload._resourceId).endsWith('/doomed'));
      expect(doomed.map((e) => e.event)).to.deep.equal(['ResourceDeleted']);
      expect(doomed[0]!.payload).to.not.have.property('_source');
    });
  });
