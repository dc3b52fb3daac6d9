import { expect } from 'chai';
import { serveOnStore } from '../support/serveOnStore.js';
import type { client } from '../support/client.js';
import { enc } from '../support/client.js';

const EX = 'http://ex.org/';
const ctx = { '@vocab': EX };

// Time travel over the embedded store and over an external one (Virtuoso): the same answers, the same confinement.
for (const external of [false, true])
  describe(`SPARQL time travel (at=, tag=)${external ? ', external store (Virtuoso)' : ''}`, function () {
    this.timeout(120_000);
    let api: ReturnType<typeof client>;
    serveOnStore(external, (_s, a) => (api = a));
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

    describe("a user-defined SparqlView's endpoint", () => {
      const NXV = 'https://bluebrain.github.io/nexus/vocabulary/';
      let at: Record<string, string> = {};
      const view = async (id: string, body: unknown) => expect((await api.put(`/v1/views/tt/v/nxv:${id}`, body)).status).to.equal(201);
      const query = (viewId: string, q: string, extra: string) =>
        api.get(`/v1/views/tt/v/nxv:${viewId}/sparql?query=${enc(q)}${extra}`, { accept: 'application/sparql-results+json' });
      const viewNames = async (viewId: string, extra: string) => {
        const res = await query(viewId, `SELECT ?n WHERE { ?s <${EX}name> ?n }`, extra);
        expect(res.status, res.text).to.equal(200);
        return (res.body.results.bindings as { n: { value: string } }[]).map((b) => b.n.value).sort();
      };

      before(async () => {
        expect((await api.put('/v1/projects/tt/v', {})).status).to.equal(201);
        const res = (id: string) => `/v1/resources/tt/v/_/${enc(`${EX}${id}`)}`;
        const put = async (id: string, type: string, name: string, rev?: number) => {
          const r = await api.put(`${res(id)}${rev ? `?rev=${rev}` : ''}`, { '@context': ctx, '@type': type, name });
          expect(r.status, r.text).to.equal(rev ? 200 : 201);
          const entries = (await api.get(`/v1/history/resources/tt/v/${enc(`${EX}${id}`)}`)).body._results as { instant: string }[];
          at[name] = entries[entries.length - 1]!.instant;
          await new Promise((r) => setTimeout(r, 20));
        };
        // x is a Cell, then Other; y the other way round; z a Cell deprecated last.
        await put('x', 'Cell', 'x1');
        await put('y', 'Other', 'y1');
        await put('z', 'Cell', 'z1');
        await put('x', 'Other', 'x2', 1);
        await put('y', 'Cell', 'y2', 1);
        expect((await api.delete(`${res('z')}?rev=1`)).status).to.equal(200);
        expect((await api.post(`${res('x')}/tags?rev=2`, { tag: 'v1', rev: 1 })).status).to.equal(201);
        expect((await api.post(`${res('y')}/tags?rev=2`, { tag: 'v1', rev: 2 })).status).to.equal(201);
        await view('cells', { '@type': 'SparqlView', resourceTypes: [`${EX}Cell`] });
        await view('cellsAll', { '@type': 'SparqlView', resourceTypes: [`${EX}Cell`], includeDeprecated: true });
        await view('tagged', { '@type': 'SparqlView', resourceTag: 'v1' });
        await view('meta', { '@type': 'SparqlView', includeMetadata: true });
        await view('agg', { '@type': 'AggregateSparqlView', views: [{ project: 'tt/v', viewId: `${NXV}cells` }] });
      });

      it('answers as of an instant: each item as it was then, kept when it passed the view’s selection then', async () => {
        expect(await viewNames('cells', `&at=${enc(at['z1']!)}`)).to.deep.equal(['x1', 'z1']);
        expect(await viewNames('cells', `&at=${enc(at['x2']!)}`), 'x is no Cell any more').to.deep.equal(['z1']);
        expect(await viewNames('cells', `&at=${enc(at['y2']!)}`)).to.deep.equal(['y2', 'z1']);
        expect(await viewNames('cells', `&at=${enc(new Date().toISOString())}`), 'z deprecated since').to.deep.equal(['y2']);
        expect(await viewNames('cellsAll', `&at=${enc(new Date().toISOString())}`), 'includeDeprecated').to.deep.equal(['y2', 'z1']);
        expect(await viewNames('cells', '&at=1999-01-01T00:00:00Z')).to.deep.equal([]);
      });

      it('answers as of a tag: the tagged revisions that pass the selection; named graphs only those', async () => {
        expect(await viewNames('cells', '&tag=v1')).to.deep.equal(['x1', 'y2']);
        expect(await viewNames('cells', '&tag=nope')).to.deep.equal([]);
        const graphs = await query('cells', 'SELECT DISTINCT ?g WHERE { GRAPH ?g { ?s ?p ?o } }', `&at=${enc(at['z1']!)}`);
        const named = (graphs.body.results.bindings as { g: { value: string } }[]).map((b) => b.g.value);
        expect(named).to.have.length(2);
        expect(named.every((g) => g.endsWith('/rev/1') && !g.includes(enc(`${EX}y`)))).to.equal(true);
      });

      it('refuses a view whose selection has no answer as of then (TimeTravelUnsupported), and graph parameters', async () => {
        for (const viewId of ['tagged', 'meta', 'agg']) {
          const res = await query(viewId, 'ASK {}', '&tag=v1');
          expect([res.status, res.body['@type']], viewId).to.deep.equal([400, 'TimeTravelUnsupported']);
        }
        const graphs = await query('cells', 'ASK {}', '&tag=v1&named-graph-uri=urn:x');
        expect([graphs.status, graphs.body['@type']]).to.deep.equal([400, 'MalformedQueryParamRejection']);
      });
    });
  });
