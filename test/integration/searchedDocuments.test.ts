import { expect } from 'chai';
import { TextIndex } from '../../src/search/TextIndex.js';
import { SearchedDocuments } from '../../src/search/SearchedDocuments.js';
import { DocSet } from '../../src/search/dsl/DocSet.js';
import { executeSearch } from '../../src/search/dsl/executeSearch.js';
import type { SearchResponse } from '../../src/search/dsl/executeSearch.js';

const WORDS = ['red', 'fox', 'blue', 'whale', 'green', 'hen', 'quick', 'brown'];
const CITIES = ['Oxford', 'Bern', 'Basel', 'Geneva'];

/** Searches of every kind of column: postings (words, phrases, prefixes), values, ordinals, field paths. */
const SEARCHES: unknown[] = [
  { size: 50, query: { match: { name: 'red fox' } } },
  { size: 50, query: { match_phrase: { name: 'quick brown' } } },
  {
    size: 50,
    query: { bool: { must: [{ match: { name: 'blue' } }], filter: [{ range: { age: { gte: 20, lt: 40 } } }] } },
    aggs: { c: { terms: { field: 'city.keyword' } } },
  },
  { size: 50, query: { query_string: { query: 'gre* OR hen' } } },
  { size: 50, query: { exists: { field: 'extra' } }, aggs: { n: { avg: { field: 'age' } }, k: { cardinality: { field: 'city.keyword' } } } },
  { size: 50, query: { term: { 'city.keyword': 'Bern' } }, sort: [{ age: 'desc' }] },
  { size: 0, aggs: { all: { terms: { field: 'city.keyword', size: 10 } } } },
];

/** Rounds scores: a carried column sums field lengths in another order than a fresh one. */
const comparable = (r: SearchResponse) => ({
  total: r.hits.total,
  hits: r.hits.hits.map((h) => [h._id, h._score === null ? null : Number(h._score.toFixed(9)), h.sort]),
  aggregations: r.aggregations,
});

describe('SearchedDocuments: the set a write leaves behind', () => {
  it('answers every search as a set read anew would, write after write (added, changed, deprecated, removed, brought back)', async () => {
    const index = TextIndex.open(':memory:');
    const documents = new SearchedDocuments(index);
    let seed = 11;
    const next = (n: number) => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % n;
    const put = (i: number, deprecated = false) => {
      const name = Array.from({ length: 1 + next(4) }, () => WORDS[next(WORDS.length)]).join(' ');
      const doc: Record<string, unknown> = { '@id': `urn:${i}`, name, age: 18 + next(40), city: CITIES[next(CITIES.length)], _deprecated: deprecated };
      if (next(3) === 0) doc['extra'] = { deep: next(5) };
      index.put({ node: `n${i}`, kind: 'resources', project: 'o/p', id: `urn:${i}`, contentSeq: 1, rev: 1, deprecated, doc, body: name });
    };
    for (let i = 0; i < 200; i++) put(i);
    let carried = 0;
    for (let step = 0; step < 40; step++) {
      // A first search reads the columns that the next sets carry over.
      const set = documents.of(['o/p']);
      const live = [...index.documents('resources', 'o/p').values()]
        .filter((d) => d['_deprecated'] !== true)
        .map((source) => ({ id: String(source['@id']), project: 'o/p', source }));
      const fresh = new DocSet(live);
      if (set.size !== set.live) carried++;
      for (const body of SEARCHES)
        expect(comparable(await executeSearch(body, set, () => 'i', 1)), `step ${step}: ${JSON.stringify(body)}`).to.deep.equal(
          comparable(await executeSearch(body, fresh, () => 'i', 1)),
        );
      for (let k = 0; k < 1 + next(6); k++) {
        const i = next(230);
        const action = next(4);
        if (action === 0) index.remove('resources', 'o/p', `n${i}`);
        else put(i, action === 1);
      }
    }
    // Some sets were carried over with gone documents in them, not all read anew.
    expect(carried).to.be.greaterThan(5);
    index.close();
  });

  it('carries the columns over rather than reading every document again', () => {
    const index = TextIndex.open(':memory:');
    const documents = new SearchedDocuments(index);
    const doc = (i: number, name: string) => ({ '@id': `urn:${i}`, name });
    for (let i = 0; i < 100; i++)
      index.put({
        node: `n${i}`,
        kind: 'resources',
        project: 'o/p',
        id: `urn:${i}`,
        contentSeq: 1,
        rev: 1,
        deprecated: false,
        doc: doc(i, 'red fox'),
        body: '',
      });
    const first = documents.of(['o/p']);
    const red = first.text('name');
    index.put({ node: 'n5', kind: 'resources', project: 'o/p', id: 'urn:5', contentSeq: 2, rev: 2, deprecated: false, doc: doc(5, 'blue whale'), body: '' });
    const second = documents.of(['o/p']);
    expect(second).to.not.equal(first);
    expect(documents.of(['o/p'])).to.equal(second);
    const carriedOver = second.text('name');
    expect(carriedOver).to.not.equal(red);
    expect(carriedOver.terms.get('whale')).to.be.a('number');
    // Another scope is a set of its own.
    expect(documents.of([])).to.not.equal(second);
    index.close();
  });

  it("keeps a set per scope, so that callers with different projects taking turns do not rebuild each other's, a bounded number of them", () => {
    const index = TextIndex.open(':memory:');
    const documents = new SearchedDocuments(index, 2);
    for (const project of ['o/a', 'o/b', 'o/c'])
      index.put({
        node: `n-${project}`,
        kind: 'resources',
        project,
        id: `urn:${project}`,
        contentSeq: 1,
        rev: 1,
        deprecated: false,
        doc: { '@id': project },
        body: '',
      });
    const a = documents.of(['o/a']);
    const b = documents.of(['o/a', 'o/b']);
    expect(documents.of(['o/a'])).to.equal(a);
    expect(documents.of(['o/a', 'o/b'])).to.equal(b);
    expect(documents.kept).to.equal(2);
    // A third scope drops the least recently searched (`o/a`), not the others.
    documents.of(['o/c']);
    expect(documents.kept).to.equal(2);
    expect(documents.of(['o/a', 'o/b'])).to.equal(b);
    expect(documents.of(['o/a'])).to.not.equal(a);
    index.close();
  });
});
