import { expect } from 'chai';
import { Rejection } from '../../src/kernel/Rejection.js';
import { executeSearch } from '../../src/search/dsl/executeSearch.js';
import type { SearchResponse } from '../../src/search/dsl/executeSearch.js';
import { documentTriples, searchGraphOf } from '../../src/search/store/searchGraph.js';
import { StoreSearchEngine } from '../../src/search/store/StoreSearchEngine.js';
import { FILL_TEXT_INDEX } from '../../src/search/store/storeSearch.js';
import { itemNode } from '../../src/store/graphNames.js';
import { SparqlHttpClient } from '../../src/store/SparqlHttpClient.js';
import { doc, DOCS } from '../support/searchFixture.js';
import type { SearchDoc } from '../../src/search/dsl/fields.js';
import { inProcessEngine, SearchService } from '../../src/search/SearchService.js';
import { SearchedDocuments } from '../../src/search/SearchedDocuments.js';
import { TextIndex } from '../../src/search/TextIndex.js';
import { clearVirtuoso, releaseVirtuoso, useVirtuoso } from '../support/virtuoso.js';

type Search = (body: unknown) => Promise<SearchResponse>;

/**
 * The fixed data set of the search DSL unit tests searched both ways: evaluated in process and
 * translated into SPARQL on the external store (Virtuoso), with the same hand-worked expectations
 * for every construct the translation covers, and a typed 400 for those it does not.
 */
describe('search query DSL over a fixed data set, in process and translated into SPARQL on the external store', function () {
  this.timeout(60_000);
  let store: StoreSearchEngine;
  const engines: Record<string, Search> = { 'in process': (body) => executeSearch(body, DOCS, (d) => `search-${d.project}`, 2) };
  before(async () => {
    const virtuoso = await useVirtuoso();
    await clearVirtuoso(virtuoso.server);
    const client = new SparqlHttpClient(virtuoso.server, { timeoutMillis: 20_000 });
    // Both ways in the same graphs (word triples, and texts for the text index): neither reads the other's.
    for (const d of DOCS)
      for (const indexed of [false, true])
        await client.update(
          `INSERT DATA { GRAPH <${searchGraphOf(d.project)}> {\n${documentTriples(itemNode('resources', d.project, d.id), d.source, indexed)}} }`,
        );
    await client.query(FILL_TEXT_INDEX, 'application/sparql-results+json');
    store = new StoreSearchEngine(client);
    engines['on the store'] = async (body) => (await store.search(body, ['o/a', 'o/b'])).response;
    const indexedStore = new StoreSearchEngine(client, true);
    engines['on the store, its text index'] = async (body) => (await indexedStore.search(body, ['o/a', 'o/b'])).response;
  });
  after(() => releaseVirtuoso());

  const both = (title: string, check: (search: Search) => Promise<void>) => {
    for (const name of ['in process', 'on the store', 'on the store, its text index']) it(`${title} (${name})`, () => check(engines[name]!));
  };
  const idsOf = (search: Search) => async (body: unknown) => (await search(body)).hits.hits.map((h) => h._id);
  const refusal = async (search: Search, body: unknown): Promise<Rejection> => {
    try {
      await search(body);
    } catch (error) {
      if (error instanceof Rejection) return error;
      throw error;
    }
    throw new Error(`accepted ${JSON.stringify(body)}`);
  };

  it("reads a project's documents back from the store (a default view searched as an aggregate view's member)", async () => {
    const own = (project: string) => DOCS.filter((d) => d.project === project).map((d) => ({ id: d.id, project, source: d.source }));
    const byId = (a: { id: string }, b: { id: string }) => (a.id < b.id ? -1 : 1);
    for (const project of ['o/a', 'o/b']) expect((await store.documents(project)).sort(byId)).to.deep.equal(own(project).sort(byId));
    expect(await store.documents('o/none')).to.deep.equal([]);
  });

  both('answers in the Elasticsearch response shape', async (search) => {
    const r = await search({ query: { ids: { values: ['urn:3'] } } });
    expect(r).to.include({ timed_out: false });
    expect(r._shards).to.deep.equal({ total: 2, successful: 2, skipped: 0, failed: 0 });
    expect(r.hits.total).to.deep.equal({ value: 1, relation: 'eq' });
    expect(r.hits.hits.map((h) => [h._id, h._score, h._source])).to.deep.equal([['urn:3', 1, DOCS[2]!.source]]);
    expect(r.hits.max_score).to.equal(1);
    expect((await search({})).hits.total).to.deep.equal({ value: 5, relation: 'eq' });
    const none = await search({ size: 0, query: { match: { name: 'smith' } } });
    expect(none.hits.hits).to.deep.equal([]);
    expect(none.hits.total).to.deep.equal({ value: 3, relation: 'eq' });
  });

  both('match: analysed words, any of them by default, all with operator and; ranked by relevance', async (search) => {
    const ids = idsOf(search);
    const r = await search({ query: { match: { name: 'SMITH oxford' } } });
    // Oxford is rarer than smith: the document holding it comes first.
    expect(r.hits.hits.map((h) => h._id)).to.deep.equal(['urn:5', 'urn:1', 'urn:2', 'urn:4']);
    expect(r.hits.max_score).to.equal(r.hits.hits[0]!._score);
    expect(await ids({ query: { match: { name: { query: 'smith records', operator: 'and' } } } })).to.deep.equal(['urn:4']);
    expect(await ids({ query: { match: { age: '30' } } })).to.deep.equal(['urn:1']);
    expect(await ids({ query: { match: { 'address.city': 'cambridge' } } })).to.deep.equal(['urn:2']);
  });

  both('term, terms, range, exists, prefix and ids', async (search) => {
    const ids = idsOf(search);
    expect(await ids({ query: { term: { 'city.keyword': 'Oxford' } } })).to.deep.equal(['urn:1']);
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
    expect(await ids({ query: { exists: { field: 'tags' } } })).to.deep.equal(['urn:1', 'urn:2']);
    expect(await ids({ query: { prefix: { name: 'smi' } } })).to.deep.equal(['urn:1', 'urn:2', 'urn:4']);
    expect(await ids({ query: { prefix: { 'name.keyword': 'Smith' } } })).to.deep.equal(['urn:4']);
    expect(await ids({ query: { ids: { values: ['urn:3', 'urn:9'] } } })).to.deep.equal(['urn:3']);
  });

  both('bool: must, filter, must_not, should', async (search) => {
    const ids = idsOf(search);
    expect(
      await ids({
        query: { bool: { must: [{ match: { name: 'smith' } }], filter: [{ term: { '@type.keyword': 'Person' } }], must_not: [{ term: { active: false } }] } },
      }),
    ).to.deep.equal(['urn:1']);
    const should = [{ term: { 'city.keyword': 'London' } }, { term: { 'city.keyword': 'Cambridge' } }, { range: { age: { gte: 40 } } }];
    expect((await ids({ query: { bool: { should } } })).sort()).to.deep.equal(['urn:2', 'urn:3']);
    expect((await search({ query: { bool: { filter: [{ term: { '@type.keyword': 'Dataset' } }] } } })).hits.hits.map((h) => [h._id, h._score])).to.deep.equal([
      ['urn:4', 0],
      ['urn:5', 0],
    ]);
    expect(await ids({ query: { bool: { must_not: [{ exists: { field: 'age' } }] } } })).to.deep.equal(['urn:4', 'urn:5']);
    expect(await ids({ query: { match_all: {} } })).to.have.length(5);
    const bools = (depth: number) => JSON.parse(`${'{"bool":{"must":['.repeat(depth)}{"match_all":{}}${']}}'.repeat(depth)}`) as unknown;
    expect(await ids({ query: bools(30) })).to.have.length(5);
  });

  both('from, size, sort, _source and track_total_hits', async (search) => {
    const ids = idsOf(search);
    const r = await search({ query: { match_all: {} }, from: 1, size: 2, sort: [{ age: 'desc' }] });
    expect(r.hits.hits.map((h) => [h._id, h._score, h.sort])).to.deep.equal([
      ['urn:1', null, [30]],
      ['urn:2', null, [25]],
    ]);
    expect(r.hits.max_score).to.equal(null);
    expect((await search({ sort: [{ born: { order: 'asc' } }] })).hits.hits.map((h) => h.sort)).to.deep.equal([
      [Date.UTC(1982, 0, 20)],
      [Date.UTC(1990, 4, 1)],
      [Date.UTC(1995, 6, 15)],
      [null],
      [null],
    ]);
    expect((await search({ sort: [{ age: { order: 'desc', missing: '_first' } }] })).hits.hits.map((h) => h._id)).to.deep.equal([
      'urn:4',
      'urn:5',
      'urn:3',
      'urn:1',
      'urn:2',
    ]);
    expect(await ids({ sort: ['name.keyword'] })).to.deep.equal(['urn:1', 'urn:2', 'urn:3', 'urn:5', 'urn:4']);
    expect((await search({ query: { ids: { values: ['urn:1'] } }, _source: ['name', 'address.*'] })).hits.hits[0]!._source).to.deep.equal({
      name: 'Alice Smith',
      address: { city: 'Oxford', zip: 'OX1' },
    });
    expect((await search({ query: { ids: { values: ['urn:2'] } }, _source: false })).hits.hits[0]).to.not.have.property('_source');
    expect((await search({ track_total_hits: 2 })).hits.total).to.deep.equal({ value: 2, relation: 'gte' });
    expect((await search({ track_total_hits: false })).hits).to.not.have.property('total');
    expect((await search({ track_total_hits: true })).hits.total).to.deep.equal({ value: 5, relation: 'eq' });
  });

  both('aggregations: terms, cardinality, value_count, min, max, avg, sum over the matches', async (search) => {
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
        top: { terms: { field: 'tags.keyword', size: 1 } },
        flags: { terms: { field: 'active' } },
      },
    });
    expect(r.aggregations).to.deep.equal({
      types: {
        doc_count_error_upper_bound: 0,
        sum_other_doc_count: 0,
        buckets: [
          { key: 'Person', doc_count: 3 },
          { key: 'Dataset', doc_count: 2 },
          { key: 'Archive', doc_count: 1 },
        ],
      },
      tags: { value: 2 },
      tagCount: { value: 3 },
      youngest: { value: 25 },
      oldest: { value: 41 },
      meanAge: { value: 32 },
      ages: { value: 96 },
      firstBorn: { value: Date.UTC(1982, 0, 20), value_as_string: '1982-01-20T00:00:00.000Z' },
      top: { doc_count_error_upper_bound: 0, sum_other_doc_count: 1, buckets: [{ key: 'dev', doc_count: 2 }] },
      flags: {
        doc_count_error_upper_bound: 0,
        sum_other_doc_count: 0,
        buckets: [
          { key: 1, key_as_string: 'true', doc_count: 2 },
          { key: 0, key_as_string: 'false', doc_count: 1 },
        ],
      },
    });
    expect((await search({ query: { term: { '@type.keyword': 'Dataset' } }, aggs: { s: { sum: { field: 'size' } } } })).aggregations).to.deep.equal({
      s: { value: 2000.5 },
    });
  });

  both('refuses too many clauses, unsupported constructs by name and malformed bodies', async (search) => {
    const should = Array.from({ length: 1_100 }, (_, i) => ({ term: { 'name.keyword': `n${i}` } }));
    expect((await refusal(search, { query: { bool: { should } } })).type).to.equal('TooManyClauses');
    for (const [body, construct] of [
      [{ query: { more_like_this: { like: 'x' } } }, 'more_like_this'],
      [{ aggs: { x: { significant_terms: { field: 'a' } } } }, 'significant_terms'],
      [{ highlight: { fields: {} } }, 'highlight'],
      [{ query: { range: { born: { gte: 'now-1d' } } } }, 'date math'],
      [{ sort: [{ age: { order: 'asc', mode: 'avg' } }] }, 'sort.mode'],
    ] as [unknown, string][]) {
      const r = await refusal(search, body);
      expect([r.type, r.fields['construct']], JSON.stringify(body)).to.deep.equal(['UnsupportedSearchConstruct', construct]);
    }
    for (const body of [[], { query: {} }, { query: { match: {} } }, { size: -1 }, { from: 9_995, size: 10 }, { query: { bool: { must: 'x' } } }])
      expect((await refusal(search, body)).type, JSON.stringify(body)).to.equal('MalformedSearchQuery');
    expect((await refusal(search, { aggs: { n: { terms: { field: 'name' } } } })).type).to.equal('MalformedSearchQuery');
    expect((await refusal(search, { sort: ['name'] })).type).to.equal('MalformedSearchQuery');
  });

  it('refuses, on the store only, the constructs it does not translate, each by name with a typed 400', async () => {
    const store = engines['on the store']!;
    const inProcess = engines['in process']!;
    const untranslated: [unknown, string][] = [
      [{ query: { match_phrase: { name: 'alice smith' } } }, 'match_phrase'],
      [{ query: { multi_match: { query: 'oxford', fields: ['name', 'city'] } } }, 'multi_match'],
      [{ query: { query_string: { query: 'smith' } } }, 'query_string'],
      [{ query: { wildcard: { name: 'c?rol' } } }, 'wildcard'],
      [{ query: { match: { name: { query: 'alice bob', minimum_should_match: 2 } } } }, 'match.minimum_should_match'],
      [{ query: { bool: { should: [{ match_all: {} }], minimum_should_match: 2 } } }, 'bool.minimum_should_match: 2'],
      [{ size: 0, aggs: { a: { filter: { term: { active: true } } } } }, 'filter'],
      [{ size: 0, aggs: { y: { date_histogram: { field: 'created', calendar_interval: 'year' } } } }, 'date_histogram'],
      [{ size: 0, aggs: { t: { terms: { field: 'tags.keyword' }, aggs: { n: { value_count: { field: 'name.keyword' } } } } } }, 'sub-aggregations'],
      [{ sort: ['_score', { age: 'asc' }] }, 'sort: _score with other keys'],
    ];
    for (const [body, construct] of untranslated) {
      await inProcess(body);
      const r = await refusal(store, body);
      expect([r.type, r.fields['construct']], JSON.stringify(body)).to.deep.equal(['UnsupportedSearchConstruct', construct]);
      expect(r.reason).to.contain('external triple store');
    }
  });

  it("with the store as its engine, the search API searches the store and builds no set of the text index's documents", async () => {
    const index = TextIndex.open(':memory:');
    // A document only the text index holds: an in-process search would find it.
    index.put({
      node: 'n',
      kind: 'resources',
      project: 'o/a',
      id: 'urn:local',
      contentSeq: 1,
      rev: 1,
      deprecated: false,
      doc: { '@id': 'urn:local', name: 'Alice' },
      body: 'Alice',
    });
    const service = new SearchService(
      store,
      () => undefined,
      () => ['o/a', 'o/b'],
      { suites: {} },
    );
    const found = await service.query({ query: { match: { name: 'alice' } } }, { mode: 'all' });
    expect(found.hits.hits.map((h) => h._id)).to.deep.equal(['urn:1']);
    const inProcess = new SearchService(
      inProcessEngine(new SearchedDocuments(index), undefined),
      (p) => index.positionOf(p),
      () => ['o/a', 'o/b'],
      {
        suites: {},
      },
    );
    expect((await inProcess.query({ query: { match: { name: 'alice' } } }, { mode: 'all' })).hits.hits.map((h) => h._id)).to.deep.equal(['urn:local']);
    index.close();
  });
});

/**
 * Where the texts found by Virtuoso's free-text index could part from the word triples: words it does
 * not keep (longer than it keeps, not Latin), words of its query syntax, values that are no word,
 * prefixes with other characters or too short for its wildcard, field names searched as words. Each
 * query's hits and scores with the index as without it.
 */
describe("the search API's words in the store's text index find what its word triples find", function () {
  this.timeout(60_000);
  const long = 'a'.repeat(45);
  const edge: SearchDoc[] = [
    doc('o/t', { '@id': 'urn:t1', name: `Tom ${long}b`, note: 'name type', tags: ['Ελληνικά λέξη', 'x-ray'] }),
    doc('o/t', { '@id': 'urn:t2', name: 'Tommy Lee', note: 'the name', tags: ['日本語'] }),
    doc('o/t', { '@id': 'urn:t3', name: 'Lee Tom', note: 'Ray of light and not near', tags: ['ray', 'λέξη'] }),
    doc('o/t', { '@id': 'urn:t4', name: 'naïve café', note: 'crème brûlée', type: 'name' }),
  ];
  const searches: Record<string, (body: unknown) => Promise<SearchResponse>> = {};
  before(async () => {
    const virtuoso = await useVirtuoso();
    await clearVirtuoso(virtuoso.server);
    const client = new SparqlHttpClient(virtuoso.server, { timeoutMillis: 20_000 });
    for (const indexed of [false, true]) {
      const project = indexed ? 'o/indexed' : 'o/words';
      for (const d of edge)
        await client.update(
          `INSERT DATA { GRAPH <${searchGraphOf(project)}> {\n${documentTriples(itemNode('resources', project, d.id), d.source, indexed)}} }`,
        );
      const store = new StoreSearchEngine(client, indexed);
      searches[project] = async (body) => (await store.search(body, [project])).response;
    }
    await client.query(FILL_TEXT_INDEX, 'application/sparql-results+json');
  });
  after(() => releaseVirtuoso());

  const queries: unknown[] = [
    { match: { name: 'tom' } },
    { match: { name: long } },
    { match: { name: `${long}b` } },
    { match: { tags: 'λέξη' } },
    { match: { tags: '日本語 ray' } },
    { match: { tags: { query: 'x ray', operator: 'and' } } },
    { match: { note: 'name' } },
    // Words of Virtuoso's free-text syntax.
    { match: { note: 'and' } },
    { match: { note: { query: 'not near', operator: 'and' } } },
    { match: { name: 'naïve' } },
    { match: { note: 'brûlée' } },
    { term: { note: 'name' } },
    { term: { note: 'Name' } },
    { term: { note: 'the name' } },
    { terms: { tags: ['ray', 'λέξη', 'x-ray'] } },
    { prefix: { name: 'tom' } },
    { prefix: { name: 'Tomm' } },
    { prefix: { name: 'aaaa' } },
    { prefix: { name: long } },
    { prefix: { name: 'lee t' } },
    { prefix: { tags: 'λέ' } },
    { prefix: { note: 'crèm' } },
    { bool: { should: [{ term: { note: 'the name' } }, { match: { name: 'lee' } }] } },
    { bool: { should: [{ term: { note: 'Name' } }, { prefix: { name: 'tom' } }] } },
    { bool: { must_not: [{ match: { tags: 'ray' } }] } },
  ];
  for (const query of queries)
    it(JSON.stringify(query), async () => {
      const hits = (r: SearchResponse) => r.hits.hits.map((h) => [h._id, h._score]);
      const [words, indexed] = [await searches['o/words']!({ query }), await searches['o/indexed']!({ query })];
      expect(hits(indexed)).to.deep.equal(hits(words));
      expect(indexed.hits.total).to.deep.equal(words.hits.total);
    });

  it('an empty prefix finds the documents holding a word in the field, as in process (Virtuoso finds none by STRSTARTS over the word triples)', async () => {
    const query = { prefix: { name: '' } };
    const hits = (r: SearchResponse) => r.hits.hits.map((h) => [h._id, h._score]);
    expect(hits(await searches['o/indexed']!({ query }))).to.deep.equal(hits(await executeSearch({ query }, edge, () => 'search', 2)));
    expect(hits(await searches['o/words']!({ query }))).to.deep.equal([]);
  });

  it('sorting by a text field is refused with the index as without it', async () => {
    for (const project of ['o/words', 'o/indexed']) {
      const refused = await searches[project]!({ query: { match: { name: 'tom' } }, sort: [{ name: 'asc' }] }).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(refused, project).to.be.instanceOf(Rejection);
    }
  });
});
