import { expect } from 'chai';
import type { Config } from '../../src/config/Config.js';
import { client, enc } from '../support/client.js';
import { startServer } from '../support/server.js';
import { spelledIri } from '../../src/rdf/terms.js';
import type { TestServer } from '../support/server.js';
import { clearVirtuoso, releaseVirtuoso, useVirtuoso } from '../support/virtuoso.js';

/**
 * Every character SPARQL's IRIREF forbids (`<>"{}|^\`` and 0x00–0x20), and non-ASCII, in ids, types,
 * tags and values: written and read back on both stores, every store-backed read answering, and
 * the writer of the external store going on (it used to stop at the first such id, for every project).
 */
const ODD: [string, string][] = [
  ['space', ' '],
  ['quote', '"'],
  ['backslash', '\\'],
  ['angle', '<>'],
  ['braces', '{}'],
  ['pipe', '|'],
  ['caret', '^'],
  ['backtick', '`'],
  ['non-ASCII', 'é😀'],
  ['control', '\u0001\u0007\t'],
];
const ctx = { '@vocab': 'http://schema.org/' };

for (const store of ['embedded', 'external'] as const)
  describe(`ids, types, tags and values holding characters SPARQL cannot spell in an IRI (${store} store)`, function () {
    this.timeout(180_000);
    let server: TestServer;
    let api: ReturnType<typeof client>;
    before(async () => {
      const config: Partial<Config> = {};
      if (store === 'external') {
        // Debian's stock settings: the writer's requests are sized for them.
        const virtuoso = await useVirtuoso('stock');
        await clearVirtuoso(virtuoso.server);
        config.sparqlStore = virtuoso.server;
      }
      server = await startServer(config);
      api = client(server.url);
      await api.put('/v1/orgs/o', {});
      await api.put('/v1/projects/o/odd', {});
      await api.put('/v1/projects/o/plain', {});
    });
    after(async () => {
      await server?.stop(true);
      if (store === 'external') await releaseVirtuoso('stock');
    });

    // Ids take a space and non-ASCII (the others are refused, 400 InvalidResourceId); types, tags and values take every one.
    const idOf = (c: string) => (c === ' ' || c === 'é😀' ? `http://example.org/odd${c}id` : `http://example.org/odd-${ODD.find(([, x]) => x === c)![0]}-id`);
    const typeOf = (c: string) => `http://example.org/Odd${c}Type`;
    // Tags take all but control characters (400 MalformedRequestContentRejection).
    const tagOf = (c: string) => (/[\u0000-\u001f]/.test(c) ? 'tag-control' : `tag${c}`);

    it('writes them, and every store-backed read of that project and of the others answers', async () => {
      // Another project's resource, written before the odd ones: its reads must keep answering.
      expect((await api.put('/v1/resources/o/plain/_/plain1', { '@context': ctx, name: 'plainword' })).status).to.equal(201);
      for (const [name, c] of ODD) {
        const path = `/v1/resources/o/odd/_/${enc(idOf(c))}`;
        const created = await api.put(path, {
          '@context': ctx,
          '@type': typeOf(c),
          name: `word${name.replace(/\W/g, '')} value${c}end`,
          knows: { '@id': idOf(' ') },
        });
        expect(created.status, `${name}: ${created.text}`).to.equal(201);
        expect(created.body['@id']).to.equal(idOf(c));
        const tagged = await api.post(`${path}/tags?rev=1`, { tag: tagOf(c), rev: 1 });
        expect(tagged.status, `${name}: ${tagged.text}`).to.be.oneOf([200, 201]);
      }
      // Written after them: the store's writer went past them.
      expect((await api.put('/v1/resources/o/plain/_/plain2', { '@context': ctx, name: 'plainword' })).status).to.equal(201);

      for (const [name, c] of ODD) {
        const path = `/v1/resources/o/odd/_/${enc(idOf(c))}`;
        const fetched = await api.get(path);
        expect([fetched.status, fetched.body['@id'], fetched.body['name']], name).to.deep.equal([200, idOf(c), `word${name.replace(/\W/g, '')} value${c}end`]);
        expect((await api.get(`${path}?tag=${enc(tagOf(c))}`)).status, name).to.equal(200);
        // The listing's `type` takes what an id may hold (a type of any other is 400, as such an id is).
        if (c === ' ' || c === 'é😀') {
          const byType = await api.get(`/v1/resources/o/odd?type=${enc(typeOf(c))}`);
          expect([byType.status, byType.body._total], `${name} by type`).to.deep.equal([200, 1]);
          expect(byType.body._results[0]['@id']).to.equal(idOf(c));
        }
        const byId = await api.get(`/v1/resources/o/odd?locate=${enc(idOf(c))}`);
        expect(byId.body._total, `${name} located`).to.equal(1);
        const q = await api.get(`/v1/resources/o/odd?q=word${name.replace(/\W/g, '')}`);
        expect([q.status, q.body._total], `${name} q`).to.deep.equal([200, 1]);
      }
      const sorted = await api.get(`/v1/resources/o/odd?sort=${enc('http://schema.org/name')}&size=50`);
      expect(sorted.status, sorted.text).to.equal(200);
      expect(sorted.body._results.map((r: { '@id': string }) => r['@id'])).to.have.members(ODD.map(([, c]) => idOf(c)));
      const incoming = await api.get(`/v1/resources/o/odd/_/${enc(idOf(' '))}/incoming`);
      // Every other one links to it (its own link to itself is not incoming).
      expect([incoming.status, incoming.body._total]).to.deep.equal([200, ODD.length - 1]);
      const outgoing = await api.get(`/v1/resources/o/odd/_/${enc(idOf('"'))}/outgoing`);
      expect(outgoing.body._results.map((r: { '@id': string }) => r['@id'])).to.deep.equal([idOf(' ')]);
      const sparql = await api.get(`/v1/views/o/odd/graph/sparql?query=${enc('SELECT ?s ?n WHERE { ?s <http://schema.org/name> ?n }')}`);
      expect(sparql.status, sparql.text).to.equal(200);
      expect(sparql.body.results.bindings.map((b: { n: { value: string } }) => b.n.value)).to.have.members(
        ODD.map(([name, c]) => `word${name.replace(/\W/g, '')} value${c}end`),
      );
      const types = await api.get(
        `/v1/views/o/odd/graph/sparql?query=${enc('SELECT DISTINCT ?t WHERE { ?s a ?t FILTER(STRSTARTS(STR(?t), "http://example.org/Odd")) }')}`,
      );
      // The store holds an IRI spelled (rdf/terms.ts: percent-encoded where SPARQL forbids the character).
      expect(types.body.results.bindings.map((b: { t: { value: string } }) => b.t.value)).to.have.members(ODD.map(([, c]) => spelledIri(typeOf(c))));
      // The other project's store-backed reads: listing sorted by a payload field, q, SPARQL, search.
      const plainSorted = await api.get(`/v1/resources/o/plain?sort=${enc('http://schema.org/name')}`);
      expect([plainSorted.status, plainSorted.body._total]).to.deep.equal([200, 2]);
      const plainQ = await api.get('/v1/resources/o/plain?q=plainword');
      expect([plainQ.status, plainQ.body._total]).to.deep.equal([200, 2]);
      const plainSparql = await api.get(`/v1/views/o/plain/graph/sparql?query=${enc('SELECT ?s WHERE { ?s <http://schema.org/name> "plainword" }')}`);
      expect([plainSparql.status, plainSparql.body.results?.bindings.length]).to.deep.equal([200, 2]);
      const search = await api.post('/v1/search/query', { query: { match: { name: 'plainword' } } });
      expect([search.status, search.body.hits?.total?.value]).to.deep.equal([200, 2]);
    });
  });
