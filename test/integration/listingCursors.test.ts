import { expect } from 'chai';
import { CatalogueIndex } from '../../src/catalogue/CatalogueIndex.js';
import { CatalogueQueries } from '../../src/catalogue/CatalogueQueries.js';
import type { CatalogueItem } from '../../src/catalogue/catalogue.js';
import { catalogueQuads } from '../../src/catalogue/catalogue.js';
import type { ListingFilter, SortKey } from '../../src/catalogue/ListingQuery.js';
import { PayloadSortIndexes } from '../../src/catalogue/PayloadSortIndexes.js';
import { iri, literal, quad, XSD } from '../../src/rdf/terms.js';
import type { Binding, GraphStore } from '../../src/store/GraphStore.js';
import { itemNode, revisionGraph } from '../../src/store/graphNames.js';
import { OxigraphGraphStore } from '../../src/store/OxigraphGraphStore.js';
import { RemoteGraphStore } from '../../src/store/RemoteGraphStore.js';
import { SparqlHttpClient } from '../../src/store/SparqlHttpClient.js';
import { clearVirtuoso, releaseVirtuoso, useVirtuoso } from '../support/virtuoso.js';

const S = 'http://s/';
const NAME = `${S}name`;
const N = `${S}n`;
const AT = `${S}at`;
const LABEL = `${S}label`;
const AMOUNT = `${S}amount`;
const CODE = `${S}code`;
const PROJECTS = ['a/one', 'a/two', 'b/three'];

/** A deterministic pseudo-random sequence, so a failure reproduces. */
const random = (seed: number) => () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;

const rnd = random(11);
const words = ['heron', 'egret', 'Ibis', 'ibis', 'stork', 'crane', 'éclair', 'zz', ''];
const items: CatalogueItem[] = Array.from({ length: 45 }, (_, i) => {
  const project = PROJECTS[i % 3]!;
  const id = `http://ex.org/r${Math.floor(rnd() * 1000)}-${i}`;
  return {
    kind: 'resources',
    project,
    id,
    rev: 1,
    deprecated: false,
    types: [],
    schema: 'http://ex.org/schema',
    createdAt: '2026-01-01T00:00:00Z',
    createdBy: 'http://127.0.0.1/v1/realms/r/users/u',
    updatedAt: '2026-01-01T00:00:00Z',
    updatedBy: 'http://127.0.0.1/v1/realms/r/users/u',
    head: revisionGraph('resources', project, id, 1),
    links: [],
  };
});

/**
 * Tagged strings, equal texts with different tags or none, plain strings among them: the stores
 * order tagged strings differently and cannot compare different tags in a FILTER.
 */
const labels = ['"Chat"@fr', '"Chat"@en', '"Chat"', '"Chat"@en-GB', '"chat"@fr', '"Cha"@fr', '"Hund"@de', '"Chat"@FR', '"chat"', '"Chat"@de', '""@en', '""'];
/** Numbers of equal value and different datatypes (and lexical forms the stores write back differently). */
const amounts = [
  `"1"^^<${XSD}integer>`,
  `"1"^^<${XSD}decimal>`,
  `"1.0"^^<${XSD}decimal>`,
  `"1"^^<${XSD}double>`,
  `"1E0"^^<${XSD}double>`,
  `"2"^^<${XSD}integer>`,
  `"0.5"^^<${XSD}double>`,
];

/** Literals of a datatype neither store knows: ordered (and compared) by their text. */
const codes = ['b', 'a', 'B', 'a b', '', 'é', 'b'].map((c) => `"${c}"^^<urn:dt:code>`);

/** One value per field at most (names repeat, some missing), so a walk must give each item exactly once. */
const payload = (item: CatalogueItem, i: number): string => {
  const s = iri(item.id);
  const g = iri(item.head);
  let out = '';
  if (i % 7 !== 3) out += quad(s, iri(NAME), literal(`${words[(i * 5) % words.length]}${i % 4 ? '' : ' x'}`), g);
  if (i % 5 !== 0) out += quad(s, iri(N), literal(String((i * 37) % 11), `${XSD}integer`), g);
  if (i % 6 !== 0) out += quad(s, iri(AT), literal(`2026-0${1 + (i % 9)}-1${i % 10}T00:00:00Z`, `${XSD}dateTime`), g);
  if (i % 8 !== 5) out += quad(s, iri(LABEL), labels[(i * 7) % labels.length]!, g);
  if (i % 9 !== 4) out += quad(s, iri(AMOUNT), amounts[(i * 3) % amounts.length]!, g);
  if (i % 10 !== 7) out += quad(s, iri(CODE), codes[(i * 5) % codes.length]!, g);
  return out;
};

const key = (field: SortKey['field'], descending = false): SortKey => ({ field, descending });
const SORTS: SortKey[][] = [
  [key({ predicate: NAME })],
  [key({ predicate: NAME }, true)],
  [key({ predicate: NAME }), key({ predicate: N }, true)],
  [key({ predicate: N }), key({ predicate: NAME }, true)],
  [key({ predicate: AT }, true), key({ metadata: 'id' })],
  [key({ metadata: 'project' }, true), key({ predicate: NAME })],
  [key({ predicate: LABEL })],
  [key({ predicate: LABEL }, true)],
  [key({ predicate: LABEL }), key({ predicate: NAME }, true)],
  [key({ predicate: AMOUNT }), key({ predicate: LABEL })],
  [key({ predicate: AMOUNT }, true), key({ predicate: LABEL }, true)],
  [key({ predicate: CODE })],
  [key({ predicate: CODE }, true), key({ predicate: LABEL })],
];

const all: ListingFilter = { kind: 'resources', types: [], typeOperator: 'or' };
/** The matches of a `q` listing: the page query with a VALUES list of items. */
const some: ListingFilter = {
  ...all,
  projects: PROJECTS.slice(0, 2),
  items: items.filter((_, i) => i % 4 !== 1).map((i) => itemNode(i.kind, i.project, i.id)),
};
const inSome = items.filter((item, i) => i % 4 !== 1 && some.projects!.includes(item.project)).length;

const subjects: { name: string; open(): Promise<GraphStore>; close?(): Promise<void> }[] = [
  { name: 'Oxigraph', open: async () => new OxigraphGraphStore() },
  {
    name: 'Virtuoso',
    open: async () => {
      const virtuoso = await useVirtuoso();
      await clearVirtuoso(virtuoso.server);
      const store = new RemoteGraphStore(new SparqlHttpClient(virtuoso.server, { timeoutMillis: 20_000 }), {
        graphPrefix: 'urn:registry:',
        markerGraph: 'urn:registry:store',
      });
      await store.restore(undefined, 0);
      return store;
    },
    close: releaseVirtuoso,
  },
];

/** The order of a SPARQL listing, page by page through `_next` cursors, on each store (the store's ORDER BY is the reference). */
describe('SPARQL listing cursors walk the listing order on every store', function () {
  this.timeout(120_000);
  const orders = new Map<string, string[]>();

  for (const subject of subjects)
    describe(subject.name, () => {
      let queries: CatalogueQueries;
      before(async () => {
        const store = await subject.open();
        const index = new CatalogueIndex();
        queries = new CatalogueQueries(store, { index, sorts: new PayloadSortIndexes(store, index) }, () => []);
        await store.load(items.map((i) => catalogueQuads(i)).join(''));
        // Revisions written one by one in an order unrelated to their values (Virtuoso compared
        // string constants by the order it had stored them in).
        const shuffle = random(3);
        const order = items.map((_, i) => i).sort(() => shuffle() - 0.5);
        for (const i of order) await store.load(payload(items[i]!, i));
      });
      after(async () => subject.close?.());

      for (const [n, sort] of SORTS.entries())
        for (const [f, filter] of [all, some].entries())
          it(`gives every item once, in order, page after page (sort ${n}, ${f ? 'matches of q' : 'all items'})`, async () => {
            const full = await queries.page(filter, sort, { offset: 0, limit: 1000 });
            const expected = full.map((r) => r.id);
            expect(expected.length).to.equal(f ? inSome : items.length);
            for (const size of [1, 4, 7]) {
              const walked: string[] = [];
              let after: Binding[] | undefined;
              for (;;) {
                const rows = await queries.page(filter, sort, { offset: 0, limit: size, ...(after ? { after } : {}) });
                walked.push(...rows.map((r) => r.id));
                if (rows.length < size || walked.length > expected.length) break;
                after = rows[rows.length - 1]!.cursor;
              }
              expect(walked, `pages of ${size}`).to.deep.equal(expected);
            }
            // The stores order plain strings, numbers, dates and (by text, then tag or datatype) other literals alike: the same listing on both.
            const seen = orders.get(`${n} ${f}`);
            if (seen) expect(expected).to.deep.equal(seen);
            else orders.set(`${n} ${f}`, expected);
          });
    });
});
