import { expect } from 'chai';
import { CatalogueIndex } from '../../src/catalogue/CatalogueIndex.js';
import type { CatalogueItem } from '../../src/catalogue/catalogue.js';
import { catalogueTriples } from '../../src/catalogue/catalogue.js';
import type { ListingFilter } from '../../src/catalogue/ListingQuery.js';
import type { RankedQuery, RankedResult, TextMatch, TextMatcher } from '../../src/catalogue/textRanking.js';
import { cursorPosition, rankMatches, scoreCursor } from '../../src/catalogue/textRanking.js';
import type { JsonObject } from '../../src/kernel/json.js';
import { words } from '../../src/kernel/analyzer.js';
import { EmbeddedTextMatcher } from '../../src/search/EmbeddedTextMatcher.js';
import { searchableText } from '../../src/search/searchDocument.js';
import { StoreTextMatcher } from '../../src/search/store/StoreTextMatcher.js';
import { textGraphOf, textTriples } from '../../src/search/store/textGraph.js';
import { TextIndex } from '../../src/search/TextIndex.js';
import { CATALOGUE, itemNode, revisionGraph } from '../../src/store/graphNames.js';
import { SparqlHttpClient } from '../../src/store/SparqlHttpClient.js';
import { clearVirtuoso, releaseVirtuoso, useVirtuoso } from '../support/virtuoso.js';

interface Item {
  kind: string;
  project: string;
  id: string;
  payload: JsonObject;
  /** Its catalogue entry's fields (what a ranked listing's conditions read). */
  deprecated?: boolean;
  types?: string[];
  createdBy?: string;
  createdAt?: string;
}

interface Subject {
  name: string;
  /** A matcher over these items (and nothing else), the catalogue holding them as `catalogue` does. */
  open(items: Item[], catalogue: CatalogueIndex): Promise<TextMatcher>;
  close(): Promise<void>;
}

const bodyOf = (item: Item) => searchableText(item.id, item.payload);

const U1 = 'http://127.0.0.1/v1/realms/r/users/one';
const U2 = 'http://127.0.0.1/v1/realms/r/users/two';
const T1 = 'http://s/Heron';
const T2 = 'http://s/Bird';

const catalogueItem = (item: Item): CatalogueItem => ({
  kind: item.kind,
  project: item.project,
  id: item.id,
  rev: 1,
  deprecated: item.deprecated ?? false,
  types: item.types ?? [],
  schema: 'http://ex.org/schema',
  createdAt: item.createdAt ?? '2026-01-01T00:00:00.000Z',
  createdBy: item.createdBy ?? U1,
  updatedAt: item.createdAt ?? '2026-01-01T00:00:00.000Z',
  updatedBy: item.createdBy ?? U1,
  head: revisionGraph(item.kind, item.project, item.id, 1),
  links: [],
});

const subjects: Subject[] = [
  (() => {
    let index: TextIndex | undefined;
    return {
      name: 'embedded (SQLite FTS5)',
      open: async (items: Item[], catalogue: CatalogueIndex) => {
        index = TextIndex.open(':memory:');
        for (const [at, item] of items.entries())
          index.put({
            ...item,
            node: itemNode(item.kind, item.project, item.id),
            contentSeq: at + 1,
            rev: 1,
            deprecated: false,
            doc: item.payload,
            body: bodyOf(item),
          });
        return new EmbeddedTextMatcher(index, catalogue);
      },
      close: async () => index?.close(),
    };
  })(),
  ...[false, true].map((indexed) => {
    let used = false;
    return {
      name: indexed ? 'external store (Virtuoso, its free-text index)' : 'external store (Virtuoso, word triples)',
      open: async (items: Item[]) => {
        const virtuoso = await useVirtuoso();
        used = true;
        await clearVirtuoso(virtuoso.server);
        const client = new SparqlHttpClient(virtuoso.server, { timeoutMillis: 20_000 });
        for (const item of items)
          await client.update(
            `INSERT DATA { GRAPH <${textGraphOf(item.kind, item.project)}> {\n${textTriples(itemNode(item.kind, item.project, item.id), bodyOf(item), indexed)}} }`,
          );
        await client.update(`INSERT DATA { GRAPH <${CATALOGUE}> {\n${items.map((i) => catalogueTriples(catalogueItem(i))).join('')}} }`);
        // As the store's writer does after a batch (storeSearch.ts).
        if (indexed) await client.query('SELECT (<sql:VT_INC_INDEX_DB_DBA_RDF_OBJ>() AS ?done) WHERE {}', 'application/sparql-results+json');
        return new StoreTextMatcher(client, indexed);
      },
      close: async () => {
        if (used) await releaseVirtuoso();
        used = false;
      },
    };
  }),
];

const ITEMS: Item[] = [
  { kind: 'resources', project: 'o/a', id: 'urn:alice', payload: { name: 'Alice Liddell', address: { city: 'Oxford', street: 'Christ Church' } } },
  { kind: 'resources', project: 'o/a', id: 'urn:bob', payload: { name: 'Bob Oxford Oxford', knows: [{ name: 'Alice in Oxford' }] } },
  { kind: 'resources', project: 'o/a', id: 'urn:carol', payload: { name: 'Carol', note: 'lives in Cambridge', city: 'Zürich' } },
  { kind: 'resources', project: 'o/b', id: 'urn:dave', payload: { name: 'Dave', note: 'Oxford street' } },
  { kind: 'schemas', project: 'o/a', id: 'urn:schema', payload: { shapes: [{ name: 'Oxford shape' }] } },
  { kind: 'files', project: 'o/a', id: 'urn:file', payload: { _filename: 'report-2024.pdf' } },
  // Herons to rank and page: the word 1 to 3 times, texts of a few lengths (ties by score: the node
  // decides), some deprecated, of one type or both, by two users, created on different days.
  ...Array.from({ length: 26 }, (_, i): Item => ({
    kind: 'resources',
    project: i % 3 ? 'o/a' : 'o/b',
    id: `urn:h${String(i).padStart(2, '0')}`,
    payload: { name: `heron${' heron'.repeat(i % 3)}`, note: `${'grey '.repeat(i % 4)}wader` },
    deprecated: i % 7 === 3,
    types: i % 4 === 0 ? [T1, T2] : i % 2 ? [T1] : [T2],
    createdBy: i % 3 === 0 ? U1 : U2,
    createdAt: `2026-01-${String(1 + (i % 9)).padStart(2, '0')}T00:00:00.000Z`,
  })),
  { kind: 'resources', project: 'o/a', id: 'urn:heron', payload: { name: 'the heron of the id' } },
  { kind: 'resources', project: 'o/a', id: 'urn:egret', payload: { name: 'no word of the others' } },
  // Words longer than a store's text index may keep (Virtuoso's: 40 letters), alone in their project.
  {
    kind: 'schemas',
    project: 'o/z',
    id: 'urn:long',
    payload: { name: `${'abcdefghij'.repeat(6)} tail`, note: 'pneumonoultramicroscopicsilicovolcanoconiosis' },
  },
];

/** Every implementation of listings' text matcher passes this suite. */
for (const subject of subjects)
  describe(`text matcher contract: ${subject.name}`, function () {
    this.timeout(60_000);
    let matcher: TextMatcher;
    const catalogue = new CatalogueIndex();
    before(async () => {
      catalogue.load(ITEMS.map(catalogueItem));
      matcher = await subject.open(ITEMS, catalogue);
    });
    after(() => subject.close());

    const nodes = (found: readonly TextMatch[]) => found.map((m) => m.node).sort();
    const match = (q: string, kind = 'resources', projects = ['o/a', 'o/b']) => matcher.match(words(q), kind, projects);
    const node = (id: string, project = 'o/a', kind = 'resources') => itemNode(kind, project, id);

    it('finds the items holding a word in any value at any depth, the last word a prefix, by kind and in the projects asked', async () => {
      expect(nodes(await match('oxford'))).to.deep.equal([node('urn:alice'), node('urn:bob'), node('urn:dave', 'o/b')].sort());
      expect(nodes(await match('oxf', 'resources', ['o/a']))).to.deep.equal([node('urn:alice'), node('urn:bob')]);
      expect(nodes(await match('cambr'))).to.deep.equal([node('urn:carol')]);
      expect(nodes(await match('zür'))).to.deep.equal([node('urn:carol')]);
      expect(nodes(await match('oxford', 'schemas'))).to.deep.equal([node('urn:schema', 'o/a', 'schemas')]);
      expect(nodes(await match('report 2024 p', 'files'))).to.deep.equal([node('urn:file', 'o/a', 'files')]);
      // The `@id` is searched too.
      expect(nodes(await match('urn carol'))).to.deep.equal([node('urn:carol')]);
      expect(await match('oxford', 'storages')).to.deep.equal([]);
      expect(await match('oxford', 'resources', [])).to.deep.equal([]);
      expect(await matcher.match([], 'resources', ['o/a'])).to.deep.equal([]);
      expect(await match('nothing')).to.deep.equal([]);
    });

    it('finds words longer than a text index keeps, by a prefix or whole', async () => {
      const long = [node('urn:long', 'o/z', 'schemas')];
      expect(nodes(await match('abcdefghijabcd', 'schemas', ['o/z']))).to.deep.equal(long);
      expect(nodes(await match('pneumonoultramicroscopicsilicovolcanoconiosis', 'schemas', ['o/z']))).to.deep.equal(long);
      expect(nodes(await match(`${'abcdefghij'.repeat(6)} ta`, 'schemas', ['o/z']))).to.deep.equal(long);
      expect(await match('abcdefghijabcd tail', 'schemas', ['o/z'])).to.deep.equal([]);
    });

    it('takes the words as a phrase within one value', async () => {
      expect(nodes(await match('christ chur'))).to.deep.equal([node('urn:alice')]);
      expect(nodes(await match('alice in ox'))).to.deep.equal([node('urn:bob')]);
      // Both words present, in the other order or apart: no match.
      expect(await match('church christ')).to.deep.equal([]);
      expect(await match('alice oxford')).to.deep.equal([]);
      // Adjacent values do not make a phrase: Alice's city and street.
      expect(await match('oxford christ')).to.deep.equal([]);
    });

    it('ranks by relevance: positive scores, higher for more occurrences', async () => {
      const found = await match('oxford', 'resources', ['o/a']);
      const score = (id: string) => found.find((m) => m.node === node(id))!.score;
      expect(found.every((m) => m.score > 0)).to.equal(true);
      expect(score('urn:bob')).to.be.above(score('urn:alice'));
    });

    const filter = (f: Partial<ListingFilter> = {}): ListingFilter => ({
      kind: 'resources',
      projects: ['o/a', 'o/b'],
      deprecated: false,
      types: [],
      typeOperator: 'or',
      ...f,
    });
    const ranked = (q: string, f: Partial<ListingFilter> = {}, more: Partial<RankedQuery> = {}): RankedQuery => {
      const listing = filter(f);
      return { words: words(q), filter: listing, projects: catalogue.projects(listing), exact: [], offset: 0, limit: 100, ...more };
    };
    /** What a ranked page is: every match of the words (`match`) narrowed by the catalogue and ranked in process. */
    const reference = async (query: RankedQuery): Promise<RankedResult> =>
      rankMatches(catalogue, query, query.words.length ? await matcher.match(query.words, query.filter.kind, query.projects) : []);
    const ids = (result: RankedResult) => result.rows.map((r) => r.node.slice(r.node.lastIndexOf('/') + 1));

    it('ranks a page in the store: exact matches first, then by score, then by node, each with its score; the total and best score of the whole listing', async () => {
      const query = ranked('heron');
      const page = await matcher.rank(query);
      expect(page).to.deep.equal(await reference(query));
      // 26 herons, 4 deprecated, and the item whose `@id` words and name hold the word.
      expect(page.total).to.equal(23);
      expect(page.maxScore).to.equal(page.rows[0]!.score);
      expect(
        page.rows.every((r, i) => i === 0 || r.score < page.rows[i - 1]!.score || (r.score === page.rows[i - 1]!.score && r.node > page.rows[i - 1]!.node)),
      ).to.equal(true);
      // Three occurrences beat one.
      expect(page.rows[0]!.score).to.be.above(page.rows[page.rows.length - 1]!.score);
      expect(await matcher.rank(ranked('nothing'))).to.deep.equal({ total: 0, maxScore: 0, rows: [] });
      expect(await matcher.rank(ranked('heron', { projects: [] }, { projects: [] }))).to.deep.equal({ total: 0, maxScore: 0, rows: [] });
    });

    it('pages from an offset and strictly after a cursor, as the whole ranking orders them', async () => {
      const whole = (await matcher.rank(ranked('heron'))).rows;
      for (const size of [1, 4, 7]) {
        const byOffset: string[] = [];
        const byCursor: string[] = [];
        for (let from = 0; from < whole.length + size; from += size) {
          const page = await matcher.rank(ranked('heron', {}, { offset: from, limit: size }));
          expect(page.total).to.equal(whole.length);
          byOffset.push(...ids(page));
        }
        let after: RankedQuery['after'];
        for (let turns = 0; turns < 40; turns++) {
          // Past a cursor the offset is ignored.
          const page = await matcher.rank(ranked('heron', {}, { limit: size, ...(after ? { after, offset: 3 } : {}) }));
          byCursor.push(...ids(page));
          if (page.rows.length < size) break;
          // The cursor as `_next` carries it: through its bindings.
          after = cursorPosition(scoreCursor(page.rows[page.rows.length - 1]!));
        }
        expect(byOffset, `size ${size}`).to.deep.equal(ids({ total: 0, maxScore: 0, rows: whole }));
        expect(byCursor, `size ${size}`).to.deep.equal(byOffset);
      }
      // A cursor on an item gone from the listing still places the rows after it.
      const gone = { exact: false, score: whole[5]!.score, node: `${whole[5]!.node}-gone` };
      expect(await matcher.rank(ranked('heron', {}, { after: gone }))).to.deep.equal(await reference(ranked('heron', {}, { after: gone })));
    });

    it("applies the listing's conditions in the same query: deprecated, types (all or any), creator, creation time, projects", async () => {
      const conditions: Partial<ListingFilter>[] = [
        { deprecated: true },
        { deprecated: undefined },
        { types: [T1] },
        { types: [T1, T2], typeOperator: 'and' },
        { types: [T1, T2], typeOperator: 'or' },
        { createdBy: U2 },
        { createdAt: { from: '2026-01-03T00:00:00Z', to: '2026-01-06T00:00:00Z' } },
        { projects: ['o/b'] },
        { projects: undefined, org: 'o' },
        { id: 'urn:h04' },
      ];
      for (const f of conditions) {
        const query = ranked('heron', f, { limit: 5, offset: 2 });
        const page = await matcher.rank(query);
        expect(page, JSON.stringify(f)).to.deep.equal(await reference(query));
        expect(page.total, JSON.stringify(f)).to.be.above(0);
      }
      expect((await matcher.rank(ranked('heron', { deprecated: true }))).total).to.equal(4);
      expect((await matcher.rank(ranked('heron', { types: [T1, T2], typeOperator: 'and' }))).total).to.equal(6);
    });

    it('lists exact `@id` matches first, and the item the `@id` names even without the words (score 0) when selected', async () => {
      const exact = [node('urn:heron'), node('urn:heron', 'o/b')];
      const withId = ranked('urn:heron', {}, { exact, idNode: node('urn:heron') });
      const page = await matcher.rank(withId);
      expect(page).to.deep.equal(await reference(withId));
      expect(page.rows.map((r) => [r.node, r.exact])).to.deep.equal([[node('urn:heron'), true]]);
      // Named by `@id` only: listed first, scored 0, counted; not when the conditions leave it out.
      const named = ranked('heron', {}, { exact: [node('urn:egret')], idNode: node('urn:egret') });
      const first = await matcher.rank(named);
      expect(first).to.deep.equal(await reference(named));
      expect(first.rows[0]).to.deep.equal({ node: node('urn:egret'), score: 0, exact: true });
      expect(first.total).to.equal(24);
      expect((await matcher.rank({ ...named, offset: 1, limit: 2 })).rows.map((r) => r.exact)).to.deep.equal([false, false]);
      expect((await matcher.rank(ranked('heron', { deprecated: true }, { exact: [node('urn:egret')], idNode: node('urn:egret') }))).total).to.equal(4);
      // No words at all (`q` of punctuation): only that item.
      const bare = ranked('::', {}, { exact: [node('urn:egret')], idNode: node('urn:egret') });
      expect(await matcher.rank(bare)).to.deep.equal({ total: 1, maxScore: 0, rows: [{ node: node('urn:egret'), score: 0, exact: true }] });
      // A cursor past the exact rows.
      const after = cursorPosition(scoreCursor(first.rows[0]!))!;
      expect(await matcher.rank({ ...named, after, limit: 3 })).to.deep.equal(await reference({ ...named, after, limit: 3 }));
    });
  });
