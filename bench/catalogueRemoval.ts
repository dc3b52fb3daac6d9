import oxigraph from 'oxigraph';
import type { CatalogueItem } from '../src/catalogue/catalogue.js';
import { catalogueQuads, removeCatalogueUpdate } from '../src/catalogue/catalogue.js';
import { NXV } from '../src/kernel/vocabulary.js';
import { CATALOGUE, itemNode, revisionGraph } from '../src/store/graphNames.js';

/**
 * What removing one item's catalogue entry costs in the embedded store, three ways
 * (`node dist/bench/catalogueRemoval.js [entries] [rounds]`): the catalogue's SPARQL update (two
 * `DELETE WHERE`s, what `CatalogueProjection.set` runs on every update), Oxigraph's `match` and
 * `delete` per quad (what a `GraphStore` operation deleting quads directly would run), and a
 * `DELETE DATA` of the entry's known quads. Entries as the catalogue writes them for the speed
 * bench's payload (two links each); each removed entry is loaded again outside the measurement.
 * CPU microseconds per removal (`process.cpuUsage`), the ways alternated round by round.
 */
const ENTRIES = Number(process.argv[2] ?? 10_000);
const ROUNDS = Number(process.argv[3] ?? 5);
const PER_ROUND = 400;

const item = (i: number): CatalogueItem => ({
  kind: 'resources',
  project: `bench/p${i % 10}`,
  id: `http://registry.bench/r${i}`,
  rev: 1,
  deprecated: false,
  schema: 'https://bluebrain.github.io/nexus/schemas/unconstrained.json',
  types: ['http://schema.org/Person'],
  createdAt: '2026-11-28T10:00:00.000Z',
  createdBy: 'http://127.0.0.1/v1/realms/bench/users/admin',
  updatedAt: '2026-11-28T10:00:00.000Z',
  updatedBy: 'http://127.0.0.1/v1/realms/bench/users/admin',
  links: [
    { target: `http://registry.bench/r${i + 1}`, paths: ['http://schema.org/knows'] },
    { target: `http://registry.bench/r${i + 2}`, paths: ['http://schema.org/colleague'] },
  ],
  head: revisionGraph('resources', `bench/p${i % 10}`, `http://registry.bench/r${i}`, 1),
});

const store = new oxigraph.Store();
const graph = oxigraph.namedNode(CATALOGUE);
const link = oxigraph.namedNode(`${NXV}link`);
let text = '';
for (let i = 0; i < ENTRIES; i++) text += catalogueQuads(item(i));
store.load(text, { format: 'application/n-quads' });

const ways: Record<string, (entry: CatalogueItem) => void> = {
  'SPARQL DELETE WHERE (today)': (entry) => store.update(removeCatalogueUpdate(entry.kind, entry.project, entry.id)),
  'match + delete per quad': (entry) => {
    const subject = oxigraph.namedNode(itemNode(entry.kind, entry.project, entry.id));
    for (const part of store.match(subject, link, null, graph)) for (const quad of store.match(part.object, null, null, graph)) store.delete(quad);
    for (const quad of store.match(subject, null, null, graph)) store.delete(quad);
  },
  'DELETE DATA of the known quads': (entry) =>
    store.update(`DELETE DATA { ${catalogueQuads(entry).replaceAll(` <${CATALOGUE}> .\n`, ' .\n').replace(/^/, `GRAPH <${CATALOGUE}> {\n`)}} }`),
};

console.log(`catalogue entry removal: ${ENTRIES} entries (${store.size} quads), CPU µs per removal, ${PER_ROUND} per way and round`);
let next = 0;
for (let round = 1; round <= ROUNDS; round++) {
  const cells: string[] = [];
  for (const [name, remove] of Object.entries(ways)) {
    let micros = 0;
    for (let k = 0; k < PER_ROUND; k++) {
      const entry = item(next++ % ENTRIES);
      const before = process.cpuUsage();
      remove(entry);
      const used = process.cpuUsage(before);
      micros += used.user + used.system;
      store.load(catalogueQuads(entry), { format: 'application/n-quads' });
    }
    cells.push(`${name} ${(micros / PER_ROUND).toFixed(0)}`);
  }
  console.log(`round ${round}: ${cells.join(' | ')}`);
}
if (store.size !== text.split('\n').length - 1) throw new Error(`the store holds ${store.size} quads after the rounds, not what it started with`);
