import { expect } from 'chai';
import { serveOnStore } from '../support/serveOnStore.js';
import type { TestServer } from '../support/server.js';
import { client, enc } from '../support/client.js';

const S = 'http://schema.org/';
const CONTEXT = { '@vocab': S, knows: { '@type': '@id' }, agent: { '@type': '@id' }, friend: { '@type': '@id' } };

let counter = 0;
const unique = (prefix: string) => `${prefix}${Date.now().toString(36)}${counter++}`;

interface Entry {
  '@id': string;
  '@type'?: string | string[];
  paths: string | string[];
  _rev?: number;
  _self?: string;
  [k: string]: unknown;
}

/** One contract for both layouts: the embedded store's in-memory indexes and the external store's SPARQL (replicas keep no index). */
for (const external of [false, true])
  describe(`resources: incoming and outgoing links over HTTP (${external ? 'external' : 'embedded'} store)`, function () {
    this.timeout(120_000);
    let server: TestServer;
    let api: ReturnType<typeof client>;

    const project = async () => {
      const org = unique('org');
      const proj = unique('proj');
      await api.put(`/v1/orgs/${org}`, {});
      await api.put(`/v1/projects/${org}/${proj}`, {});
      return { p: `${org}/${proj}`, base: `${server.url}/v1/resources/${org}/${proj}/_/` };
    };
    const put = async (p: string, id: string, payload: Record<string, unknown>) => {
      const res = await api.put(`/v1/resources/${p}/_/${id}`, { '@context': CONTEXT, ...payload });
      expect(res.status, res.text).to.equal(201);
      return res.body;
    };
    const links = async (path: string) => {
      const res = await api.get(path);
      expect(res.status, res.text).to.equal(200);
      return res.body as { _total: number; _results: Entry[]; _next?: string; '@context': unknown };
    };
    const asArray = (v: string | string[] | undefined) => (v === undefined ? [] : Array.isArray(v) ? v : [v]);

    serveOnStore(external, (started, startedApi) => {
      server = started;
      api = startedApi;
    });

    it('lists outgoing links with their paths, direct and through nested blank nodes', async () => {
      const { p, base } = await project();
      await put(p, 'bob', { '@type': 'Person', name: 'Bob' });
      await put(p, 'carol', { '@type': 'Person' });
      await put(p, 'alice', {
        '@type': 'Person',
        knows: `${base}bob`,
        contribution: { agent: { '@id': `${base}carol` }, role: 'author' },
        friend: 'http://external.example.com/dave',
        sameAs: { '@id': 'http://external.example.com/alice' },
      });
      const out = await links(`/v1/resources/${p}/_/alice/outgoing`);
      expect(out['@context']).to.be.an('array');
      expect(out._total).to.equal(4);
      const byId = new Map(out._results.map((e) => [e['@id'], e]));
      expect(asArray(byId.get(`${base}bob`)!.paths)).to.deep.equal([`${S}knows`]);
      expect(asArray(byId.get(`${base}carol`)!.paths)).to.deep.equal([`${S}contribution`, `${S}agent`]);
      expect(asArray(byId.get('http://external.example.com/dave')!.paths)).to.deep.equal([`${S}friend`]);
      expect(asArray(byId.get('http://external.example.com/alice')!.paths)).to.deep.equal([`${S}sameAs`]);
      // known resources carry their metadata and type, external ones only @id and paths
      const bob = byId.get(`${base}bob`)!;
      expect(bob['@type']).to.equal(`${S}Person`);
      expect(bob).to.include({ _rev: 1, _deprecated: false, _self: `${server.url}/v1/resources/${p}/_/${enc(`${base}bob`)}` });
      expect(Object.keys(byId.get('http://external.example.com/dave')!).sort()).to.deep.equal(['@id', 'paths']);
      // types are not links
      expect([...byId.keys()]).to.not.include(`${S}Person`);
      // includeExternalLinks=false keeps only resources known to the project
      const known = await links(`/v1/resources/${p}/_/alice/outgoing?includeExternalLinks=false`);
      expect(known._total).to.equal(2);
      expect(known._results.map((e) => e['@id']).sort()).to.deep.equal([`${base}bob`, `${base}carol`]);
      expect((await links(`/v1/resources/${p}/_/alice/outgoing?includeExternalLinks=true`))._total).to.equal(4);
      // a resource without links
      expect((await links(`/v1/resources/${p}/_/bob/outgoing`))._total).to.equal(0);
    });

    it('lists incoming links with paths; deprecated linking resources do not count; only the current revision counts', async () => {
      const { p, base } = await project();
      await put(p, 'target', { '@type': 'Thing' });
      await put(p, 'direct', { '@type': 'Person', knows: `${base}target` });
      await put(p, 'nested', { contribution: { agent: { '@id': `${base}target` } } });
      await put(p, 'old', { knows: `${base}target` });
      await put(p, 'dep', { knows: `${base}target` });
      const inc = await links(`/v1/resources/${p}/_/target/incoming`);
      expect(inc._total).to.equal(4);
      const byId = new Map(inc._results.map((e) => [e['@id'], e]));
      expect(asArray(byId.get(`${base}direct`)!.paths)).to.deep.equal([`${S}knows`]);
      expect(asArray(byId.get(`${base}nested`)!.paths)).to.deep.equal([`${S}contribution`, `${S}agent`]);
      expect(byId.get(`${base}direct`)!['@type']).to.equal(`${S}Person`);
      expect(byId.get(`${base}direct`)!._rev).to.equal(1);
      // an update that drops the link, a deprecation: both gone from incoming
      await api.put(`/v1/resources/${p}/_/old?rev=1`, { '@context': CONTEXT, name: 'no more links' });
      await api.delete(`/v1/resources/${p}/_/dep?rev=1`);
      const after = await links(`/v1/resources/${p}/_/target/incoming`);
      expect(after._total).to.equal(2);
      expect(after._results.map((e) => e['@id']).sort()).to.deep.equal([`${base}direct`, `${base}nested`]);
      // undeprecating brings it back
      await api.put(`/v1/resources/${p}/_/dep/undeprecate?rev=2`);
      expect((await links(`/v1/resources/${p}/_/target/incoming`))._total).to.equal(3);
      // incoming of a deprecated target still answers
      await api.delete(`/v1/resources/${p}/_/target?rev=1`);
      expect((await links(`/v1/resources/${p}/_/target/incoming`))._total).to.equal(3);
    });

    it('pages links with from and size; _total counts all', async () => {
      const { p, base } = await project();
      await put(p, 'hub', { knows: Array.from({ length: 12 }, (_, i) => `http://external.example.com/${String(i).padStart(2, '0')}`) });
      for (let i = 0; i < 12; i++) await put(p, `spoke-${String(i).padStart(2, '0')}`, { knows: `${base}hub` });
      for (const dir of ['incoming', 'outgoing']) {
        const all = await links(`/v1/resources/${p}/_/hub/${dir}?size=100`);
        expect(all._total, dir).to.equal(12);
        expect(all._results).to.have.length(12);
        const pages: Entry[] = [];
        for (let from = 0; from < 12; from += 5) {
          const page = await links(`/v1/resources/${p}/_/hub/${dir}?from=${from}&size=5`);
          expect(page._total).to.equal(12);
          expect(page._results).to.have.length(Math.min(5, 12 - from));
          if (from + 5 < 12) expect(page._next, dir).to.be.a('string');
          else expect(page._next).to.equal(undefined);
          pages.push(...page._results);
        }
        expect(
          pages.map((e) => e['@id']),
          dir,
        ).to.deep.equal(all._results.map((e) => e['@id']));
        expect(new Set(pages.map((e) => e['@id'])).size).to.equal(12);
        // default size is 20; stable order
        expect((await links(`/v1/resources/${p}/_/hub/${dir}`))._results.map((e) => e['@id'])).to.deep.equal(all._results.map((e) => e['@id']));
        expect((await links(`/v1/resources/${p}/_/hub/${dir}?from=50`))._results).to.deep.equal([]);
        for (const bad of ['from=-1', 'size=0', 'size=1001', 'from=x', 'from=10001'])
          expect((await api.get(`/v1/resources/${p}/_/hub/${dir}?${bad}`)).status, bad).to.equal(400);
      }
      expect((await api.get(`/v1/resources/${p}/_/hub/outgoing?includeExternalLinks=nope`)).status).to.equal(400);
      // following _next works
      const first = await links(`/v1/resources/${p}/_/hub/incoming?size=5`);
      const second = await links(first._next!.slice(server.url.length));
      expect(second._results.map((e) => e['@id'])).to.not.include.members(first._results.map((e) => e['@id']));
    });

    it('answers links of ids with spaces and other characters SPARQL cannot spell', async () => {
      const { p } = await project();
      const odd = 'http://example.com/with space';
      await put(p, enc(odd), { v: 1 });
      await put(p, 'pointer', { knows: odd });
      const inc = await links(`/v1/resources/${p}/_/${enc(odd)}/incoming`);
      expect(inc._total).to.equal(1);
      const out = await links(`/v1/resources/${p}/_/pointer/outgoing`);
      expect(out._total).to.equal(1);
      expect(out._results[0]!['@id']).to.equal(odd);
      expect((await links(`/v1/resources/${p}/_/${enc(odd)}/outgoing`))._total).to.equal(0);
    });

    it('accepts the schema segment and aliases on link routes', async () => {
      const { p, base } = await project();
      await put(p, 't', {});
      await put(p, 's', { knows: `${base}t` });
      expect((await links(`/v1/resources/${p}/resource/t/incoming`))._total).to.equal(1);
      expect((await links(`/v1/resources/${p}/_/${enc(`${base}t`)}/incoming`))._total).to.equal(1);
      expect((await api.get(`/v1/resources/${p}/${enc('http://example.com/schema')}/t/incoming`)).status).to.equal(404);
    });
  });
