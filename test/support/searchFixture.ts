import type { SearchDoc } from '../../src/search/dsl/fields.js';

/** The fixed data set of the search DSL tests (test/unit/searchDsl.test.ts, test/integration/storeSearch.test.ts): their expectations are worked out by hand from Elasticsearch's documented semantics. */
export const doc = (project: string, source: Record<string, unknown>): SearchDoc => ({ id: source['@id'] as string, project, source });
export const DOCS: SearchDoc[] = [
  doc('o/a', {
    '@id': 'urn:1',
    '@type': 'Person',
    name: 'Alice Smith',
    age: 30,
    city: 'Oxford',
    tags: ['admin', 'dev'],
    born: '1990-05-01',
    active: true,
    address: { city: 'Oxford', zip: 'OX1' },
  }),
  doc('o/a', {
    '@id': 'urn:2',
    '@type': 'Person',
    name: 'Bob Smith',
    age: 25,
    city: 'Cambridge',
    tags: ['dev'],
    born: '1995-07-15',
    active: false,
    address: { city: 'Cambridge' },
  }),
  doc('o/a', { '@id': 'urn:3', '@type': 'Person', name: 'Carol Jones', age: 41, city: 'London', tags: [], born: '1982-01-20', active: true }),
  doc('o/b', { '@id': 'urn:4', '@type': 'Dataset', name: 'Smith family records', size: 1200.5, created: '2020-03-03T10:00:00Z' }),
  doc('o/b', { '@id': 'urn:5', '@type': ['Dataset', 'Archive'], name: 'Oxford archive', size: 800, created: '2021-11-30T23:59:59Z', keywords: 'old records' }),
];
