import type { ProjectRef } from '../kernel/labels.js';
import type { JsonLdProcessor } from '../jsonld/JsonLdProcessor.js';
import type { GraphStore, RevisionText } from '../store/GraphStore.js';
import { revisionGraph } from '../store/graphNames.js';
import type { Change } from './Projection.js';

/**
 * Every revision of every item of a kind kept in the store is its own named graph, holding exactly
 * the triples of that revision as expanded at write time; the store persists them.
 */
export class RevisionProjection {
  constructor(
    private readonly store: GraphStore,
    private readonly jsonld: JsonLdProcessor,
    /**
     * False where another runner writes the store (a store shared by every replica, written by the
     * lease holder): the states' fold only derives a content revision's triples for the projections
     * after it, and hands none for a revision that copies the previous one (whose graph this
     * replica may not see yet); the payload sort indexes then fall back to the store.
     */
    private readonly writes = true,
  ) {}

  /** Writes the revision graph a change makes; returns its N-Triples, which later projections are given. */
  async apply(change: Omit<Change, 'triples'>): Promise<string | undefined> {
    const { definition, previous, next, logged } = change;
    if (!definition.listed) return undefined;
    if (!this.writes) {
      const content = next === undefined ? undefined : definition.revision?.(previous, next, logged);
      return content === undefined || content === 'unchanged' ? undefined : await this.jsonld.toNQuads(content.expanded);
    }
    if (next === undefined) {
      if (previous === undefined) return undefined;
      const { project, id, rev } = definition.listed(previous);
      await this.drop(definition.kind, project, id, rev);
      return undefined;
    }
    const content = definition.revision?.(previous, next, logged);
    if (content === undefined) return undefined;
    const { project, id, rev } = definition.listed(next);
    return content === 'unchanged'
      ? await this.copy(definition.kind, project, id, definition.listed(previous!).rev, rev)
      : await this.put(definition.kind, project, id, rev, await this.jsonld.toNQuads(content.expanded));
  }

  /**
   * The N-Triples the fold handed on with a change, made again for a change read again from the log
   * (`LogReplay`): the fold wrote its graph already where this process writes them, and a copied
   * revision is read from there; where it does not, the fold handed none for a copy either.
   */
  async replayed(change: Omit<Change, 'triples'>): Promise<string | undefined> {
    const { definition, previous, next, logged } = change;
    if (!definition.listed || next === undefined) return undefined;
    const content = definition.revision?.(previous, next, logged);
    if (content === undefined) return undefined;
    if (content !== 'unchanged') return await this.jsonld.toNQuads(content.expanded);
    if (!this.writes) return undefined;
    const { project, id, rev } = definition.listed(next);
    return this.store.graph(revisionGraph(definition.kind, project, id, rev));
  }

  /**
   * What `apply` would write, without writing, for the writer of a shared store (which writes a
   * batch at once): the revision graph a change makes with its text (derived already by the fold,
   * or a copy read from `written`, the graphs of the same batch, else from the store), or the
   * graphs a permanent deletion drops.
   */
  async planned(change: Change, written: (graph: string) => string | undefined): Promise<RevisionText | { drop: string[] } | undefined> {
    const { definition, previous, next, logged, triples } = change;
    if (!definition.listed) return undefined;
    if (next === undefined) {
      if (previous === undefined) return undefined;
      const { project, id, rev } = definition.listed(previous);
      return { drop: Array.from({ length: rev }, (_, i) => revisionGraph(definition.kind, project, id, i + 1)) };
    }
    const { project, id, rev } = definition.listed(next);
    const graph = revisionGraph(definition.kind, project, id, rev);
    if (triples !== undefined) return { graph, ntriples: triples };
    const content = definition.revision?.(previous, next, logged);
    if (content === undefined) return undefined;
    if (content !== 'unchanged') return { graph, ntriples: await this.jsonld.toNQuads(content.expanded) };
    const from = revisionGraph(definition.kind, project, id, definition.listed(previous!).rev);
    return { graph, ntriples: written(from) ?? (await this.store.graph(from)) };
  }

  /** Writes one revision graph from N-Triples text; returns the text. */
  async put(kind: string, project: ProjectRef, id: string, rev: number, triples: string): Promise<string> {
    await this.store.putGraph(revisionGraph(kind, project, id, rev), triples);
    return triples;
  }

  /** A revision that changes no content (tag, deprecation) still gets its own graph, a copy of the previous one. */
  async copy(kind: string, project: ProjectRef, id: string, from: number, to: number): Promise<string> {
    return this.put(kind, project, id, to, await this.store.graph(revisionGraph(kind, project, id, from)));
  }

  /** Permanent deletion: every revision graph of the item. */
  async drop(kind: string, project: ProjectRef, id: string, lastRev: number): Promise<void> {
    await this.store.dropGraphs(Array.from({ length: lastRev }, (_, i) => revisionGraph(kind, project, id, i + 1)));
  }
}
