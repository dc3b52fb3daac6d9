import type { ProjectRef } from '../kernel/labels.js';
import type { JsonLdProcessor } from '../jsonld/JsonLdProcessor.js';
import { iri } from '../rdf/terms.js';
import type { GraphStore } from '../store/GraphStore.js';
import { itemNode, revisionGraph } from '../store/graphNames.js';
import type { RevisionFile } from '../store/RevisionFile.js';
import type { Change, Projection } from './Projection.js';

/**
 * Every revision of every item of a kind kept in the store is its own named graph, holding exactly
 * the triples of that revision as expanded at write time; the revision file persists them.
 */
export class RevisionProjection implements Projection {
  constructor(
    private readonly store: GraphStore,
    private readonly file: RevisionFile,
    private readonly jsonld: JsonLdProcessor,
  ) {}

  async apply(change: Change): Promise<void> {
    const { definition, previous, next, logged } = change;
    if (!definition.listed) return;
    if (next === undefined) {
      if (previous === undefined) return;
      const { project, id, rev } = definition.listed(previous);
      await this.drop(definition.kind, project, id, rev);
      return;
    }
    const content = definition.revision?.(previous, next, logged);
    if (content === undefined) return;
    const { project, id, rev } = definition.listed(next);
    change.triples =
      content === 'unchanged'
        ? await this.copy(definition.kind, project, id, definition.listed(previous!).rev, rev)
        : await this.put(definition.kind, project, id, rev, await this.jsonld.toNQuads(content.expanded));
  }

  /** Writes one revision graph from N-Triples text; returns the text. */
  async put(kind: string, project: ProjectRef, id: string, rev: number, triples: string): Promise<string> {
    const quads = intoGraph(triples, revisionGraph(kind, project, id, rev));
    await this.store.load(quads);
    this.file.append(quads);
    return triples;
  }

  /** A revision that changes no content (tag, deprecation) still gets its own graph, a copy of the previous one. */
  async copy(kind: string, project: ProjectRef, id: string, from: number, to: number): Promise<string> {
    return this.put(kind, project, id, to, await this.store.graph(revisionGraph(kind, project, id, from)));
  }

  /** Permanent deletion: every revision graph of the item and its persisted quads. */
  async drop(kind: string, project: ProjectRef, id: string, lastRev: number): Promise<void> {
    await this.store.dropGraphs(Array.from({ length: lastRev }, (_, i) => revisionGraph(kind, project, id, i + 1)));
    await this.file.remove(`${itemNode(kind, project, id)}/rev/`);
  }

  /** Empties the store (a restart falling back to a full replay after a failed load). */
  async reset(): Promise<void> {
    await this.store.update('CLEAR ALL');
  }

  /** Restart: the persisted revision graphs, with room made for `extraBytes` of text loaded after them. */
  async load(extraBytes: number): Promise<void> {
    await this.store.prepareLoad(this.file.flush() + extraBytes);
    for (const chunk of this.file.chunks()) await this.store.load(chunk);
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
