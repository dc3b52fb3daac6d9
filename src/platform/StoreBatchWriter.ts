import type { CatalogueProjection } from '../catalogue/CatalogueProjection.js';
import type { GraphStore, RevisionText } from '../store/GraphStore.js';
import { itemNode } from '../store/graphNames.js';
import type { ItemHead, ProjectSparqlStore } from '../store/ProjectSparqlStore.js';
import type { Change } from '../projection/Projection.js';
import type { RevisionProjection } from '../projection/RevisionProjection.js';

/**
 * The lease holder's write of a batch of changes into the shared store, in a handful of requests
 * whatever its length (one change was three to four round trips): the batch's revision graphs at
 * once (each whole and once), then the heads of the items it touched as its last change for each
 * leaves them, then their catalogue entries likewise (an entry names its head graph: written
 * after it), then the graphs of permanently deleted items. Each step leaves what the batch says
 * whatever the store held, so a batch written again after a crash or a takeover changes nothing,
 * and so does each request sent again by the client's retries (Virtuoso's deadlocks, SQL state 40001).
 *
 * A permanent deletion ends a run of the batch: its graphs are dropped before a later change
 * writes the item's graphs anew.
 */
export class StoreBatchWriter {
  constructor(
    private readonly store: GraphStore,
    private readonly datasets: ProjectSparqlStore,
    private readonly revisions: RevisionProjection,
    private readonly catalogue: CatalogueProjection,
  ) {}

  /** Writes `changes` in log order while `proceed()` holds (the lease); false when it stopped before the end. */
  async write(changes: readonly Change[], proceed: () => boolean = () => true): Promise<boolean> {
    const written = new Map<string, string>();
    let run: Change[] = [];
    for (const change of changes) {
      run.push(change);
      if (change.next !== undefined) continue;
      if (!(await this.run(run, written, proceed))) return false;
      run = [];
    }
    return run.length === 0 || (await this.run(run, written, proceed));
  }

  private async run(changes: Change[], written: Map<string, string>, proceed: () => boolean): Promise<boolean> {
    const graphs: RevisionText[] = [];
    const heads: ItemHead[] = [];
    const dropped: { project: string; graphs: string[] }[] = [];
    // Per item, whether its one change of the run created it: then the store holds no head for it but
    // this one (an earlier attempt at the change) or a later change's, which a replay of that change
    // replaces (ItemHead.created). An item changed again in the run is looked up: an earlier attempt
    // split otherwise may have left the head of its first change.
    const created = new Map<string, boolean>();
    for (const change of changes) {
      const planned = await this.revisions.planned(change, (graph) => written.get(graph));
      if (planned === undefined || !change.definition.listed) continue;
      const state = change.next ?? change.previous;
      const { project, id, deprecated } = change.definition.listed(state);
      const item = itemNode(change.definition.kind, project, id);
      created.set(item, !created.has(item) && change.previous === undefined);
      if ('drop' in planned) {
        if (change.definition.revision) heads.push({ project, item, graph: undefined });
        dropped.push({ project, graphs: planned.drop });
        for (const graph of planned.drop) written.delete(graph);
        continue;
      }
      graphs.push(planned);
      written.set(planned.graph, planned.ntriples);
      if (change.definition.revision)
        heads.push(deprecated ? { project, item, graph: undefined } : { project, item, graph: planned.graph, created: created.get(item)! });
    }
    const steps = [
      () => this.store.putGraphs(graphs),
      () => this.datasets.currents(heads),
      () => this.catalogue.writeAll(changes),
      async () => {
        for (const { project, graphs } of dropped) {
          await this.datasets.drop(project, graphs);
          await this.store.dropGraphs(graphs);
        }
      },
    ];
    for (const step of steps) {
      if (!proceed()) return false;
      await step();
    }
    return true;
  }
}
