import { expect } from 'chai';
import { iri, literal, spelledIri, XSD } from '../../src/rdf/terms.js';
import { CatalogueIndex } from '../../src/catalogue/CatalogueIndex.js';
import { CatalogueQueries } from '../../src/catalogue/CatalogueQueries.js';
import type { CatalogueItem } from '../../src/catalogue/catalogue.js';
import { revisionGraph } from '../../src/store/graphNames.js';
import type { ListingFilter, SortKey } from '../../src/catalogue/ListingQuery.js';
import { OxigraphGraphStore } from '../../src/store/OxigraphGraphStore.js';
import { PayloadSortIndexes } from '../../src/catalogue/PayloadSortIndexes.js';
import { RevisionProjection } from '../../src/projection/RevisionProjection.js';
import { CatalogueProjection } from '../../src/catalogue/CatalogueProjection.js';
import { TermDictionary } from '../../src/catalogue/TermDictionary.js';
import { JsonLdProcessor } from '../../src/jsonld/JsonLdProcessor.js';
import type { Binding } from '../../src/store/GraphStore.js';

const S = 'http://s/';
const NAME = `${S}name`;
const N = `${S}n`;
const D = `${S}d`;
const NONE = `${S}none`;
const MIXED = `${S}mixed`;
const LINK = `${S}link`;

/** Counts the fill queries of the payload sort indexes. */
class CountingStore extends OxigraphGraphStore {
  fills = 0;
  override select(sparql: string) {
    if (/SELECT \?item \?head \?raw/.test(sparql)) this.fills++;
    return super.select(sparql);
  }
}

/** A deterministic pseudo-random sequence, so a failure reproduces. */
const random = (seed: number) => () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;

type Content = Record<string, (string | { value: string; datatype: string } | { iri: string })[]>;

/** N-Triples of one revision, with the id spelled as the JSON-LD step spells it. */
const ntriples = (id: string, content: Content): string => {
  let out = `${iri(spelledIri(id))} <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> <${S}T> .\n`;
  for (const [p, values] of Object.entries(content))
    for (const v of values) {
      const o = typeof v === 'string' ? literal(v) : 'iri' in v ? iri(v.iri) : literal(v.value, v.datatype);
      out += `${iri(spelledIri(id))} ${iri(p)} ${o} .\n`;
    }
  return out;
};

const int = (n: number) => ({ value: String(n), datatype: `${XSD}integer` });
const dbl = (lexical: string) => ({ value: lexical, datatype: `${XSD}double` });

describe('payload sort indexes and SPARQL agree', () => {
  let store: CountingStore;
  let catalogue: CatalogueIndex;
  let sorts: PayloadSortIndexes;
  let revisions: RevisionProjection;
  let cataloguing: CatalogueProjection;
  let queries: CatalogueQueries;
  const rnd = random(7);
  const names = ['alpha', 'Bravo', 'same', 'same', 'éclair', 'e\u0301clair', '\uFF21wide', '\u{1F600}smile', 'zulu', ''];
  const doubles = ['1.5E0', '-2.25E0', '1.0E21', '1.0E-7', '0.0E0', '-0.0E0', 'INF', '3.0E0', '1.5E0'];

  const content = (i: number, version = 0): Content => {
    const c: Content = {};
    if (i % 6 !== 0) c[NAME] = [`${names[Math.floor(rnd() * names.length)]}${i % 4 === 0 ? '' : i % 9}`];
    if (i % 11 === 0) c[NAME] = [...(c[NAME] ?? []), `multi${i}`, 'aaa'];
    if (i % 4 !== 0) c[N] = [int(((i * 37 + version) % 50) - 20)];
    if (i % 3 !== 0) c[D] = [dbl(doubles[i % doubles.length]!)];
    c[MIXED] = [i % 3 === 1 ? int(i) : `m${i}`];
    c[LINK] = [{ iri: `http://ex.org/t${i % 5}` }];
    return c;
  };

  const items: CatalogueItem[] = Array.from({ length: 450 }, (_, i) => {
    const project = ['a/one', 'a/two', 'b/three'][i % 3]!;
    // Ids holding a space are stored percent-encoded; their values are found on both paths, and the index must agree with SPARQL.
    const id = i % 29 === 0 ? `http://ex.org/with space${i}` : `http://ex.org/r${Math.floor(rnd() * 10_000)}-${i}`;
    return {
      kind: i % 10 === 0 ? 'schemas' : 'resources',
      project,
      id,
      rev: 1,
      deprecated: i % 8 === 0,
      types: ['http://s/T0', 'http://s/T1'].filter(() => rnd() < 0.5),
      schema: 'http://ex.org/schema',
      createdAt: new Date(Date.UTC(2026, 0, 1 + (i % 28))).toISOString(),
      createdBy: `http://127.0.0.1/v1/realms/r/users/u${i % 4}`,
      updatedAt: new Date(Date.UTC(2026, 1, 1 + (i % 20))).toISOString(),
      updatedBy: 'http://127.0.0.1/v1/realms/r/users/u0',
      head: revisionGraph(i % 10 === 0 ? 'schemas' : 'resources', project, id, 1),
      links: [],
    };
  });

  /** A store, catalogue and indexes holding the items at their first revision. */
  const load = async () => {
    store = new CountingStore();
    catalogue = new CatalogueIndex();
    sorts = new PayloadSortIndexes(store, catalogue, 10);
    revisions = new RevisionProjection(store, new JsonLdProcessor(new Map()));
    cataloguing = new CatalogueProjection(store, { index: catalogue, sorts }, new TermDictionary(), 'http://127.0.0.1/v1/');
    queries = new CatalogueQueries(store, { index: catalogue, sorts }, () => []);
    for (const [i, item] of items.entries()) await revisions.put(item.kind, item.project, item.id, 1, ntriples(item.id, content(i)));
    await cataloguing.load(items);
  };
  before(load);

  const filters: ListingFilter[] = [
    { kind: 'resources', projects: ['a/one'], types: [], typeOperator: 'or' },
    { kind: 'resources', projects: ['a/two', 'b/three'], types: [], typeOperator: 'or', deprecated: false },
    { kind: 'resources', org: 'a', types: ['http://s/T1'], typeOperator: 'or', deprecated: false },
    { kind: 'resources', types: [], typeOperator: 'or' },
    { kind: 'schemas', types: [], typeOperator: 'or', deprecated: false },
  ];

  /** One page on both paths: the index must answer, and exactly as SPARQL does. */
  const same = async (f: ListingFilter, key: SortKey, page: { offset: number; limit: number; after?: import('../../src/store/GraphStore.js').Binding[] }) => {
    const viaSparql = { total: await queries.count(f), rows: await queries.page(f, [key], page) };
    const viaIndex = await sorts.listing(f, key, page);
    expect(viaIndex, 'the index answers').to.not.equal(undefined);
    expect(viaIndex).to.deep.equal(viaSparql);
    expect(await queries.listing(f, [key], page)).to.deep.equal(viaSparql);
    return viaSparql.rows;
  };

  /** Every page by cursor, then pages by offset, on both paths. */
  const agree = async (f: ListingFilter, key: SortKey) => {
    const all = await same(f, key, { offset: 0, limit: 1000 });
    let after = undefined;
    let walked = 0;
    for (;;) {
      const rows = await same(f, key, { offset: 0, limit: 23, ...(after ? { after } : {}) });
      if (rows.length === 0) break;
      walked += rows.length;
      after = rows[rows.length - 1]!.cursor;
    }
    expect(walked).to.be.at.least(all.length);
    await same(f, key, { offset: 5, limit: 9 });
    await same(f, key, { offset: all.length - 3, limit: 10 });
    if (all[7]) await same(f, key, { offset: 2, limit: 6, after: all[7].cursor });
  };

  for (const predicate of [NAME, N, D, NONE])
    for (const descending of [false, true])
      for (const [i, f] of filters.entries())
        it(`sorts by <${predicate}>${descending ? ' descending' : ''} as SPARQL does (filter ${i})`, async () => {
          await agree(f, { field: { predicate }, descending });
        });

  it('declines mixed and unmodelled values, and scopes wider than its capacity; the listing falls back to SPARQL', async () => {
    const all = filters[3]!;
    for (const predicate of [MIXED, LINK]) {
      const key: SortKey = { field: { predicate }, descending: false };
      expect(await sorts.listing(all, key, { offset: 0, limit: 10 })).to.equal(undefined);
      expect(await queries.listing(all, [key], { offset: 0, limit: 10 })).to.deep.equal({
        total: await queries.count(all),
        rows: await queries.page(all, [key], { offset: 0, limit: 10 }),
      });
    }
    // One project of MIXED holds only strings: that listing is served.
    await agree({ kind: 'resources', projects: ['a/one'], types: [], typeOperator: 'or' }, { field: { predicate: MIXED }, descending: true });
    const narrow = new PayloadSortIndexes(store, catalogue, 2);
    expect(await narrow.listing(all, { field: { predicate: NAME }, descending: false }, { offset: 0, limit: 10 })).to.equal(undefined);
    // Least recently used first out: the third index evicts the first, which a later use refills.
    const one: ListingFilter = { kind: 'resources', projects: ['a/one'], types: [], typeOperator: 'or' };
    const fills = store.fills;
    for (const predicate of [NAME, N, NAME, D, N, NAME])
      expect(await narrow.listing(one, { field: { predicate }, descending: false }, { offset: 0, limit: 3 })).to.not.equal(undefined);
    expect(store.fills - fills).to.equal(5);
    // A cursor of another kind than the values: SPARQL decides.
    expect(
      await sorts.listing(
        all,
        { field: { predicate: NAME }, descending: false },
        {
          offset: 0,
          limit: 5,
          after: [
            { type: 'literal', value: '3', datatype: `${XSD}integer` },
            { type: 'uri', value: 'urn:x' },
          ],
        },
      ),
    ).to.equal(undefined);
    // A tagged string is not the plain string of its text: the index orders no tags, SPARQL decides.
    const tagged = [
      { type: 'literal', value: 'heron', 'xml:lang': 'en' },
      { type: 'uri', value: 'urn:x' },
    ] as Binding[];
    expect(await sorts.listing(all, { field: { predicate: NAME }, descending: false }, { offset: 0, limit: 5, after: tagged })).to.equal(undefined);
  });

  describe('written to', () => {
    // The writes below would be seen by the other tests: they get the items as loaded.
    afterEach(load);

    it('is filled once, then follows writes: new heads, copies, new items, drops', async () => {
      const f: ListingFilter = { kind: 'resources', types: [], typeOperator: 'or' };
      const keys: SortKey[] = [NAME, N, D].map((predicate) => ({ field: { predicate }, descending: false }));
      for (const key of keys) await agree(f, key);
      const fills = store.fills;
      const resources = items.filter((i) => i.kind === 'resources');
      const write = async (item: CatalogueItem, rev: number, c: Content | 'copy', replace = true) => {
        const triples =
          c === 'copy'
            ? await revisions.copy(item.kind, item.project, item.id, item.rev, rev)
            : await revisions.put(item.kind, item.project, item.id, rev, ntriples(item.id, c));
        const next = {
          ...item,
          rev,
          head: revisionGraph(item.kind, item.project, item.id, rev),
          deprecated: c === 'copy' ? !item.deprecated : item.deprecated,
        };
        await cataloguing.set(next, replace, triples);
        return next;
      };
      for (const [n, item] of resources.slice(0, 40).entries()) {
        const i = items.indexOf(item);
        if (n % 4 === 0) await write(item, 2, 'copy');
        else if (n % 4 === 1) await write(item, 2, {});
        else await write(item, 2, content(i + n, 3));
      }
      for (const item of resources.slice(40, 45)) {
        await cataloguing.drop(item.kind, item.project, item.id);
        await revisions.drop(item.kind, item.project, item.id, item.rev);
      }
      for (let j = 0; j < 6; j++) {
        const item: CatalogueItem = { ...resources[0]!, id: `http://ex.org/new${j}`, project: ['a/one', 'a/two', 'b/three'][j % 3]!, deprecated: false };
        await write({ ...item, rev: 0 }, 1, content(j * 5 + 1, 9), false);
      }
      for (const key of keys) for (const descending of [false, true]) await agree(f, { ...key, descending });
      expect(store.fills, 'no refill after writes').to.equal(fills);
      // A value of another kind arriving by a write: the index declines from then on.
      await write(resources[50]!, 2, { [N]: ['text'] });
      expect(await sorts.listing(f, keys[1]!, { offset: 0, limit: 10 })).to.equal(undefined);
      expect(await queries.listing(f, [keys[1]!], { offset: 0, limit: 10 })).to.deep.equal({
        total: await queries.count(f),
        rows: await queries.page(f, [keys[1]!], { offset: 0, limit: 10 }),
      });
    });
  });
});
