import type { ProjectRef } from '../domain/labels.js';
import type { CatalogueItem } from '../catalogue/catalogue.js';
import { catalogueQuads, catalogueTriples, removeCatalogueUpdate } from '../catalogue/catalogue.js';
import type { GraphStore } from './GraphStore.js';
import { CATALOGUE, itemNode, revisionGraph } from './graphNames.js';
import { iri } from '../rdf/terms.js';
import type { RevisionFile } from './RevisionFile.js';
import type { CatalogueIndex } from '../catalogue/CatalogueIndex.js';
import type { PayloadSortIndexes } from '../catalogue/PayloadSortIndexes.js';

/**
 * Writes projected state into the triple store: one named graph per revision (also appended to
 * the revision file that persists them) and the catalogue of current states.
 */
export class StoreProjection {
  constructor(
    private readonly store: GraphStore,
    private readonly file: RevisionFile,
    private readonly index: CatalogueIndex,
    private readonly sorts: PayloadSortIndexes,
  ) {}

  /** `triples` is N-Triples (or default-graph N-Quads) text of the revision's content. */
  async putRevision(kind: string, project: ProjectRef, id: string, rev: number, triples: string): Promise<void> {
    const quads = intoGraph(triples, revisionGraph(kind, project, id, rev));
    await this.store.load(quads);
    this.file.append(quads);
    this.sorts.revision(revisionGraph(kind, project, id, rev), triples);
  }

  /** A revision that changes no content (tag, deprecation) still gets its own graph. */
  async copyRevision(kind: string, project: ProjectRef, id: string, from: number, to: number): Promise<void> {
    await this.putRevision(kind, project, id, to, await this.store.graph(revisionGraph(kind, project, id, from)));
  }

  async revisionTriples(kind: string, project: ProjectRef, id: string, rev: number): Promise<string> {
    return this.store.graph(revisionGraph(kind, project, id, rev));
  }

  async setCatalogue(item: CatalogueItem, replace: boolean): Promise<void> {
    if (replace) await this.store.update(removeCatalogueUpdate(item.kind, item.project, item.id));
    await this.store.load(catalogueQuads(item));
    this.index.set(item);
    this.sorts.current(item);
  }

  /** Bulk form for restarts: the catalogue is derived from the states, never persisted itself. */
  async loadCatalogue(items: CatalogueItem[]): Promise<void> {
    this.index.load(items);
    this.sorts.clear();
    // Loaded as bytes: encoding concatenated strings for WASM took a fifth of a restart.
    let batch: string[] = [];
    let size = 0;
    for (const item of items) {
      const triples = catalogueTriples(item);
      batch.push(triples);
      size += triples.length;
      if (size > 4_000_000) {
        await this.store.loadGraph(CATALOGUE, Buffer.from(batch.join('')));
        batch = [];
        size = 0;
      }
    }
    await this.store.loadGraph(CATALOGUE, Buffer.from(batch.join('')));
  }

  /** Restart: the persisted revision graphs, then the catalogue of `items` current states (about 1.5 KB of text each). */
  async loadRevisions(items: number): Promise<void> {
    await this.store.prepareLoad(this.file.flush() + items * 1_500);
    for (const chunk of this.file.chunks()) await this.store.load(chunk);
  }

  /** Permanent deletion: every revision graph, the catalogue entry and the persisted quads. */
  async dropItem(kind: string, project: ProjectRef, id: string, lastRev: number): Promise<void> {
    await this.store.update(removeCatalogueUpdate(kind, project, id));
    this.index.remove(kind, project, id);
    this.sorts.dropped(kind, project, id);
    const graphs = Array.from({ length: lastRev }, (_, i) => revisionGraph(kind, project, id, i + 1));
    await this.store.dropGraphs(graphs);
    await this.file.remove(`${itemNode(kind, project, id)}/rev/`);
  }

  size(): Promise<number> {
    return this.store.size();
  }
}

/** Puts every triple of N-Triples text into graph `g`. */
const intoGraph = (triples: string, g: string): string => {
  const graph = ` ${iri(g)} .`;
  let out = '';
  for (const line of triples.split('\n')) {
    const end = line.lastIndexOf(' .');
    if (end > 0) out += `${line.slice(0, end)}${graph}\n`;
  }
  return out;
};
