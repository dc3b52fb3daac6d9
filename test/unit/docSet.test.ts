import { expect } from 'chai';
import { DocSet, postingsOf } from '../../src/search/dsl/DocSet.js';
import type { SearchDoc } from '../../src/search/dsl/fields.js';

const doc = (id: string, source: Record<string, unknown>): SearchDoc => ({ id, project: 'o/p', source: { '@id': id, ...source } });
const DOCS = [
  doc('urn:a', { name: 'red fox red', tags: ['Fox', 'dog'], n: 3, nested: { city: 'Oxford' } }),
  doc('urn:b', { name: 'blue fox', tags: 'dog', n: [3, 4], when: '2020-01-02' }),
  doc('urn:c', { name: 42, other: true }),
];

describe('search columns (DocSet)', () => {
  it("keeps a field's words as postings: documents ascending, how often each holds the word, field lengths", () => {
    const set = new DocSet(DOCS);
    const name = set.text('name');
    const at = (word: string) => {
      const p = postingsOf(name, word)!;
      return [...name.docs.subarray(p.start, p.end)].map((d, k) => [d, name.tf[p.start + k]]);
    };
    expect(at('red')).to.deep.equal([[0, 2]]);
    expect(at('fox')).to.deep.equal([
      [0, 1],
      [1, 1],
    ]);
    expect(postingsOf(name, 'green')).to.equal(undefined);
    expect([...name.lengths]).to.deep.equal([3, 2, 0]);
    expect(name.average).to.equal(2.5);
    // A number among the values is matched as one term, not as words.
    expect(name.hasOther).to.equal(true);
  });

  it('numbers each distinct aggregation key once, a document holding each of its keys once, and marks text', () => {
    const set = new DocSet(DOCS);
    const n = set.keys('n');
    const keysOf = (i: number) => [...n.ords.subarray(n.offsets[i]!, n.offsets[i + 1]!)].map((o) => n.keys[o]);
    expect([0, 1, 2].map(keysOf)).to.deep.equal([[3], [3, 4], []]);
    expect([...set.keys('tags').text]).to.deep.equal([1, 1, 0]);
    expect(set.keys('tags.keyword').keys).to.deep.equal(['Fox', 'dog']);
    expect(set.keys('when').keys).to.deep.equal([Date.UTC(2020, 0, 2)]);
  });

  it('hands out scores arrays of its size, filled, reusing those given back', () => {
    const set = new DocSet(DOCS);
    const a = set.scores(NaN);
    expect([...a]).to.deep.equal([NaN, NaN, NaN]);
    a[1] = 5;
    set.release(a);
    set.release(new Float64Array(7));
    const b = set.scores(0);
    expect(b).to.equal(a);
    expect([...b]).to.deep.equal([0, 0, 0]);
    const c = set.scores(1);
    expect(c).to.not.equal(a);
    expect(c).to.have.length(3);
  });

  it('lists every path holding values, nested ones dotted', () => {
    expect(new DocSet(DOCS).fieldPaths().sort()).to.deep.equal(['@id', 'n', 'name', 'nested.city', 'other', 'tags', 'when']);
  });

  it('drops the least recently used columns past its memory budget and reads them again, the same, when needed', () => {
    const set = new DocSet(DOCS, 1);
    const first = set.text('name');
    set.text('tags');
    const again = set.text('name');
    expect(again).to.not.equal(first);
    expect(again).to.deep.equal(first);
    const unbounded = new DocSet(DOCS);
    expect(unbounded.text('name')).to.equal(unbounded.text('name'));
  });
});
