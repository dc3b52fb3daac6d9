import { expect } from 'chai';
import type { Config } from '../../src/config/Config.js';
import { serve } from '../support/server.js';
import type { client } from '../support/client.js';
import { enc } from '../support/client.js';
import { clearVirtuoso, releaseVirtuoso, useVirtuoso } from '../support/virtuoso.js';

const EX = 'http://ex.org/';
const ctx = { '@vocab': EX };

// Time travel over the embedded store and over an external one (Virtuoso): the same answers, the same confinement.
for (const external of [false, true])
  describe(`SPARQL time travel (at=, tag=)${external ? ', external store (Virtuoso)' : ''}`, function () {
    this.timeout(120_000);
    let api: ReturnType<typeof client>;
    const overrides: Partial<Config> = {};
    if (external)
      before(async () => {
        overrides.sparqlStore = (await useVirtuoso()).server;
        await clearVirtuoso(overrides.sparqlStore);
      });
    serve((_s, a) => (api = a), overrides);
    if (external) after(releaseVirtuoso);
    let instants: string[] = [];
    const names = async (extra: string, project = 'tt/p') => {
      const res = await api.get(`/v1/views/${project}/graph/sparql?query=${enc(`SELECT ?s ?n WHERE { ?s <${EX}name> ?n } ORDER BY ?n`)}${extra}`, {
        accept: 'application/sparql-results+json',
      });
      expect(res.status, res.text).to.equal(200);
      return (res.body.results.bindings as { n: { value: string } }[]).map((b) => b.n.value);
    };

    before(async () => {
      expect((await api.put('/v1/orgs/tt', {})).status).to.equal(201);
      for (const p of ['p', 'q']) expect((await api.put(`/v1/projects/tt/${p}`, {})).status).to.equal(201);
      const a = `/v1/resources/tt/p/_/${enc(`${EX}a`)}`;
      expect((await api.put(a, { '@context': ctx, name: 'a1', address: { city: 'Paris' } })).status).to.equal(201);
      await new Promise((r) => setTimeout(r, 20));
      expect((await api.put(`/v1/resources/tt/p/_/${enc(`${EX}b`)}`, { '@context': ctx, name: 'b1' })).status).to.equal(201);
      await new Promise((r) => setTimeout(r, 20));
      expect((await api.put(`${a}?rev=1`, { '@context': ctx, name: 'a2', address: { city: 'Lyon' } })).status).to.equal(200);
      expect((await api.post(`${a}/tags?rev=2`, { tag: 'v1', rev: 1 })).status).to.equal(201);
      await new Promise((r) => setTimeout(r, 20));
      expect((await api.delete(`/v1/resources/tt/p/_/${enc(`${EX}b`)}?rev=1`)).status).to.equal(200);
      expect((await api.put(`/v1/resources/tt/q/_/${enc(`${EX}c`)}`, { '@context': ctx, name: 'c1' })).status).to.equal(201);
      const history = async (id: string) =>
        ((await api.get(`/v1/history/resources/tt/p/${enc(`${EX}${id}`)}`)).body._results as { instant: string }[]).map((e) => e.instant);
      const [a1, , a3] = await history('a');
      const [b1] = await history('b');
      instants = [a1!, b1!, a3!];
    });

    it('answers as of an instant: the revision current then, deprecated and not yet created items left out', async () => {
      expect(await names('')).to.deep.equal(['a2']);
      expect(await names(`&at=${enc(instants[0]!)}`)).to.deep.equal(['a1']);
      expect(await names(`&at=${enc(instants[1]!)}`)).to.deep.equal(['a1', 'b1']);
      expect(await names(`&at=${enc(instants[2]!)}`), 'b was deprecated after').to.deep.equal(['a2', 'b1']);
      expect(await names('&at=1999-01-01T00:00:00Z')).to.deep.equal([]);
    });

    it('answers as of a tag, joins across a revision’s blank nodes included, named graphs staying every revision of the project only', async () => {
      expect(await names('&tag=v1')).to.deep.equal(['a1']);
      const city = await api.get(`/v1/views/tt/p/graph/sparql?query=${enc(`SELECT ?c WHERE { ?s <${EX}address> ?x . ?x <${EX}city> ?c }`)}&tag=v1`, {
        accept: 'application/sparql-results+json',
      });
      expect(city.body.results.bindings.map((b: { c: { value: string } }) => b.c.value)).to.deep.equal(['Paris']);
      const graphs = await api.get(`/v1/views/tt/p/graph/sparql?query=${enc('SELECT DISTINCT ?g WHERE { GRAPH ?g { ?s ?p ?o } }')}&tag=v1`, {
        accept: 'application/sparql-results+json',
      });
      const named = (graphs.body.results.bindings as { g: { value: string } }[]).map((b) => b.g.value);
      expect(named.filter((g) => g.includes(enc(`${EX}a`)))).to.have.length(3);
      expect(named.every((g) => g.includes('/tt/p/'))).to.equal(true);
      expect(await names('&tag=v1', 'tt/q')).to.deep.equal([]);
    });
  });
