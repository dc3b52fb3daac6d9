import { expect } from 'chai';
import type { GraphStore } from '../../src/store/GraphStore.js';
import { OxigraphGraphStore } from '../../src/store/OxigraphGraphStore.js';

/** Every implementation of the triple-store port passes this suite (the twin of the event-log contract). */
const subjects: { name: string; fresh(): Promise<GraphStore> }[] = [{ name: 'OxigraphGraphStore', fresh: async () => new OxigraphGraphStore() }];

const G1 = 'urn:test:g1';
const G2 = 'urn:test:g2';
const values = (rows: Record<string, { value: string } | undefined>[], name: string) => rows.map((r) => r[name]?.value).sort();

for (const subject of subjects) {
  describe(`GraphStore contract: ${subject.name}`, () => {
    let store: GraphStore;
    beforeEach(async () => {
      store = await subject.fresh();
      await store.load(`<urn:s:1> <urn:p> "one" <${G1}> .\n<urn:s:2> <urn:p> "two" <${G2}> .\n`);
      await store.loadGraph('urn:test:g3', Buffer.from('<urn:s:3> <urn:p> "three" .\n'));
    });

    it('loads N-Quads and N-Triples into named graphs, reads a graph back, counts quads', async () => {
      expect(await store.size()).to.equal(3);
      expect(await store.graph(G1)).to.equal('<urn:s:1> <urn:p> "one" .\n');
      expect(await store.graph('urn:test:none')).to.equal('');
      const rows = await store.select('SELECT ?o WHERE { GRAPH ?g { ?s <urn:p> ?o } }');
      expect(values(rows, 'o')).to.deep.equal(['one', 'three', 'two']);
    });

    it('updates and drops graphs', async () => {
      await store.update(`INSERT DATA { GRAPH <${G1}> { <urn:s:1> <urn:q> <urn:o> } }`);
      expect(await store.size()).to.equal(4);
      await store.dropGraphs([G1, 'urn:test:none']);
      expect(await store.size()).to.equal(2);
      expect(await store.graph(G1)).to.equal('');
    });

    it('restricts a query to its dataset before it runs: other graphs are out of reach whatever the query says', async () => {
      const dataset = { defaultGraphs: [G1], namedGraphs: [G1] };
      expect(values(await store.select('SELECT ?o WHERE { ?s <urn:p> ?o }', dataset), 'o')).to.deep.equal(['one']);
      expect(values(await store.select('SELECT ?o WHERE { GRAPH ?g { ?s <urn:p> ?o } }', dataset), 'o')).to.deep.equal(['one']);
      expect(await store.select(`SELECT ?o WHERE { GRAPH <${G2}> { ?s <urn:p> ?o } }`, dataset)).to.deep.equal([]);
      expect(values(await store.select('SELECT ?o WHERE { ?s <urn:p> ?o }', { defaultGraphs: [G1, G2], namedGraphs: [] }), 'o')).to.deep.equal(['one', 'two']);
      expect(await store.select('SELECT ?g WHERE { GRAPH ?g { ?s ?p ?o } }', { defaultGraphs: [G1, G2], namedGraphs: [] })).to.deep.equal([]);
    });

    it('refuses malformed input with an error and keeps its content', async () => {
      let failed = false;
      try {
        await store.update('INSERT DATA { nonsense');
      } catch {
        failed = true;
      }
      expect(failed).to.equal(true);
      expect(await store.size()).to.equal(3);
    });
  });
}
