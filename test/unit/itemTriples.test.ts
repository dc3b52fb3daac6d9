import { expect } from 'chai';
import type { ItemTriples } from '../../src/search/store/itemTriples.js';
import { itemTriplesUpdates, itemTriplesWrites, lastOfEach } from '../../src/search/store/itemTriples.js';

const item = (graph: string, node: string, triples: string | undefined, fresh: boolean): ItemTriples => ({ graph, node, triples, fresh });
const triple = (node: string, value: string) => `<${node}> <urn:p> "${value}" .\n`;

describe('the full text of a batch on the store (itemTriples)', () => {
  it("keeps each item's last triples in log order, fresh only when its creation is its one write in the batch", () => {
    const made = lastOfEach([
      item('urn:g1', 'urn:a', triple('urn:a', '1'), true),
      item('urn:g1', 'urn:b', triple('urn:b', '1'), true),
      item('urn:g2', 'urn:a', triple('urn:a', 'x'), true),
      item('urn:g1', 'urn:a', triple('urn:a', '2'), false),
      item('urn:g1', 'urn:c', undefined, false),
      item('urn:g1', 'urn:c', triple('urn:c', 'again'), true),
    ]);
    expect(made).to.deep.equal([
      item('urn:g1', 'urn:a', triple('urn:a', '2'), false),
      item('urn:g1', 'urn:b', triple('urn:b', '1'), true),
      item('urn:g2', 'urn:a', triple('urn:a', 'x'), true),
      item('urn:g1', 'urn:c', triple('urn:c', 'again'), false),
    ]);
  });

  it('a creation followed by a removal in one batch still removes (a takeover may have written the creation)', () => {
    expect(lastOfEach([item('urn:g', 'urn:a', triple('urn:a', '1'), true), item('urn:g', 'urn:a', undefined, false)])).to.deep.equal([
      item('urn:g', 'urn:a', undefined, false),
    ]);
  });

  it('removes set-wise per graph what non-fresh items held, then inserts every current item in one operation', () => {
    const [update, ...more] = itemTriplesUpdates([
      item('urn:g1', 'urn:a', triple('urn:a', '2'), false),
      item('urn:g1', 'urn:b', triple('urn:b', '1'), true),
      item('urn:g2', 'urn:a', undefined, false),
      item('urn:g1', 'urn:c', triple('urn:c', '1'), false),
    ]);
    expect(more).to.deep.equal([]);
    expect(update!.split(' ;\n')).to.deep.equal([
      'DELETE { GRAPH <urn:g1> { ?s ?p ?o } } WHERE { VALUES ?s { <urn:a> <urn:c> } GRAPH <urn:g1> { ?s ?p ?o } }',
      'DELETE { GRAPH <urn:g2> { ?s ?p ?o } } WHERE { VALUES ?s { <urn:a> } GRAPH <urn:g2> { ?s ?p ?o } }',
      `INSERT DATA {\nGRAPH <urn:g1> {\n${triple('urn:a', '2')}}\nGRAPH <urn:g1> {\n${triple('urn:b', '1')}}\nGRAPH <urn:g1> {\n${triple('urn:c', '1')}}\n}`,
    ]);
  });

  it('writes nothing for fresh items without triples, and nothing at all for no items', () => {
    expect(itemTriplesUpdates([item('urn:g', 'urn:a', undefined, true)])).to.deep.equal([]);
    expect(itemTriplesUpdates([])).to.deep.equal([]);
  });

  it('cuts a large batch into requests of about half a megabyte, each item whole in one of them', () => {
    const big = 'x'.repeat(100_000);
    const items = Array.from({ length: 12 }, (_, n) => item('urn:g', `urn:i${n}`, triple(`urn:i${n}`, big), n % 2 === 0));
    const updates = itemTriplesUpdates(items);
    expect(updates.length).to.equal(3);
    for (const update of updates) expect(update.length).to.be.below(600_000);
    // Each odd (not fresh) item is removed in the request that inserts it.
    for (const update of updates) {
      const removed = /VALUES \?s \{ ([^}]*) \}/.exec(update)![1]!.trim().split(' ');
      const inserted = [...update.matchAll(/^<(urn:i\d+)> <urn:p>/gm)].map((m) => `<${m[1]}>`);
      expect(removed).to.deep.equal(inserted.filter((node) => Number(node.slice(6, -1)) % 2 === 1));
    }
  });

  it("posts the selected graphs' triples by graph after removing what their non-fresh items held; the others as before", () => {
    const { updates, posts } = itemTriplesWrites(
      [
        item('urn:post', 'urn:a', triple('urn:a', '2'), false),
        item('urn:post', 'urn:b', triple('urn:b', '1'), true),
        item('urn:post', 'urn:c', undefined, false),
        item('urn:sparql', 'urn:a', triple('urn:a', 'x'), true),
      ],
      (graph) => graph === 'urn:post',
    );
    expect(updates).to.deep.equal([
      'DELETE { GRAPH <urn:post> { ?s ?p ?o } } WHERE { VALUES ?s { <urn:a> <urn:c> } GRAPH <urn:post> { ?s ?p ?o } } ;\n' +
        `INSERT DATA {\nGRAPH <urn:sparql> {\n${triple('urn:a', 'x')}}\n}`,
    ]);
    expect(posts).to.deep.equal([{ graph: 'urn:post', ntriples: triple('urn:a', '2') + triple('urn:b', '1') }]);
  });
});
