import { expect } from 'chai';
import { CatalogueIndex } from '../../src/catalogue/CatalogueIndex.js';
import { CatalogueQueries } from '../../src/catalogue/CatalogueQueries.js';
import type { CatalogueItem } from '../../src/catalogue/catalogue.js';
import { catalogueQuads } from '../../src/catalogue/catalogue.js';
import type { ListingFilter, SortKey } from '../../src/catalogue/ListingQuery.js';
import { OxigraphGraphStore } from '../../src/store/OxigraphGraphStore.js';
import { PayloadSortIndexes } from '../../src/catalogue/PayloadSortIndexes.js';
import { itemNode } from '../../src/store/graphNames.js';

const DEFAULT: SortKey[] = [
  { field: { metadata: 'createdBy' }, descending: false },
  { field: { metadata: 'id' }, descending: false },
];

/** A deterministic pseudo-random sequence, so a failure reproduces. */
const random = (seed: number) => () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;

describe('catalogue index and SPARQL agree', () => {
  const store = new OxigraphGraphStore();
  const index = new CatalogueIndex();
  const queries = new CatalogueQueries(store, { index, sorts: new PayloadSortIndexes(store, index) }, () => []);
  const rnd = random(42);
  const items: CatalogueItem[] = Array.from({ length: 600 }, (_, i) => ({
    kind: i % 7 === 0 ? 'schemas' : 'resources',
    project: ['a/one', 'a/two', 'b/three'][i % 3]!,
    id: `http://ex.org/r${Math.floor(rnd() * 10_000)}-${i}`,
    rev: 1 + (i % 4),
    deprecated: i % 5 === 0,
    types: ['http://s/T0', 'http://s/T1', 'http://s/T2'].filter(() => rnd() < 0.5),
    schema: i % 2 ? 'https://bluebrain.github.io/nexus/schemas/unconstrained.json' : 'http://ex.org/schema',
    createdAt: new Date(Date.UTC(2026, 0, 1 + (i % 28))).toISOString(),
    createdBy: `http://127.0.0.1/v1/realms/r/users/u${i % 4}`,
    updatedAt: new Date(Date.UTC(2026, 1, 1 + (i % 20))).toISOString(),
    updatedBy: `http://127.0.0.1/v1/realms/r/users/u${(i * 3) % 4}`,
    head: `urn:g${i}`,
    links: [],
  }));

  before(async () => {
    await store.load(items.map((i) => catalogueQuads(i)).join(''));
    index.load(items);
  });

  const filters: ListingFilter[] = [
    { kind: 'resources', types: [], typeOperator: 'or', deprecated: false },
    { kind: 'resources', projects: ['a/one'], types: [], typeOperator: 'or' },
    { kind: 'resources', org: 'a', types: ['http://s/T1'], typeOperator: 'or', deprecated: false },
    { kind: 'resources', projects: ['a/two', 'b/three'], types: ['http://s/T0', 'http://s/T2'], typeOperator: 'and' },
    { kind: 'resources', types: ['http://s/T0', 'http://s/T2'], typeOperator: 'or', rev: 2 },
    { kind: 'schemas', types: [], typeOperator: 'or', createdBy: 'http://127.0.0.1/v1/realms/r/users/u1' },
    {
      kind: 'resources',
      types: [],
      typeOperator: 'or',
      createdAt: { from: '2026-01-05T00:00:00Z', to: '2026-01-20T00:00:00Z' },
      schema: 'http://ex.org/schema',
    },
    { kind: 'resources', types: [], typeOperator: 'or', updatedAt: { to: '2026-02-10T00:00:00Z' }, updatedBy: 'http://127.0.0.1/v1/realms/r/users/u2' },
  ];

  for (const [n, f] of filters.entries()) {
    it(`gives the same pages, totals and cursors (filter ${n})`, async () => {
      const viaSparql = { total: await queries.count(f), rows: await queries.page(f, DEFAULT, { offset: 0, limit: 1000 }) };
      const viaIndex = await queries.listing(f, DEFAULT, { offset: 0, limit: 1000 });
      expect(viaIndex.total).to.equal(viaSparql.total);
      expect(viaIndex.rows).to.deep.equal(viaSparql.rows);
      // Paging by offset and by cursor lands on the same rows on both paths.
      const mid = viaSparql.rows[Math.floor(viaSparql.rows.length / 2)];
      if (mid) {
        const after = { offset: 0, limit: 7, after: mid.cursor };
        expect((await queries.listing(f, DEFAULT, after)).rows).to.deep.equal(await queries.page(f, DEFAULT, after));
      }
      expect((await queries.listing(f, DEFAULT, { offset: 5, limit: 9 })).rows).to.deep.equal(await queries.page(f, DEFAULT, { offset: 5, limit: 9 }));
    });
  }

  it('follows removals and updates', async () => {
    const [first, second] = items;
    index.remove(first!.kind, first!.project, first!.id);
    index.set({ ...second!, deprecated: !second!.deprecated });
    const f: ListingFilter = { kind: second!.kind, projects: [second!.project], types: [], typeOperator: 'or' };
    const ids = (await queries.listing(f, DEFAULT, { offset: 0, limit: 1000 })).rows.map((r) => r.id);
    expect(ids).to.include(second!.id);
    expect(ids).not.to.include(first!.id);
    const flipped = (await queries.listing({ ...f, deprecated: second!.deprecated }, DEFAULT, { offset: 0, limit: 1000 })).rows.map((r) => r.id);
    expect(flipped).not.to.include(second!.id);
  });

  it('keeps counted totals current through writes', () => {
    const live = new CatalogueIndex();
    const current = new Map(items.map((i) => [`${i.kind} ${i.project} ${i.id}`, i]));
    live.load(items);
    for (const f of filters) live.total(f);
    const r = random(7);
    for (let n = 0; n < 300; n++) {
      const item = items[Math.floor(r() * items.length)]!;
      const key = `${item.kind} ${item.project} ${item.id}`;
      if (r() < 0.2) {
        live.remove(item.kind, item.project, item.id);
        current.delete(key);
      } else {
        const next = { ...item, deprecated: r() < 0.5, rev: item.rev + 1, types: r() < 0.5 ? ['http://s/T1'] : [] };
        live.set(next);
        current.set(key, next);
      }
    }
    const fresh = new CatalogueIndex();
    fresh.load([...current.values()]);
    for (const f of filters) expect(live.total(f)).to.equal(fresh.total(f));
  });

  it('selects from a list of nodes as item by item, through updates, removals and additions', () => {
    const live = new CatalogueIndex();
    live.load(items);
    const node = (i: CatalogueItem) => itemNode(i.kind, i.project, i.id);
    // A text index's list: known nodes of every kind and project, and nodes of no item.
    const list = [...items.map((i) => ({ node: node(i) })), { node: 'urn:registry:resources/a/one/nothing' }];
    const exact = [node(items[3]!), node(items[4]!), 'urn:registry:resources/a/one/nothing'];
    const check = () => {
      for (const f of filters) {
        const visited: [number, boolean][] = [];
        live.eachSelected(f, list, exact, (at, isExact) => visited.push([at, isExact]));
        const selected = live.selector(f);
        const expected = list.flatMap(({ node }, at): [number, boolean][] => (selected(node) ? [[at, exact.includes(node)]] : []));
        expect(visited).to.deep.equal(expected);
      }
    };
    check();
    const r = random(9);
    for (let round = 0; round < 3; round++) {
      for (let n = 0; n < 100; n++) {
        const item = items[Math.floor(r() * items.length)]!;
        if (r() < 0.2) live.remove(item.kind, item.project, item.id);
        else live.set({ ...item, deprecated: r() < 0.5, rev: item.rev + 1, types: r() < 0.5 ? ['http://s/T1'] : [] });
      }
      check();
    }
  });
});
