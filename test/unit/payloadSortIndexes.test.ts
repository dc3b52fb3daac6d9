import { expect } from 'chai';
import type { CatalogueItem } from '../../src/catalogue/catalogue.js';
import { CatalogueIndex } from '../../src/catalogue/CatalogueIndex.js';
import { PayloadSortIndexes } from '../../src/catalogue/PayloadSortIndexes.js';
import type { GraphStore, Row } from '../../src/store/GraphStore.js';
import { itemNode, revisionGraph } from '../../src/store/graphNames.js';

const item = (id: string, rev: number): CatalogueItem => ({
  kind: 'resources',
  project: 'o/p',
  id,
  rev,
  deprecated: false,
  types: [],
  schema: 'https://bluebrain.github.io/nexus/schemas/unconstrained.json',
  createdAt: '2024-01-01T00:00:00Z',
  createdBy: 'http://r/v1/anonymous',
  updatedAt: '2024-01-01T00:00:00Z',
  updatedBy: 'http://r/v1/anonymous',
  links: [],
  head: revisionGraph('resources', 'o/p', id, rev),
});

/** A store answering the fill query with the heads and values it is given: what another process wrote into it so far. */
const storeHolding = (heads: [string, number, number][]): GraphStore =>
  ({
    select: async (): Promise<Row[]> =>
      heads.map(([id, rev, n]) => ({
        item: { type: 'uri', value: itemNode('resources', 'o/p', id) },
        head: { type: 'uri', value: revisionGraph('resources', 'o/p', id, rev) },
        raw: { type: 'literal', value: String(n), datatype: 'http://www.w3.org/2001/XMLSchema#integer' },
      })),
  }) as unknown as GraphStore;

const listing = (sorts: PayloadSortIndexes) =>
  sorts.listing(
    { kind: 'resources', projects: ['o/p'], types: [], typeOperator: 'or' },
    { field: { predicate: 'http://x/n' }, descending: false },
    { offset: 0, limit: 10 },
  );

describe('payload sort indexes over a store another replica writes', () => {
  it('declines (the listing falls back to SPARQL) when filled from a store behind the catalogue, and answers once the store caught up', async () => {
    const catalogue = new CatalogueIndex();
    catalogue.load([item('http://x/a', 2), item('http://x/b', 1)]);
    // The store holds a's first revision only and not b at all: changes the catalogue applied before the index existed.
    expect(await listing(new PayloadSortIndexes(storeHolding([['http://x/a', 1, 5]]), catalogue))).to.equal(undefined);
    const caughtUp = new PayloadSortIndexes(
      storeHolding([
        ['http://x/a', 2, 7],
        ['http://x/b', 1, 3],
      ]),
      catalogue,
    );
    const answered = await listing(caughtUp);
    expect(answered?.total).to.equal(2);
    expect(answered?.rows.map((r) => r.id)).to.deep.equal(['http://x/b', 'http://x/a']);
  });

  it('answers from a store ahead of the catalogue (the catalogue follows it as it catches up)', async () => {
    const catalogue = new CatalogueIndex();
    catalogue.load([item('http://x/a', 1)]);
    const answered = await listing(new PayloadSortIndexes(storeHolding([['http://x/a', 2, 7]]), catalogue));
    expect(answered?.rows.map((r) => r.id)).to.deep.equal(['http://x/a']);
  });
});
