import { expect } from 'chai';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { GraphStore } from '../../src/store/GraphStore.js';
import { OxigraphGraphStore } from '../../src/store/OxigraphGraphStore.js';

interface Subject {
  name: string;
  /** A store over `place` (kept between calls: a restart), holding at most `maxQuads`. */
  open(place: string, maxQuads?: number): Promise<GraphStore>;
  /** Damages what the store persisted at `place`, as a crash mid-write or a bad disk would. */
  damage(place: string): void;
}

/** Every implementation of the triple-store port passes this suite (the twin of the event-log contract). */
const subjects: Subject[] = [
  {
    name: 'OxigraphGraphStore',
    open: async (place, maxQuads) => new OxigraphGraphStore({ revisionFile: join(place, 'revisions.nq'), ...(maxQuads ? { maxQuads } : {}) }),
    damage: (place) => writeFileSync(join(place, 'revisions.nq'), '<urn:s> <urn:p> "unterminated <urn:g> .\n'.repeat(3)),
  },
];

const G1 = 'urn:test:g1';
const G2 = 'urn:test:g2';
const values = (rows: Record<string, { value: string } | undefined>[], name: string) => rows.map((r) => r[name]?.value).sort();

for (const subject of subjects) {
  describe(`GraphStore contract: ${subject.name}`, () => {
    let store: GraphStore;
    let place: string;
    beforeEach(async () => {
      place = mkdtempSync(join(tmpdir(), 'graph-store-'));
      store = await subject.open(place);
      await store.restore(undefined, 0);
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

    afterEach(async () => {
      await store.close();
      rmSync(place, { recursive: true, force: true });
    });

    const restart = async (mark: number | undefined) => {
      await store.close();
      store = await subject.open(place);
      return store.restore(mark, 0);
    };

    it('keeps revision graphs across a restart up to the checkpoint; derived content and later graphs are gone', async () => {
      await store.putGraph('urn:test:r1', '<urn:s:r> <urn:p> "first" .\n');
      const mark = store.checkpoint(true);
      await store.putGraph('urn:test:r2', '<urn:s:r> <urn:p> "second" .\n');
      await store.persist();
      expect(await restart(mark)).to.deep.equal({ restored: true });
      expect(await store.graph('urn:test:r1')).to.equal('<urn:s:r> <urn:p> "first" .\n');
      expect(await store.graph('urn:test:r2')).to.equal('');
      expect(await store.graph(G1)).to.equal('');
      expect(await store.size()).to.equal(1);
    });

    it('forgets persisted graphs when restored without a checkpoint, and a dropped graph stays dropped', async () => {
      await store.putGraph('urn:test:r1', '<urn:s:r> <urn:p> "first" .\n');
      await store.putGraph('urn:test:r2', '<urn:s:r> <urn:p> "second" .\n');
      await store.dropGraphs(['urn:test:r1']);
      const mark = store.checkpoint(true);
      expect(await restart(mark)).to.deep.equal({ restored: true });
      expect(await store.graph('urn:test:r1')).to.equal('');
      expect(await store.graph('urn:test:r2')).to.equal('<urn:s:r> <urn:p> "second" .\n');
      expect(await restart(undefined)).to.deep.equal({ restored: true });
      expect(await store.size()).to.equal(0);
    });

    it('says why it cannot restore a checkpoint it does not hold or cannot read, and starts empty', async () => {
      await store.putGraph('urn:test:r1', '<urn:s:r> <urn:p> "first" .\n');
      const mark = store.checkpoint(true);
      const beyond = await restart(mark + 1_000);
      expect(beyond.restored).to.equal(false);
      expect(await store.size()).to.equal(0);
      await store.putGraph('urn:test:r1', '<urn:s:r> <urn:p> "first" .\n');
      const again = store.checkpoint(true);
      await store.close();
      subject.damage(place);
      store = await subject.open(place);
      const damaged = await store.restore(again, 0);
      expect(damaged.restored).to.equal(false);
      expect(await store.size()).to.equal(0);
    });

    it('refuses room for content once it holds as many quads as it may', async () => {
      await store.close();
      store = await subject.open(place, 3);
      await store.restore(undefined, 0);
      await store.putGraph('urn:test:r1', '<urn:s:1> <urn:p> "1" .\n<urn:s:2> <urn:p> "2" .\n');
      await store.ensureRoom();
      await store.putGraph('urn:test:r2', '<urn:s:3> <urn:p> "3" .\n');
      let refused: unknown;
      await store.ensureRoom().catch((error: unknown) => (refused = error));
      expect(refused).to.have.property('type', 'StoreCapacityReached');
    });
  });
}
