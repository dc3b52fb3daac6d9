import type { KindDefinition } from '../domain/KindDefinition.js';
import type { ProjectRef } from '../kernel/labels.js';
import { itemNode, revisionGraph } from '../store/graphNames.js';
import type { ProjectSparqlStore } from '../store/ProjectSparqlStore.js';
import type { Change, Projection } from './Projection.js';

/**
 * Feeds the SPARQL endpoint's datasets: every revision graph as the revision projection wrote it,
 * and the head of each item (none while deprecated). Registered after the revision projection,
 * whose triples it forwards.
 */
export class SparqlReplicaProjection implements Projection {
  constructor(private readonly replica: ProjectSparqlStore) {}

  async apply(change: Change): Promise<void> {
    const { definition, previous, next } = change;
    if (!definition.listed || !definition.revision) return;
    if (next === undefined) {
      if (previous === undefined) return;
      const { project, id, rev } = definition.listed(previous);
      await this.replica.current(project, itemNode(definition.kind, project, id), undefined);
      await this.replica.drop(
        project,
        Array.from({ length: rev }, (_, i) => revisionGraph(definition.kind, project, id, i + 1)),
      );
      return;
    }
    if (change.triples === undefined) return;
    const { project, id, rev, deprecated } = definition.listed(next);
    const graph = revisionGraph(definition.kind, project, id, rev);
    await this.replica.revision(project, graph, change.triples);
    await this.replica.current(project, itemNode(definition.kind, project, id), deprecated ? undefined : graph);
  }

  /** Starts the replica from the restored states (the revision file holds their graphs). */
  async restore(states: ReadonlyMap<KindDefinition, ReadonlyMap<string, unknown>>): Promise<void> {
    const heads: [ProjectRef, string, string][] = [];
    for (const [definition, items] of states) {
      if (!definition.listed || !definition.revision) continue;
      for (const state of items.values()) {
        const { project, id, rev, deprecated } = definition.listed(state);
        if (!deprecated) heads.push([project, itemNode(definition.kind, project, id), revisionGraph(definition.kind, project, id, rev)]);
      }
    }
    await this.replica.start(heads);
  }
}
