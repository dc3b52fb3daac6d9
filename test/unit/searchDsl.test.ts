import { expect } from 'chai';
import { COLUMN_READ_BUDGETS, executeSearch, searchWithDocuments } from '../../src/search/dsl/executeSearch.js';
import { DocSet } from '../../src/search/dsl/DocSet.js';
import { Rejection } from '../../src/kernel/Rejection.js';
import { doc, DOCS } from '../support/searchFixture.js';

const search = (body: unknown) => executeSearch(body, DOCS, (d) => `search-${d.project}`, 2);
const ids = async (body: unknown) => (await search(body)).hits.hits.map((h) => h._id);
const refused = async (body: unknown): Promise<Rejection> => {
  try {
    await search(body);
  } catch (error) {
    if (error instanceof Rejection) return error;
    throw error;
  }
  throw new Error(`accepted ${JSON.stringify(body)}`);
};

describe('search query DSL over a fixed data set', () => {
  it('answers in the Elasticsearch response shape', async () => {
    const r = await search({ query: { ids: { values: ['urn:3'] } } });
    expect(r).to.include({ timed_out: false });
    expect(r.took).to.be.a('number');
    expect(r._shards).to.deep.equal({ total: 2, successful: 2, skipped: 0, failed: 0 });
    expect(r.hits.total).to.deep.equal({ value: 1, relation: 'eq' });
    expect(r.hits.hits).to.deep.equal([{ _index: 'search-o/a', _id: 'urn:3', _score: 1, _source: DOCS[2]!.source }]);
    expect(r.hits.max_score).to.equal(1);
    expect((await search({})).hits.total).to.deep.equal({ value: 5, relation: 'eq' });
    const none = await search({ size: 0, query: { match: { name: 'smith' } } });
    expect(none.hits.hits).to.deep.equal([]);
    expect(none.hits.total).to.deep.equal({ value: 3, relation: 'eq' });
  });

  it('match: analysed words, any of them by default, all with operator and; BM25 scores', async () => {
    const r = await search({ query: { match: { name: 'SMITH' } } });
    expect(r.hits.hits.map((h) => h._id)).to.deep.equal(['urn:1', 'urn:2', 'urn:4']);
    // idf = ln(1 + (5 - 3 + 0.5) / (3 + 0.5)); avgdl = 11 / 5; two-word name: tf 1, dl 2.
    const idf = Math.log(1 + 2.5 / 3.5);
    const twoWords = (idf * 2.2) / (1 + 1.2 * (0.25 + (0.75 * 2) / 2.2));
    expect(r.hits.hits[0]!._score).to.be.closeTo(twoWords, 1e-9);
    expect(r.hits.max_score).to.be.closeTo(twoWords, 1e-9);
    expect(r.hits.hits[2]!._score).to.be.below(twoWords);
    expect(await ids({ query: { match: { name: { query: 'smith records', operator: 'and' } } } })).to.deep.equal(['urn:4']);
    expect(await ids({ query: { match: { name: { query: 'alice bob carol', minimum_should_match: 2 } } } })).to.deep.equal([]);
    expect(await ids({ query: { match: { age: '30' } } })).to.deep.equal(['urn:1']);
    expect(await ids({ query: { match: { 'address.city': 'cambridge' } } })).to.deep.equal(['urn:2']);
  });

  it('match_phrase, multi_match and query_string', async () => {
    expect(await ids({ query: { match_phrase: { name: 'alice smith' } } })).to.deep.equal(['urn:1']);
    expect(await ids({ query: { match_phrase: { name: 'smith alice' } } })).to.deep.equal([]);
    expect((await ids({ query: { multi_match: { query: 'oxford', fields: ['name', 'city'] } } })).sort()).to.deep.equal(['urn:1', 'urn:5']);
    expect(await ids({ query: { multi_match: { query: 'records', fields: ['name^3', 'keywords'] } } })).to.deep.equal(['urn:4', 'urn:5']);
    expect((await ids({ query: { query_string: { query: 'name:smith AND NOT bob' } } })).sort()).to.deep.equal(['urn:1', 'urn:4']);
    expect((await ids({ query: { query_string: { query: '"family records" OR carol' } } })).sort()).to.deep.equal(['urn:3', 'urn:4']);
    expect((await ids({ query: { query_string: { query: 'oxf*' } } })).sort()).to.deep.equal(['urn:1', 'urn:5']);
    expect((await ids({ query: { query_string: { query: 'smith -family', default_field: 'name' } } })).sort()).to.deep.equal(['urn:1', 'urn:2']);
    expect(await ids({ query: { query_string: { query: '(alice OR carol) AND +london' } } })).to.deep.equal(['urn:3']);
  });

  it('term, terms, range, exists, prefix, wildcard and ids', async () => {
    expect(await ids({ query: { term: { 'city.keyword': 'Oxford' } } })).to.deep.equal(['urn:1']);
    // A text field holds lower-cased words: the unanalysed term must be one of them.
    expect(await ids({ query: { term: { city: 'Oxford' } } })).to.deep.equal([]);
    expect(await ids({ query: { term: { city: 'oxford' } } })).to.deep.equal(['urn:1']);
    expect(await ids({ query: { term: { active: true } } })).to.deep.equal(['urn:1', 'urn:3']);
    expect(await ids({ query: { term: { age: { value: 30 } } } })).to.deep.equal(['urn:1']);
    expect(await ids({ query: { terms: { 'tags.keyword': ['admin', 'nobody'] } } })).to.deep.equal(['urn:1']);
    expect(await ids({ query: { terms: { tags: ['dev'] } } })).to.deep.equal(['urn:1', 'urn:2']);
    expect(await ids({ query: { range: { age: { gte: 25, lt: 41 } } } })).to.deep.equal(['urn:1', 'urn:2']);
    expect(await ids({ query: { range: { born: { gte: '1990-01-01' } } } })).to.deep.equal(['urn:1', 'urn:2']);
    expect(await ids({ query: { range: { created: { lt: '2021-01-01T00:00:00Z' } } } })).to.deep.equal(['urn:4']);
    expect(await ids({ query: { range: { size: { gt: 800 } } } })).to.deep.equal(['urn:4']);
    expect(await ids({ query: { exists: { field: 'address' } } })).to.deep.equal(['urn:1', 'urn:2']);
    // An empty array is no value.
    expect(await ids({ query: { exists: { field: 'tags' } } })).to.deep.equal(['urn:1', 'urn:2']);
    expect(await ids({ query: { prefix: { name: 'smi' } } })).to.deep.equal(['urn:1', 'urn:2', 'urn:4']);
    expect(await ids({ query: { prefix: { 'name.keyword': 'Smith' } } })).to.deep.equal(['urn:4']);
    expect(await ids({ query: { wildcard: { 'name.keyword': { value: '*Smith' } } } })).to.deep.equal(['urn:1', 'urn:2']);
    expect(await ids({ query: { wildcard: { name: 'c?rol' } } })).to.deep.equal(['urn:3']);
    expect(await ids({ query: { ids: { values: ['urn:3', 'urn:9'] } } })).to.deep.equal(['urn:3']);
  });

  it('bool: must, filter, must_not, should and minimum_should_match', async () => {
    expect(
      await ids({
        query: { bool: { must: [{ match: { name: 'smith' } }], filter: [{ term: { '@type.keyword': 'Person' } }], must_not: [{ term: { active: false } }] } },
      }),
    ).to.deep.equal(['urn:1']);
    const should = [{ term: { 'city.keyword': 'London' } }, { term: { 'city.keyword': 'Cambridge' } }, { range: { age: { gte: 40 } } }];
    expect(await ids({ query: { bool: { should, minimum_should_match: 2 } } })).to.deep.equal(['urn:3']);
    expect(await ids({ query: { bool: { should } } })).to.deep.equal(['urn:3', 'urn:2']);
    // With a filter, should clauses are optional and only score.
    expect((await search({ query: { bool: { filter: [{ term: { '@type.keyword': 'Dataset' } }] } } })).hits.hits.map((h) => [h._id, h._score])).to.deep.equal([
      ['urn:4', 0],
      ['urn:5', 0],
    ]);
    expect(await ids({ query: { bool: { must_not: [{ exists: { field: 'age' } }] } } })).to.deep.equal(['urn:4', 'urn:5']);
    expect(await ids({ query: { match_all: {} } })).to.have.length(5);
  });

  it('from, size, sort, _source and track_total_hits', async () => {
    const r = await search({ query: { match_all: {} }, from: 1, size: 2, sort: [{ age: 'desc' }] });
    expect(r.hits.hits.map((h) => [h._id, h._score, h.sort])).to.deep.equal([
      ['urn:1', null, [30]],
      ['urn:2', null, [25]],
    ]);
    expect(r.hits.max_score).to.equal(null);
    // Missing values sort last in both directions; dates sort as epoch millis.
    expect((await search({ sort: [{ born: { order: 'asc' } }] })).hits.hits.map((h) => h.sort)).to.deep.equal([
      [Date.UTC(1982, 0, 20)],
      [Date.UTC(1990, 4, 1)],
      [Date.UTC(1995, 6, 15)],
      [null],
      [null],
    ]);
    expect(await ids({ sort: ['name.keyword'] })).to.deep.equal(['urn:1', 'urn:2', 'urn:3', 'urn:5', 'urn:4']);
    expect((await search({ query: { ids: { values: ['urn:1'] } }, _source: ['name', 'address.*'] })).hits.hits[0]!._source).to.deep.equal({
      name: 'Alice Smith',
      address: { city: 'Oxford', zip: 'OX1' },
    });
    expect((await search({ query: { ids: { values: ['urn:2'] } }, _source: { excludes: ['address', 'tags', '@*'] } })).hits.hits[0]!._source).to.deep.equal({
      name: 'Bob Smith',
      age: 25,
      city: 'Cambridge',
      born: '1995-07-15',
      active: false,
    });
    expect((await search({ query: { ids: { values: ['urn:2'] } }, _source: false })).hits.hits[0]).to.not.have.property('_source');
    expect((await search({ track_total_hits: 2 })).hits.total).to.deep.equal({ value: 2, relation: 'gte' });
    expect((await search({ track_total_hits: false })).hits).to.not.have.property('total');
    expect((await search({ track_total_hits: true })).hits.total).to.deep.equal({ value: 5, relation: 'eq' });
  });

  it('aggregations: terms, cardinality, value_count, min, max, avg, sum, filter and date_histogram', async () => {
    const r = await search({
      size: 0,
      aggs: {
        types: { terms: { field: '@type.keyword' } },
        tags: { cardinality: { field: 'tags.keyword' } },
        tagCount: { value_count: { field: 'tags.keyword' } },
        youngest: { min: { field: 'age' } },
        oldest: { max: { field: 'age' } },
        meanAge: { avg: { field: 'age' } },
        ages: { sum: { field: 'age' } },
        firstBorn: { min: { field: 'born' } },
        active: { filter: { term: { active: true } }, aggs: { meanAge: { avg: { field: 'age' } } } },
        byYear: { date_histogram: { field: 'created', calendar_interval: 'year' } },
        top: { terms: { field: 'tags.keyword', size: 1 }, aggs: { people: { value_count: { field: 'name.keyword' } } } },
      },
    });
    expect(r.aggregations).to.deep.equal({
      types: {
        doc_count_error_upper_bound: 0,
        sum_other_doc_count: 0,
        buckets: [
          { key: 'Dataset', doc_count: 2 },
          { key: 'Person', doc_count: 3 },
          { key: 'Archive', doc_count: 1 },
        ].sort((a, b) => b.doc_count - a.doc_count),
      },
      tags: { value: 2 },
      tagCount: { value: 3 },
      youngest: { value: 25 },
      oldest: { value: 41 },
      meanAge: { value: 32 },
      ages: { value: 96 },
      firstBorn: { value: Date.UTC(1982, 0, 20), value_as_string: '1982-01-20T00:00:00.000Z' },
      active: { doc_count: 2, meanAge: { value: 35.5 } },
      byYear: {
        buckets: [
          { key_as_string: '2020-01-01T00:00:00.000Z', key: Date.UTC(2020, 0, 1), doc_count: 1 },
          { key_as_string: '2021-01-01T00:00:00.000Z', key: Date.UTC(2021, 0, 1), doc_count: 1 },
        ],
      },
      top: { doc_count_error_upper_bound: 0, sum_other_doc_count: 1, buckets: [{ key: 'dev', doc_count: 2, people: { value: 2 } }] },
    });
    // Empty intervals between the first and last bucket are filled.
    const born = (await search({ size: 0, aggs: { y: { date_histogram: { field: 'born', calendar_interval: 'year' } } } })).aggregations!['y'] as {
      buckets: { doc_count: number }[];
    };
    expect(born.buckets.map((b) => b.doc_count)).to.deep.equal([1, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]);
    // Aggregations cover the matching documents only.
    expect((await search({ query: { term: { '@type.keyword': 'Dataset' } }, aggs: { s: { sum: { field: 'size' } } } })).aggregations).to.deep.equal({
      s: { value: 2000.5 },
    });
  });

  it('refuses a histogram with more buckets than Elasticsearch allows (TooManyBuckets) instead of filling billions of empty ones', async () => {
    const far = [doc('o/c', { '@id': 'urn:early', on: '0001-01-01' }), doc('o/c', { '@id': 'urn:late', on: '9999-12-31' })];
    let refusal: unknown;
    try {
      await executeSearch({ size: 0, aggs: { m: { date_histogram: { field: 'on', calendar_interval: 'minute' } } } }, far, () => 'search-o/c', 1);
    } catch (error) {
      refusal = error;
    }
    expect(refusal).to.be.instanceOf(Rejection).and.to.have.property('type', 'TooManyBuckets');
  });

  it('refuses a query of more clauses than Elasticsearch allows (TooManyClauses), before it runs', async () => {
    const should = Array.from({ length: 1_100 }, (_, i) => ({ term: { 'name.keyword': `n${i}` } }));
    expect((await refused({ query: { bool: { should } } })).type).to.equal('TooManyClauses');
    expect((await search({ query: { bool: { should: should.slice(0, 1_000) } } })).hits.total).to.deep.equal({ value: 0, relation: 'eq' });
  });

  it('stops a search that outlives its time budget (SearchTimedOut) instead of holding the event loop', async () => {
    const many = Array.from({ length: 5_000 }, (_, i) => doc('o/t', { '@id': `urn:t${i}`, name: `item ${i}`, text: 'a'.repeat(200) }));
    const slow = { query: { bool: { should: Array.from({ length: 1_000 }, (_, i) => ({ wildcard: { text: `*a*a*a*${i}*` } })) } } };
    let refusal: unknown;
    try {
      await executeSearch(slow, many, () => 'search-o/t', 1, 1);
    } catch (error) {
      refusal = error;
    }
    expect(refusal).to.be.instanceOf(Rejection).and.to.have.property('type', 'SearchTimedOut');
    // Aggregations are bounded too, each one and those of every bucket.
    const aggs = Object.fromEntries(Array.from({ length: 2_000 }, (_, i) => [`a${i}`, { terms: { field: 'name.keyword', size: 10 } }]));
    let aggregated: unknown;
    try {
      await executeSearch({ size: 0, aggs }, many, () => 'search-o/t', 1, 1);
    } catch (error) {
      aggregated = error;
    }
    expect(aggregated).to.be.instanceOf(Rejection).and.to.have.property('type', 'SearchTimedOut');
  });

  it('does not charge a search with reading columns kept for later searches (within bounds): the first search after a restart is answered', async () => {
    // Many words a document (a costly column of postings to read), few holding the one asked for (a quick lookup).
    const words = (i: number) => Array.from({ length: 20 }, (_, k) => `w${(i * 31 + k * 7) % 50_000}`).join(' ');
    const many = Array.from({ length: 20_000 }, (_, i) => doc('o/t', { '@id': `urn:t${i}`, note: i === 7 ? 'needle' : words(i) }));
    const body = { query: { match: { note: 'needle' } } };
    // How long reading the columns this search needs takes here, the machine's pace varying.
    const probe = new DocSet(many);
    await searchWithDocuments(body, probe, () => 'search-o/t', 1);
    const read = probe.readMillis;
    // A budget a third of that: the reading is forgiven (up to COLUMN_READ_BUDGETS budgets), the lookup is not long.
    const budget = Math.max(1, read / 3);
    const fresh = new DocSet(many);
    const { response } = await searchWithDocuments(body, fresh, () => 'search-o/t', 1, budget);
    expect(response.hits.hits.map((h) => h._id)).to.deep.equal(['urn:t7']);
    expect(fresh.readMillis).to.be.greaterThan(budget);
    expect(read).to.be.lessThan(budget * COLUMN_READ_BUDGETS);
  });

  it('refuses nesting past a depth (TooDeeplyNested) before recursing into it: query_string groups, bools, sub-aggregations', async () => {
    expect((await refused({ query: { query_string: { query: `${'('.repeat(5_000)}a${')'.repeat(5_000)}` } } })).type).to.equal('TooDeeplyNested');
    expect((await refused({ query: { query_string: { query: `${'('.repeat(33)}a${')'.repeat(33)}` } } })).type).to.equal('TooDeeplyNested');
    expect(await ids({ query: { query_string: { query: `${'('.repeat(32)}carol${')'.repeat(32)}` } } })).to.deep.equal(['urn:3']);
    const bools = (depth: number) => JSON.parse(`${'{"bool":{"must":['.repeat(depth)}{"match_all":{}}${']}}'.repeat(depth)}`) as unknown;
    expect((await refused({ query: bools(5_000) })).type).to.equal('TooDeeplyNested');
    expect(await ids({ query: bools(30) })).to.have.length(5);
    const aggs = JSON.parse(`${'{"t":{"terms":{"field":"name.keyword"},"aggs":'.repeat(5_000)}{}${'}}'.repeat(5_000)}`) as unknown;
    expect((await refused({ size: 0, aggs })).type).to.equal('TooDeeplyNested');
  });

  it('refuses every construct it does not evaluate, by name, and malformed ones', async () => {
    const cases: [unknown, string][] = [
      [{ query: { more_like_this: { like: 'x' } } }, 'more_like_this'],
      [{ query: { bool: { must: [{ fuzzy: { name: 'x' } }] } } }, 'fuzzy'],
      [{ aggs: { x: { significant_terms: { field: 'a' } } } }, 'significant_terms'],
      [{ highlight: { fields: {} } }, 'highlight'],
      [{ query: { match: { name: { query: 'x', fuzziness: 2 } } } }, 'match.fuzziness'],
      [{ query: { query_string: { query: 'name:x~2' } } }, "query_string fuzzy or proximity '~'"],
      [{ query: { query_string: { query: 'age:[1 TO 5]' } } }, "query_string range '[a TO b]'"],
      [{ query: { range: { born: { gte: 'now-1d' } } } }, 'date math'],
      [{ sort: [{ age: { order: 'asc', mode: 'avg' } }] }, 'sort.mode'],
      [{ aggs: { h: { date_histogram: { field: 'born', fixed_interval: '30d' } } } }, 'date_histogram.fixed_interval'],
    ];
    for (const [body, construct] of cases) {
      const r = await refused(body);
      expect(r.type, JSON.stringify(body)).to.equal('UnsupportedSearchConstruct');
      expect(r.fields['construct']).to.equal(construct);
      expect(r.reason).to.contain(construct);
    }
    for (const body of [
      [],
      { query: {} },
      { query: { match: {} } },
      { size: -1 },
      { from: 9_995, size: 10 },
      { aggs: { n: { terms: { field: 'name' } } } },
      { sort: ['name'] },
      { query: { bool: { must: 'x' } } },
    ])
      expect((await refused(body)).type, JSON.stringify(body)).to.equal('MalformedSearchQuery');
  });
});
