import { expect } from 'chai';
import { serveOnStore } from '../support/serveOnStore.js';
import type { client } from '../support/client.js';
import { enc } from '../support/client.js';

const S = 'http://schema.org/';
const EX = 'http://example.com/';
const RDF_JSON = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#JSON';
const FORMATS = ['application/ld+json', 'application/n-triples', 'application/n-quads', 'text/vnd.graphviz'];

// JSON-LD 1.1 (Delta 1.12): scoped contexts, @json literals, @protected, @propagate, on create, on every
// fetch format and in SPARQL, over the embedded store and an external one (Virtuoso).
for (const external of [false, true])
  describe(`JSON-LD 1.1 payloads${external ? ', external store (Virtuoso)' : ''}`, function () {
    this.timeout(120_000);
    let api: ReturnType<typeof client>;
    serveOnStore(external, (_s, a) => (api = a));
    before(async () => {
      expect((await api.put('/v1/orgs/j', {})).status).to.equal(201);
      expect((await api.put('/v1/projects/j/p', {})).status).to.equal(201);
    });
    const path = (id: string) => `/v1/resources/j/p/_/${enc(id)}`;

    /** Creates the payload, then reads it back in every format: the compacted body, and the N-Triples. */
    const created = async (body: Record<string, unknown>) => {
      const id = body['@id'] as string;
      const res = await api.put(path(id), body);
      expect(res.status, res.text).to.equal(201);
      const forms: Record<string, string> = {};
      for (const accept of FORMATS) {
        const fetched = await api.get(path(id), { accept });
        expect(fetched.status, `${accept} ${fetched.text}`).to.equal(200);
        forms[accept] = fetched.text;
      }
      const source = await api.get(`${path(id)}/source`);
      expect(source.body).to.deep.equal(body);
      const compacted = JSON.parse(forms['application/ld+json']!) as Record<string, unknown>;
      return { compacted, nt: forms['application/n-triples']!, nq: forms['application/n-quads']!, dot: forms['text/vnd.graphviz']! };
    };
    const ask = async (where: string) => {
      const res = await api.get(`/v1/views/j/p/graph/sparql?query=${enc(`ASK { ${where} }`)}`, { accept: 'application/sparql-results+json' });
      expect(res.status, res.text).to.equal(200);
      return res.body.boolean as boolean;
    };

    it('scoped contexts: a type-scoped context applies to its node only, a property-scoped one to the nested nodes too', async () => {
      const id = `${EX}scoped`;
      const { compacted, nt, nq } = await created({
        '@context': {
          '@vocab': S,
          Person: { '@id': `${S}Person`, '@context': { name: `${EX}fullName` } },
          address: { '@id': `${S}address`, '@context': { '@vocab': `${EX}addr/` } },
        },
        '@id': id,
        '@type': 'Person',
        name: 'Ann',
        knows: { name: 'Bob' },
        address: { city: 'Paris', geo: { lat: 1 } },
      });
      expect(compacted).to.deep.include({ '@type': 'Person', name: 'Ann', knows: { name: 'Bob' }, address: { city: 'Paris', geo: { lat: 1 } } });
      expect(nt).to.contain(`<${id}> <${EX}fullName> "Ann" .`);
      expect(nt).to.match(/_:\w+ <http:\/\/schema\.org\/name> "Bob" \./);
      expect(nt).to.match(/_:\w+ <http:\/\/example\.com\/addr\/city> "Paris" \./);
      expect(nq).to.contain(`<${id}> <${EX}fullName> "Ann" <urn:registry:`);
      expect(
        await ask(
          `<${id}> <${EX}fullName> "Ann" ; <${S}knows> [ <${S}name> "Bob" ] ; <${S}address> [ <${EX}addr/city> "Paris" ; <${EX}addr/geo> [ <${EX}addr/lat> 1 ] ]`,
        ),
      ).to.equal(true);
      expect(await ask(`<${id}> <${S}name> ?n`)).to.equal(false);
    });

    it('@json: the value is one rdf:JSON literal, canonical, read back as the JSON it was', async () => {
      const id = `${EX}json`;
      const data = { b: [1, 2.5, { c: true }], a: null, '@id': 'http://ex.org/inside' };
      const { compacted, nt, dot } = await created({ '@context': { '@vocab': S, data: { '@id': `${EX}data`, '@type': '@json' } }, '@id': id, data, name: 'j' });
      expect(compacted['data']).to.deep.equal(data);
      const canonical = '{"@id":"http://ex.org/inside","a":null,"b":[1,2.5,{"c":true}]}';
      expect(nt).to.contain(`<${id}> <${EX}data> ${JSON.stringify(canonical)}^^<${RDF_JSON}> .`);
      expect(dot).to.contain(`<${EX}data>`.slice(1, -1));
      expect(await ask(`<${id}> <${EX}data> ?v FILTER(datatype(?v) = <${RDF_JSON}> && str(?v) = ${JSON.stringify(canonical)})`)).to.equal(true);
      // Nothing inside the literal is a node of the graph.
      expect(await ask(`?s ?p <http://ex.org/inside>`)).to.equal(false);
    });

    it('@protected: a protected term holds, redefining it is a 400 with the reason, and so is protecting a term the metadata context defines', async () => {
      const id = `${EX}protected`;
      const { compacted, nt } = await created({ '@context': { '@protected': true, '@vocab': S, name: `${S}name` }, '@id': id, name: 'kept' });
      expect(compacted['name']).to.equal('kept');
      expect(nt).to.contain(`<${id}> <${S}name> "kept" .`);
      expect(await ask(`<${id}> <${S}name> "kept"`)).to.equal(true);
      // A property-scoped context may override a protected term (JSON-LD 1.1 §4.1.11).
      const over = `${EX}overridden`;
      await created({
        '@context': [{ '@protected': true, '@vocab': S, name: `${S}name`, knows: { '@id': `${S}knows`, '@context': { name: `${EX}nick` } } }],
        '@id': over,
        knows: { name: 'Bo' },
      });
      expect(await ask(`<${over}> <${S}knows> [ <${EX}nick> "Bo" ]`)).to.equal(true);

      const redefined = await api.put(path(`${EX}redefined`), {
        '@context': [{ '@protected': true, name: `${S}name` }, { name: `${EX}other` }],
        '@id': `${EX}redefined`,
        name: 'x',
      });
      expect([redefined.status, redefined.body['@type']]).to.deep.equal([400, 'InvalidJsonLdFormat']);
      expect(redefined.body.reason).to.match(/protected term/);
      const clash = await api.put(path(`${EX}clash`), { '@context': { '@protected': true, '@vocab': S, _rev: `${EX}rev` }, '@id': `${EX}clash`, name: 'x' });
      expect([clash.status, clash.body['@type']]).to.deep.equal([400, 'InvalidJsonLdFormat']);
      expect(clash.body.reason).to.contain('metadata context');
      for (const refused of ['redefined', 'clash']) {
        expect((await api.get(path(`${EX}${refused}`))).status).to.equal(404);
        expect(await ask(`<${EX}${refused}> ?p ?o`)).to.equal(false);
      }
    });

    it('@propagate: false keeps a property-scoped context from nested nodes, true carries a type-scoped one into them', async () => {
      const id = `${EX}propagate`;
      const { compacted, nt } = await created({
        '@context': {
          '@vocab': S,
          knows: { '@id': `${S}knows`, '@context': { '@propagate': false, '@vocab': `${EX}v/` } },
          Team: { '@id': `${S}Team`, '@context': { '@propagate': true, '@vocab': `${EX}team/` } },
        },
        '@id': id,
        knows: { nick: 'b', friend: { nick: 'c' } },
        member: { '@type': 'Team', label: 't', lead: { label: 'l' } },
      });
      expect(compacted).to.deep.include({ knows: { nick: 'b', friend: { nick: 'c' } }, member: { '@type': 'Team', label: 't', lead: { label: 'l' } } });
      expect(nt).to.match(/_:\w+ <http:\/\/example\.com\/v\/nick> "b" \./);
      expect(nt).to.match(/_:\w+ <http:\/\/schema\.org\/nick> "c" \./);
      expect(await ask(`<${id}> <${S}knows> [ <${EX}v/nick> "b" ; <${EX}v/friend> [ <${S}nick> "c" ] ]`)).to.equal(true);
      expect(await ask(`<${id}> <${S}member> [ a <${S}Team> ; <${EX}team/label> "t" ; <${EX}team/lead> [ <${EX}team/label> "l" ] ]`)).to.equal(true);
    });
  });
