import { expect } from 'chai';
import { serveOnStore } from '../support/serveOnStore.js';
import type { TestServer } from '../support/server.js';
import { client, enc } from '../support/client.js';

const LISTING_CONTEXT = [
  'https://bluebrain.github.io/nexus/contexts/metadata.json',
  'https://bluebrain.github.io/nexus/contexts/search.json',
  'https://bluebrain.github.io/nexus/contexts/search-metadata.json',
];
const UNCONSTRAINED = 'https://bluebrain.github.io/nexus/schemas/unconstrained.json';
const S = 'http://schema.org/';

let counter = 0;
const unique = (prefix: string) => `${prefix}${Date.now().toString(36)}${counter++}`;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Item {
  '@id': string;
  '@type'?: string | string[];
  _self: string;
  _rev: number;
  _deprecated: boolean;
  _createdAt: string;
  _updatedAt: string;
  _project: string;
  [k: string]: unknown;
}

/** One contract for both layouts: the embedded store's in-memory indexes and the external store's SPARQL (replicas keep no index). */
for (const external of [false, true])
  describe(`resources: listings over HTTP (${external ? 'external' : 'embedded'} store)`, function () {
    this.timeout(120_000);
    let server: TestServer;
    let api: ReturnType<typeof client>;
    const ids = (results: Item[]) => results.map((r) => r['@id']);

    const project = async (org = unique('org')) => {
      const proj = unique('proj');
      await api.put(`/v1/orgs/${org}`, {});
      expect(
        (
          await api.put(`/v1/projects/${org}/${proj}`, {
            apiMappings: [
              { prefix: 'schema', namespace: S },
              { prefix: 's', namespace: S },
            ],
          })
        ).status,
      ).to.equal(201);
      return { org, proj, p: `${org}/${proj}`, base: `${server.url}/v1/resources/${org}/${proj}/_/` };
    };

    const create = async (p: string, id: string, payload: Record<string, unknown>) => {
      const res = await api.put(`/v1/resources/${p}/_/${id}`, { '@context': { '@vocab': S }, ...payload });
      expect(res.status, res.text).to.equal(201);
      return res.body as Item;
    };

    /** Follows `_next` from the first page to the end. */
    const walk = async (first: string): Promise<{ items: Item[]; pages: number; totals: number[] }> => {
      const items: Item[] = [];
      const totals: number[] = [];
      let next: string | undefined = first;
      let pages = 0;
      while (next) {
        const res = await api.get(next.startsWith('http') ? next.slice(server.url.length) : next);
        expect(res.status, res.text).to.equal(200);
        items.push(...res.body['_results']);
        totals.push(res.body['_total']);
        next = res.body['_next'];
        if (next) expect(next).to.contain('after=');
        pages++;
        expect(pages).to.be.below(100);
      }
      return { items, pages, totals };
    };

    serveOnStore(external, (started, startedApi) => {
      server = started;
      api = startedApi;
    });

    it('lists at all four scopes with the listing shape', async () => {
      const a = await project();
      const b = await project(a.org);
      const c = await project();
      await create(a.p, 'a1', { '@type': 'Person' });
      await create(a.p, 'a2', { '@type': 'Dataset' });
      await create(b.p, 'b1', { '@type': 'Person' });
      await create(c.p, 'c1', { '@type': 'Person' });
      const projectScope = await api.get(`/v1/resources/${a.p}`);
      expect(projectScope.status).to.equal(200);
      expect(projectScope.body['@context']).to.deep.equal(LISTING_CONTEXT);
      expect(projectScope.body['_total']).to.equal(2);
      expect(projectScope.body).to.not.have.property('_next');
      for (const item of projectScope.body['_results'] as Item[]) {
        expect(item).to.not.have.property('@context');
        expect(item).to.include({ _project: a.p, _rev: 1, _deprecated: false, _constrainedBy: UNCONSTRAINED });
        expect(item._self).to.equal(`${server.url}/v1/resources/${a.p}/_/${enc(item['@id'])}`);
        for (const key of Object.keys(item)) expect(key.startsWith('_') || key.startsWith('@'), `payload field ${key} in a listing`).to.equal(true);
      }
      expect(ids(projectScope.body['_results']).sort()).to.deep.equal([`${a.base}a1`, `${a.base}a2`]);
      const orgScope = await api.get(`/v1/resources/${a.org}`);
      expect(orgScope.body['_total']).to.equal(3);
      expect(ids(orgScope.body['_results'])).to.include.members([`${a.base}a1`, `${a.base}a2`, `${b.base}b1`]);
      const all = await api.get('/v1/resources?size=1000');
      expect(ids(all.body['_results'])).to.include.members([`${a.base}a1`, `${b.base}b1`, `${c.base}c1`]);
      expect(all.body['_total']).to.be.at.least(4);
      const bySchema = await api.get(`/v1/resources/${a.p}/_`);
      expect(bySchema.body['_total']).to.equal(2);
      expect((await api.get(`/v1/resources/${a.p}/resource`)).body['_total']).to.equal(2);
      expect((await api.get(`/v1/resources/${a.p}/${enc(UNCONSTRAINED)}`)).body['_total']).to.equal(2);
      expect((await api.get(`/v1/resources/${a.p}/${enc('http://example.com/another-schema')}`)).body['_total']).to.equal(0);
      // schema filter on the other scopes
      expect((await api.get(`/v1/resources/${a.p}?schema=${enc(UNCONSTRAINED)}`)).body['_total']).to.equal(2);
      expect((await api.get(`/v1/resources/${a.org}?schema=${enc(UNCONSTRAINED)}`)).body['_total']).to.equal(3);
      expect((await api.get(`/v1/resources/${a.p}?schema=_`)).body['_total']).to.equal(2);
      expect((await api.get(`/v1/resources/${a.p}?schema=${enc('http://example.com/another-schema')}`)).body['_total']).to.equal(0);
    });

    it('pages with from and size, and walks every item with _next and after without duplicates or gaps', async () => {
      const { p } = await project();
      const created: string[] = [];
      for (let i = 0; i < 23; i++) created.push((await create(p, `item-${String(i).padStart(2, '0')}`, { n: i, name: `n${i % 5}` }))['@id']);
      const first = await api.get(`/v1/resources/${p}?size=5`);
      expect(first.body['_total']).to.equal(23);
      expect(first.body['_results']).to.have.length(5);
      expect(first.body['_next']).to.be.a('string');
      const second = await api.get(`/v1/resources/${p}?size=5&from=5`);
      expect(second.body['_results']).to.have.length(5);
      expect(ids(second.body['_results'])).to.not.include.members(ids(first.body['_results']));
      const last = await api.get(`/v1/resources/${p}?size=5&from=20`);
      expect(last.body['_results']).to.have.length(3);
      expect(last.body).to.not.have.property('_next');
      expect((await api.get(`/v1/resources/${p}?from=30`)).body['_results']).to.deep.equal([]);
      expect((await api.get(`/v1/resources/${p}?from=30`)).body['_total']).to.equal(23);
      // default size 20
      expect((await api.get(`/v1/resources/${p}`)).body['_results']).to.have.length(20);
      for (const query of [
        'size=5',
        'size=4&sort=name',
        'size=3&sort=-name&sort=-n',
        'size=7&sort=-_createdAt',
        'size=1&sort=n',
        'size=6&sort=_rev&sort=-@id',
      ]) {
        const { items, totals } = await walk(`/v1/resources/${p}?${query}`);
        expect(items.map((i) => i['@id']).sort(), query).to.deep.equal([...created].sort());
        expect(new Set(items.map((i) => i['@id'])).size, query).to.equal(23);
        expect(
          totals.every((t) => t === 23),
          query,
        ).to.equal(true);
      }
      // the cursor pages of from/size agree with the offset pages
      const { items } = await walk(`/v1/resources/${p}?size=5`);
      const offsets: Item[] = [];
      for (let from = 0; from < 23; from += 5) offsets.push(...(await api.get(`/v1/resources/${p}?size=5&from=${from}`)).body['_results']);
      expect(ids(items)).to.deep.equal(ids(offsets));
      // _next keeps the other parameters
      const filtered = await api.get(`/v1/resources/${p}?size=2&sort=-n&type=${enc('http://nothing')}`);
      expect(filtered.body['_total']).to.equal(0);
      const next = (await api.get(`/v1/resources/${p}?size=2&sort=-n`)).body['_next'] as string;
      expect(next).to.contain('sort=-n');
      expect(next).to.contain('size=2');
      expect(next).to.not.contain('from=');
    });

    it('sorts by metadata and payload fields, descending and repeated', async () => {
      const { p, base } = await project();
      await create(p, 'c', { name: 'bravo', age: 30 });
      await sleep(5);
      await create(p, 'a', { name: 'charlie', age: 10 });
      await sleep(5);
      await create(p, 'b', { name: 'alpha', age: 20 });
      await sleep(5);
      await create(p, 'd', { name: 'alpha', age: 5 });
      await api.put(`/v1/resources/${p}/_/a?rev=1`, { '@context': { '@vocab': S }, name: 'charlie', age: 11 });
      const order = async (q: string) => ids((await api.get(`/v1/resources/${p}?${q}`)).body['_results']).map((id) => id.slice(base.length));
      expect(await order('sort=@id')).to.deep.equal(['a', 'b', 'c', 'd']);
      expect(await order('sort=-@id')).to.deep.equal(['d', 'c', 'b', 'a']);
      expect(await order('sort=_createdAt')).to.deep.equal(['c', 'a', 'b', 'd']);
      expect(await order('sort=-_createdAt')).to.deep.equal(['d', 'b', 'a', 'c']);
      expect(await order('sort=-_updatedAt')).to.deep.equal(['a', 'd', 'b', 'c']);
      expect((await order('sort=-_rev&sort=@id'))[0]).to.equal('a');
      expect(await order(`sort=${enc(`${S}name`)}&sort=@id`)).to.deep.equal(['b', 'd', 'c', 'a']);
      expect(await order(`sort=${enc(`${S}name`)}&sort=-@id`)).to.deep.equal(['d', 'b', 'c', 'a']);
      expect(await order(`sort=-${enc(`${S}name`)}&sort=@id`)).to.deep.equal(['a', 'c', 'b', 'd']);
      expect(await order('sort=schema:name&sort=s:age')).to.deep.equal(['d', 'b', 'c', 'a']);
      expect(await order(`sort=${enc(`${S}age`)}`)).to.deep.equal(['d', 'a', 'b', 'c']);
      expect(await order(`sort=-${enc(`${S}age`)}`)).to.deep.equal(['c', 'b', 'a', 'd']);
    });

    it('walks a payload sort over tagged strings with _next: equal texts by tag, the plain one first, each once', async () => {
      const { p, base } = await project();
      const names: [string, unknown][] = [
        ['fr', { '@value': 'Chat', '@language': 'fr' }],
        ['plain', 'Chat'],
        ['en', { '@value': 'Chat', '@language': 'en' }],
        ['en-gb', { '@value': 'Chat', '@language': 'en-GB' }],
        ['fr2', { '@value': 'Chat', '@language': 'FR' }],
        ['cha', { '@value': 'Cha', '@language': 'fr' }],
        ['lower', { '@value': 'chat', '@language': 'de' }],
      ];
      for (const [id, name] of names) await create(p, id, { name });
      const short = (items: Item[]) => items.map((i) => i['@id'].slice(base.length));
      for (const sort of ['name', '-name']) {
        const whole = short((await api.get(`/v1/resources/${p}?size=100&sort=${sort}`)).body['_results']);
        if (sort === 'name') expect(whole.slice(0, 5)).to.deep.equal(['cha', 'plain', 'en', 'en-gb', 'fr']);
        for (const size of [1, 2, 3]) {
          const { items } = await walk(`/v1/resources/${p}?size=${size}&sort=${sort}`);
          expect(short(items), `sort=${sort}&size=${size}`).to.deep.equal(whole);
        }
      }
    });

    it('keeps a payload sort right after updates, deprecations and new resources', async () => {
      const { p, base } = await project();
      await create(p, 'a', { name: 'delta' });
      await create(p, 'b', { name: 'bravo' });
      await create(p, 'c', { name: 'charlie' });
      await create(p, 'd', { other: 1 });
      const byName = enc(`${S}name`);
      const order = async (q: string) => ids((await api.get(`/v1/resources/${p}?${q}`)).body['_results']).map((id) => id.slice(base.length));
      // A resource without the field sorts last in both directions (as the search engine sorts missing values).
      expect(await order(`sort=${byName}`)).to.deep.equal(['b', 'c', 'a', 'd']);
      expect((await api.put(`/v1/resources/${p}/_/a?rev=1`, { '@context': { '@vocab': S }, name: 'alpha' })).status).to.equal(200);
      expect(await order(`sort=${byName}`)).to.deep.equal(['a', 'b', 'c', 'd']);
      expect(await order(`sort=-${byName}`)).to.deep.equal(['c', 'b', 'a', 'd']);
      const { items: walked } = await walk(`/v1/resources/${p}?size=1&sort=${byName}`);
      expect(ids(walked).map((id) => id.slice(base.length))).to.deep.equal(['a', 'b', 'c', 'd']);
      expect((await api.put(`/v1/resources/${p}/_/d?rev=1`, { '@context': { '@vocab': S }, name: 'zulu' })).status).to.equal(200);
      await api.delete(`/v1/resources/${p}/_/b?rev=1`);
      await create(p, 'e', { name: 'echo' });
      expect(await order(`sort=${byName}`)).to.deep.equal(['a', 'c', 'e', 'd']);
      const { items } = await walk(`/v1/resources/${p}?size=1&sort=-${byName}`);
      expect(ids(items).map((id) => id.slice(base.length))).to.deep.equal(['d', 'e', 'c', 'a']);
    });

    it('filters by deprecated, rev, type (and/or), createdBy, updatedBy and time ranges', async () => {
      const { p, base } = await project();
      const t0 = new Date(Date.now() - 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
      await create(p, 'person', { '@type': 'Person' });
      await create(p, 'both', { '@type': ['Person', 'Agent'] });
      await create(p, 'agent', { '@type': 'Agent' });
      await create(p, 'none', { v: 1 });
      await create(p, 'gone', { '@type': 'Person' });
      await api.delete(`/v1/resources/${p}/_/gone?rev=1`);
      await api.put(`/v1/resources/${p}/_/none?rev=1`, { '@context': { '@vocab': S }, v: 2 });
      const t1 = new Date(Date.now() + 2000).toISOString().replace(/\.\d{3}Z$/, 'Z');
      const q = async (query: string) => {
        const res = await api.get(`/v1/resources/${p}?${query}`);
        expect(res.status, `${query}: ${res.text}`).to.equal(200);
        return ids(res.body['_results'])
          .map((id) => id.slice(base.length))
          .sort();
      };
      // deprecated items are left out by default
      expect(await q('')).to.deep.equal(['agent', 'both', 'none', 'person']);
      expect(await q('deprecated=true')).to.deep.equal(['gone']);
      expect(await q('deprecated=false')).to.deep.equal(['agent', 'both', 'none', 'person']);
      expect(await q('rev=2')).to.deep.equal(['none']);
      expect(await q('rev=2&deprecated=true')).to.deep.equal(['gone']);
      expect(await q('rev=1')).to.deep.equal(['agent', 'both', 'person']);
      expect(await q(`type=${enc(`${S}Person`)}`)).to.deep.equal(['both', 'person']);
      expect(await q('type=schema:Person')).to.deep.equal(['both', 'person']);
      expect(await q(`type=${enc(`${S}Person`)}&type=${enc(`${S}Agent`)}`)).to.deep.equal(['agent', 'both', 'person']);
      expect(await q(`type=${enc(`${S}Person`)}&type=${enc(`${S}Agent`)}&typeOperator=or`)).to.deep.equal(['agent', 'both', 'person']);
      expect(await q(`type=${enc(`${S}Person`)}&type=${enc(`${S}Agent`)}&typeOperator=and`)).to.deep.equal(['both']);
      expect(await q(`type=${enc(`${S}Person`)}&typeOperator=and`)).to.deep.equal(['both', 'person']);
      expect(await q(`type=${enc('http://example.com/Nothing')}`)).to.deep.equal([]);
      const anonymous = `${server.url}/v1/anonymous`;
      expect(await q(`createdBy=${enc(anonymous)}`)).to.deep.equal(['agent', 'both', 'none', 'person']);
      expect(await q(`updatedBy=${enc(anonymous)}`)).to.deep.equal(['agent', 'both', 'none', 'person']);
      expect(await q(`createdBy=${enc(`${server.url}/v1/realms/r/users/u`)}`)).to.deep.equal([]);
      expect(await q(`updatedBy=${enc(`${server.url}/v1/realms/r/users/u`)}`)).to.deep.equal([]);
      expect(await q(`createdAt=${enc(`${t0}..${t1}`)}`)).to.deep.equal(['agent', 'both', 'none', 'person']);
      expect(await q(`createdAt=${enc(`${t0}..*`)}`)).to.deep.equal(['agent', 'both', 'none', 'person']);
      expect(await q(`createdAt=${enc(`*..${t0}`)}`)).to.deep.equal([]);
      expect(await q(`createdAt=${enc('*..*')}`)).to.deep.equal(['agent', 'both', 'none', 'person']);
      expect(await q(`updatedAt=${enc(`${t1}..*`)}`)).to.deep.equal([]);
      // a range between two creations
      const all = (await api.get(`/v1/resources/${p}?sort=_createdAt`)).body['_results'] as Item[];
      const agentCreated = all.find((i) => i['@id'] === `${base}agent`)!._createdAt;
      expect(await q(`createdAt=${enc(`${agentCreated}..*`)}`)).to.include('agent');
      const noneUpdated = all.find((i) => i['@id'] === `${base}none`)!._updatedAt;
      expect(await q(`updatedAt=${enc(`${noneUpdated}..*`)}`)).to.deep.equal(['none']);
      // filters compose
      expect(await q(`type=${enc(`${S}Person`)}&rev=1&createdBy=${enc(anonymous)}`)).to.deep.equal(['both', 'person']);
      expect((await api.get(`/v1/resources/${p}?type=schema:Person`)).body['_total']).to.equal(2);
    });

    it('locates a resource by id and by _self at every scope', async () => {
      const a = await project();
      const b = await project(a.org);
      const item = await create(a.p, 'findme', { v: 1 });
      await create(b.p, 'findme', { v: 2 });
      for (const scope of [`/v1/resources/${a.p}`, `/v1/resources/${a.org}`, '/v1/resources']) {
        for (const locate of [item['@id'], item._self]) {
          const res = await api.get(`${scope}?locate=${enc(locate)}`);
          expect(res.status, res.text).to.equal(200);
          expect(ids(res.body['_results']), `${scope} ${locate}`).to.deep.equal([item['@id']]);
          expect(res.body['_results'][0]._project).to.equal(a.p);
        }
      }
      // a relative id at project scope
      expect((await api.get(`/v1/resources/${a.p}?locate=findme`)).body['_total']).to.equal(1);
      expect((await api.get(`/v1/resources/${a.p}?locate=${enc('http://example.com/not-here')}`)).body['_total']).to.equal(0);
      // deprecated ones are found with deprecated=true
      await api.delete(`/v1/resources/${a.p}/_/findme?rev=1`);
      expect((await api.get(`/v1/resources/${a.p}?locate=findme`)).body['_total']).to.equal(0);
      expect((await api.get(`/v1/resources/${a.p}?locate=findme&deprecated=true`)).body['_total']).to.equal(1);
    });

    it('aggregates projects and types', async () => {
      const a = await project();
      const b = await project(a.org);
      await create(a.p, 'x1', { '@type': 'Person' });
      await create(a.p, 'x2', { '@type': ['Person', 'Agent'] });
      await create(a.p, 'x3', { v: 1 });
      await create(b.p, 'y1', { '@type': 'Person' });
      await create(b.p, 'gone', { '@type': 'Agent' });
      await api.delete(`/v1/resources/${b.p}/_/gone?rev=1`);
      const res = await api.get(`/v1/resources/${a.org}?aggregations=true`);
      expect(res.status).to.equal(200);
      expect(res.body['@context']).to.equal('https://bluebrain.github.io/nexus/contexts/aggregations.json');
      expect(res.body.total).to.equal(4);
      const { projects, types } = res.body.aggregations;
      for (const agg of [projects, types]) {
        expect(agg).to.have.property('doc_count_error_upper_bound', 0);
        expect(agg).to.have.property('sum_other_doc_count', 0);
      }
      expect(projects.buckets).to.deep.equal([
        { key: a.p, doc_count: 3 },
        { key: b.p, doc_count: 1 },
      ]);
      expect(types.buckets).to.deep.equal([
        { key: `${S}Person`, doc_count: 3 },
        { key: `${S}Agent`, doc_count: 1 },
      ]);
      const projectAggs = await api.get(`/v1/resources/${b.p}?aggregations=true&deprecated=true`);
      expect(projectAggs.body.total).to.equal(1);
      expect(projectAggs.body.aggregations.types.buckets).to.deep.equal([{ key: `${S}Agent`, doc_count: 1 }]);
      const filtered = await api.get(`/v1/resources/${a.p}?aggregations=true&type=schema:Agent`);
      expect(filtered.body.total).to.equal(1);
      expect(filtered.body.aggregations.projects.buckets).to.deep.equal([{ key: a.p, doc_count: 1 }]);
      const global = await api.get('/v1/resources?aggregations=true');
      expect(global.body.total).to.be.at.least(4);
      expect((await api.get(`/v1/resources/${a.p}/_?aggregations=true`)).body.total).to.equal(3);
    });
  });
