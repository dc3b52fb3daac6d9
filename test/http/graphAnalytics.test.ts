import { expect } from 'chai';
import { serveOnStore } from '../support/serveOnStore.js';
import type { client } from '../support/client.js';
import { enc } from '../support/client.js';

const S = 'http://schema.org/';
const EX = 'http://example.com/';
const ctx = { '@vocab': S, ex: EX };
const CONTEXTS = 'https://bluebrain.github.io/nexus/contexts/';

const person = (id: string, extra: Record<string, unknown> = {}) => ({
  '@context': ctx,
  '@id': `ex:${id}`,
  '@type': 'Person',
  givenName: id,
  address: { street: `${id} street`, zipcode: 1000 },
  ...extra,
});

// Delta's graph-analytics API (graph-analytics-api.md), over the embedded store and over an external one (Virtuoso).
for (const external of [false, true])
  describe(`graph analytics${external ? ', external store (Virtuoso)' : ''}`, function () {
    this.timeout(120_000);
    let api: ReturnType<typeof client>;
    serveOnStore(external, (_s, a) => (api = a));
    const P = 'ga/people';
    const put = async (id: string, body: unknown, rev?: number) => {
      const res = await api.put(`/v1/resources/${P}/_/${enc(`${EX}${id}`)}${rev ? `?rev=${rev}` : ''}`, body);
      expect(res.status, res.text).to.equal(rev ? 200 : 201);
    };

    before(async () => {
      expect((await api.put('/v1/orgs/ga', {})).status).to.equal(201);
      for (const p of ['people', 'other'])
        expect((await api.put(`/v1/projects/ga/${p}`, { apiMappings: [{ prefix: 'schema', namespace: S }] })).status).to.equal(201);
      await put('anna', person('anna', { brother: { '@id': 'ex:robert' }, worksFor: { '@id': 'ex:acme' } }));
      await put('robert', person('robert', { brother: { '@id': 'ex:anna' }, studies: [{ name: 'maths' }, { name: 'physics', credits: 6 }] }));
      await put('carl', person('carl', { knows: { '@id': 'ex:nowhere' }, member: { role: 'chair', of: { '@id': 'ex:acme' } } }));
      await put('acme', { '@context': ctx, '@id': 'ex:acme', '@type': ['Organization', 'Corporation'], name: 'Acme', founded: true });
      // Not current: a deprecated resource and an earlier revision, and another project's resource.
      await put('gone', { '@context': ctx, '@id': 'ex:gone', '@type': 'Ghost', name: 'gone' });
      expect((await api.delete(`/v1/resources/${P}/_/${enc(`${EX}gone`)}?rev=1`)).status).to.equal(200);
      await put('dan', { '@context': ctx, '@id': 'ex:dan', '@type': 'Robot', name: 'dan' });
      await put('dan', person('dan'), 1);
      const other = await api.put(`/v1/resources/ga/other/_/${enc(`${EX}eve`)}`, { '@context': ctx, '@id': 'ex:eve', '@type': 'Alien', name: 'eve' });
      expect(other.status).to.equal(201);
    });

    it("relationships: the types of the project's current resources as nodes, the properties linking them as edges, with counts, in Delta's shape", async () => {
      const res = await api.get(`/v1/graph-analytics/${P}/relationships`);
      expect(res.status, res.text).to.equal(200);
      expect(res.body['@context']).to.equal(`${CONTEXTS}relationships.json`);
      const nodes = res.body._nodes as { '@id': string; _name: string; _count: number }[];
      expect(nodes.filter((n) => n['@id'].startsWith(S))).to.deep.equal([
        { '@id': `${S}Person`, _name: 'Person', _count: 4 },
        { '@id': `${S}Corporation`, _name: 'Corporation', _count: 1 },
        { '@id': `${S}Organization`, _name: 'Organization', _count: 1 },
      ]);
      expect(nodes.map((n) => n._name)).to.not.include.members(['Ghost', 'Robot', 'Alien']);
      expect(res.body._edges).to.deep.equal([
        { _source: `${S}Person`, _target: `${S}Person`, _count: 2, _path: [{ '@id': `${S}brother`, _name: 'brother' }] },
        {
          _source: `${S}Person`,
          _target: `${S}Corporation`,
          _count: 1,
          _path: [
            { '@id': `${S}member`, _name: 'member' },
            { '@id': `${S}of`, _name: 'of' },
          ],
        },
        { _source: `${S}Person`, _target: `${S}Corporation`, _count: 1, _path: [{ '@id': `${S}worksFor`, _name: 'worksFor' }] },
        {
          _source: `${S}Person`,
          _target: `${S}Organization`,
          _count: 1,
          _path: [
            { '@id': `${S}member`, _name: 'member' },
            { '@id': `${S}of`, _name: 'of' },
          ],
        },
        { _source: `${S}Person`, _target: `${S}Organization`, _count: 1, _path: [{ '@id': `${S}worksFor`, _name: 'worksFor' }] },
      ]);
    });

    it('follows the current graphs: an update, a deprecation', async () => {
      await put('acme', { '@context': ctx, '@id': 'ex:acme', '@type': 'Person', name: 'Acme' }, 1);
      const res = await api.get(`/v1/graph-analytics/${P}/relationships`);
      const nodes = res.body._nodes as { '@id': string; _count: number }[];
      expect(nodes.find((n) => n['@id'] === `${S}Person`)?._count).to.equal(5);
      expect(nodes.find((n) => n['@id'] === `${S}Organization`)).to.equal(undefined);
      expect((res.body._edges as { _target: string }[]).every((e) => e._target === `${S}Person`)).to.equal(true);
      expect((await api.delete(`/v1/resources/${P}/_/${enc(`${EX}acme`)}?rev=2`)).status).to.equal(200);
      const after = await api.get(`/v1/graph-analytics/${P}/relationships`);
      expect((after.body._nodes as { '@id': string; _count: number }[]).find((n) => n['@id'] === `${S}Person`)?._count).to.equal(4);
    });

    it('properties of a type: its property paths, nested, with counts and the data types of their values', async () => {
      for (const type of [enc(`${S}Person`), 'schema:Person']) {
        const res = await api.get(`/v1/graph-analytics/${P}/properties/${type}`);
        expect(res.status, res.text).to.equal(200);
        expect(res.body).to.deep.equal({
          '@context': `${CONTEXTS}properties.json`,
          '@id': `${S}Person`,
          _name: 'Person',
          _count: 4,
          _properties: [
            {
              '@id': `${S}address`,
              _name: 'address',
              _count: 4,
              _dataTypes: ['object'],
              _properties: [
                { '@id': `${S}street`, _name: 'street', _count: 4, _dataTypes: ['string'] },
                { '@id': `${S}zipcode`, _name: 'zipcode', _count: 4, _dataTypes: ['number'] },
              ],
            },
            { '@id': `${S}givenName`, _name: 'givenName', _count: 4, _dataTypes: ['string'] },
            { '@id': `${S}brother`, _name: 'brother', _count: 2, _dataTypes: ['object'] },
            { '@id': `${S}knows`, _name: 'knows', _count: 1, _dataTypes: ['object'] },
            {
              '@id': `${S}member`,
              _name: 'member',
              _count: 1,
              _dataTypes: ['object'],
              _properties: [
                { '@id': `${S}of`, _name: 'of', _count: 1, _dataTypes: ['object'] },
                { '@id': `${S}role`, _name: 'role', _count: 1, _dataTypes: ['string'] },
              ],
            },
            {
              '@id': `${S}studies`,
              _name: 'studies',
              _count: 1,
              _dataTypes: ['object'],
              _properties: [
                { '@id': `${S}credits`, _name: 'credits', _count: 1, _dataTypes: ['number'] },
                { '@id': `${S}name`, _name: 'name', _count: 1, _dataTypes: ['string'] },
              ],
            },
            { '@id': `${S}worksFor`, _name: 'worksFor', _count: 1, _dataTypes: ['object'] },
          ],
        });
      }
      const none = await api.get(`/v1/graph-analytics/${P}/properties/${enc(`${S}Unicorn`)}`);
      expect(none.body).to.deep.include({ '@id': `${S}Unicorn`, _name: 'Unicorn', _count: 0 });
      expect(none.body._properties).to.equal(undefined);
    });

    it('progress: the events and resources of the project the analytics were computed from', async () => {
      const res = await api.get(`/v1/graph-analytics/${P}/progress`);
      expect(res.status, res.text).to.equal(200);
      expect(res.body['@context']).to.equal(`${CONTEXTS}statistics.json`);
      const { eventsCount, resourcesCount } = res.body as { eventsCount: number; resourcesCount: number };
      expect(eventsCount).to.be.greaterThan(resourcesCount);
      await put('fred', person('fred'));
      await put('fred', person('fred', { givenName: 'Fred' }), 1);
      const fred = await api.get(`/v1/resources/${P}/_/${enc(`${EX}fred`)}`);
      const after = await api.get(`/v1/graph-analytics/${P}/progress`);
      expect(after.body).to.deep.include({
        eventsCount: eventsCount + 2,
        resourcesCount: resourcesCount + 1,
        lastProcessedEventDateTime: fred.body._updatedAt,
      });
      // Another project's events are not counted.
      expect((await api.put(`/v1/resources/ga/other/_/${enc(`${EX}zed`)}`, { '@context': ctx, name: 'zed' })).status).to.equal(201);
      expect((await api.get(`/v1/graph-analytics/${P}/progress`)).body).to.deep.equal(after.body);
    });

    it('refuses a type that is no IRI (400 InvalidPropertyType) and an unknown project (404)', async () => {
      const bad = await api.get(`/v1/graph-analytics/${P}/properties/${enc('<not an iri>')}`);
      expect([bad.status, bad.body['@type']], bad.text).to.deep.equal([400, 'InvalidPropertyType']);
      for (const path of ['relationships', 'progress', `properties/${enc(`${S}Person`)}`]) {
        const missing = await api.get(`/v1/graph-analytics/ga/nothing/${path}`);
        expect([missing.status, missing.body['@type']], path).to.deep.equal([404, 'ProjectNotFound']);
      }
    });
  });
