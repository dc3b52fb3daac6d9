import type { Change } from '../../projection/Projection.js';
import type { SharedStoreWriterDeps } from '../../projection/SharedStoreWriter.js';
import type { ViewMember } from '../../store/ProjectSparqlStore.js';
import type { ViewState } from './View.js';
import type { MetadataOf } from './viewSelection.js';
import { memberItem, sharedGraphOf, sparqlMemberOf } from './viewSelection.js';

/** Members sent to the store at a time while a view's graph is built. */
const BUILD_BATCH = 500;

export interface ViewGraphWriterDeps extends Omit<SharedStoreWriterDeps, 'addresses'> {
  metadataOf: MetadataOf;
}

/**
 * The user-defined SPARQL views' graphs in a store every replica shares, written once, by the
 * store's lease holder: one graph per view and index revision (`sharedGraphOf`), which every replica
 * queries once the store's position covers what the request needs.
 *
 * With each batch the holder writes (after its revision graphs: a member's triples are copied from
 * them), and on its own now and then (`sweep`), the holder first brings the set of graphs to what
 * the views say: a graph no longer wanted (the view updated to another selection, deprecated,
 * deleted) or left unfinished by a holder that died mid-build is dropped, a wanted graph missing is
 * built from the states. Then each change of the batch sets its item in every wanted graph of its
 * project. A graph built from states ahead of the store converges: every change after the store's
 * position is applied to it afterwards, in log order, the last one leaving what the states said,
 * and each write copies its member's triples again (its revision may have reached the store only
 * since). What the store holds is read from it, never remembered across tenures, so a holder that
 * takes over goes on from what the last one left, and a replica that crashes leaves nothing behind
 * but what the next holder sweeps.
 */
export class ViewGraphWriter {
  /** The lease's epoch for which `present` is known. */
  private tenure: number | undefined;
  /** The view graphs in the store, and whether each is complete. */
  private present = new Map<string, boolean>();
  private queue: Promise<unknown> = Promise.resolve();
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly deps: ViewGraphWriterDeps) {}

  /** A batch under the lease, in log order; false when it stopped before the end (`proceed()` no longer held). */
  write(changes: readonly Change[], proceed: () => boolean): Promise<boolean> {
    return this.serial(async () => (await this.sync(proceed)) && (await this.apply(changes, proceed)));
  }

  /** The graphs brought to what the views say without waiting for a batch (a holder that took over while nothing is written). */
  sweep(proceed: () => boolean): Promise<boolean> {
    return this.serial(() => this.sync(proceed));
  }

  /**
   * Sweeps every `millis` while `holding()` (the store's runner holds the lease), none while the
   * last is running: a holder that took over sweeps what a dead one left even while nothing is written.
   */
  every(millis: number, holding: () => boolean, proceed: () => boolean): void {
    let running = false;
    this.timer = setInterval(() => {
      if (running || !holding()) return;
      running = true;
      this.sweep(proceed)
        .catch((error: unknown) => this.deps.log.warn(`views' graphs: not swept: ${(error as Error).message}`))
        .finally(() => (running = false));
    }, millis);
    this.timer.unref();
  }

  /** No more sweeps; what is under way ends. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.queue;
  }

  /** One after the other: a sweep and a batch never write the same graph at once. */
  private serial(task: () => Promise<boolean>): Promise<boolean> {
    const run = this.queue.then(task, task);
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** The graphs wanted now, and their views. */
  private wanted(): Map<string, ViewState> {
    const wanted = new Map<string, ViewState>();
    const definition = this.deps.states.definitionOf('views');
    const views = definition ? (this.deps.states.all().get(definition) as ReadonlyMap<string, ViewState>) : undefined;
    for (const view of views?.values() ?? []) {
      const graph = sharedGraphOf(view);
      if (graph !== undefined) wanted.set(graph, view);
    }
    return wanted;
  }

  private async sync(proceed: () => boolean): Promise<boolean> {
    const epoch = this.deps.epoch();
    if (epoch === undefined || !proceed()) return false;
    if (this.tenure !== epoch) {
      this.present = new Map((await this.deps.store.heldViewGraphs()).map((held) => [held.graph, held.complete]));
      this.tenure = epoch;
    }
    const wanted = this.wanted();
    for (const [graph, complete] of [...this.present]) {
      if (complete && wanted.has(graph)) continue;
      if (!proceed()) return false;
      await this.deps.store.dropViewGraph(graph);
      this.present.delete(graph);
    }
    for (const [graph, view] of wanted) if (!this.present.has(graph) && !(await this.build(graph, view, proceed))) return false;
    return true;
  }

  /** The view's graph from the states, recorded as a build first: a holder dying meanwhile leaves it to be dropped and built again. */
  private async build(graph: string, view: ViewState, proceed: () => boolean): Promise<boolean> {
    // Read before any is written: the states change while the members are written (the shared
    // kinds' are their latest, possibly past the store: the changes after converge them).
    const members: ViewMember[] = [];
    for await (const page of this.deps.items.of(view.project))
      for (const { definition, state } of page) {
        const listed = definition.listed!(state);
        const tags = (state as { tags?: Record<string, number> }).tags ?? {};
        const member = sparqlMemberOf(view, definition.kind, listed, tags, this.deps.metadataOf, memberItem(definition.kind, listed));
        if (member.graph !== undefined) members.push(member);
      }
    if (!proceed()) return false;
    await this.deps.store.registerViewGraph(graph, false);
    this.present.set(graph, false);
    for (let i = 0; i < members.length; i += BUILD_BATCH) {
      if (!(await this.deps.renew()) || !proceed()) return false;
      await this.deps.store.viewMembers(view.project, graph, members.slice(i, i + BUILD_BATCH));
    }
    if (!proceed()) return false;
    await this.deps.store.registerViewGraph(graph, true);
    this.present.set(graph, true);
    this.deps.log.info(`view ${view.project} ${view.id}: its graph built in the shared store (${members.length} members)`);
    return true;
  }

  /** Each change's item set in every wanted graph of its project, as the change left it. */
  private async apply(changes: readonly Change[], proceed: () => boolean): Promise<boolean> {
    const wanted = this.wanted();
    const touched = new Map<string, { view: ViewState; members: Map<string, ViewMember> }>();
    for (const change of changes) {
      const { definition, next, previous } = change;
      const state = next ?? previous;
      if (!definition.listed || state === undefined) continue;
      const listed = definition.listed(state);
      const item = memberItem(definition.kind, listed);
      const tags = (next as { tags?: Record<string, number> } | undefined)?.tags ?? {};
      for (const [graph, view] of wanted) {
        if (view.project !== listed.project || !this.present.get(graph)) continue;
        let entry = touched.get(graph);
        if (!entry) touched.set(graph, (entry = { view, members: new Map() }));
        entry.members.set(item, sparqlMemberOf(view, definition.kind, next === undefined ? undefined : listed, tags, this.deps.metadataOf, item));
      }
    }
    for (const [graph, { view, members }] of touched) {
      if (!proceed()) return false;
      await this.deps.store.viewMembers(view.project, graph, [...members.values()]);
    }
    return true;
  }
}
