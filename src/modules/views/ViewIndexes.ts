import { randomUUID } from 'node:crypto';
import type { Log } from '../../kernel/Log.js';
import type { ProjectRef } from '../../kernel/labels.js';
import type { ProjectItem, ProjectItemStates } from '../../projection/ProjectItemStates.js';
import type { ChangeFeed } from '../../projection/ChangeFeed.js';
import { everyReplica } from '../../projection/everyReplica.js';
import { ProjectionRuntime } from '../../projection/ProjectionRuntime.js';
import type { Change } from '../../projection/Projection.js';
import type { ProjectSparqlStore } from '../../store/ProjectSparqlStore.js';
import { viewGraphOf } from '../../store/graphNames.js';
import type { ViewState } from './View.js';
import { isAggregate } from './View.js';
import { isDefaultView, viewKey } from './viewDefinition.js';
import type { DocumentOf, MetadataOf } from './ViewIndex.js';
import { ViewIndex } from './ViewIndex.js';
import { ProjectEvents } from './ProjectEvents.js';
import { sharedGraphOf } from './viewSelection.js';

/** Members sent to the store at a time while a view indexes what exists. */
const BACKFILL_BATCH = 1_000;

/** Where user-defined SPARQL views keep their graphs: the SPARQL endpoint's store. */
export interface ViewGraphStore {
  store: ProjectSparqlStore;
  /** Resolves once the store holds the revisions of the log up to `seq` (an external store is written by one replica, see `storeWriter`). */
  reach(seq: number): Promise<void>;
  /**
   * A store every replica shares: its views' graphs are written by its lease holder alone
   * (`ViewGraphWriter`), one per view and index revision (`sharedGraphOf`), none by this module.
   */
  shared?: boolean;
}

interface Running {
  index: ViewIndex;
  runner: ProjectionRuntime;
  /** The index built from the states: changes after its position wait for it. */
  built: Promise<void>;
  indexingRev: number;
  /** A SPARQL view's graph in the store, and its writes in order (the graph is dropped after the last). */
  graph?: string;
  writes: Promise<void>;
}

/**
 * Every user-defined indexing view's index, each a projection created at run time with a runner and
 * a checkpoint of its own: it indexes what the states hold, then follows the log from there. A
 * SPARQL view writes the triples of what it selects into a graph of its own in the embedded SPARQL
 * store (`viewGraphOf`), queried alone; in a store every replica shares, the store's lease holder
 * writes each view's graph once (`ViewGraphWriter`) and a view's index here only counts what it
 * selects (statistics, offset), its queries waiting for the store's position. A runner of the module follows the views themselves: a view
 * created, updated, restarted or undeprecated is (re)indexed into a new graph, the former one
 * dropped; a deprecated one is dropped. The default views are answered by the project's search and
 * SPARQL endpoint, never indexed again here; the same runner counts each project's events for
 * their statistics.
 */
export class ViewIndexes {
  private readonly running = new Map<string, Running>();
  private readonly control: ProjectionRuntime;
  readonly events: ProjectEvents;
  /** This process's name in its graphs' builds (embedded store). */
  private readonly replica = randomUUID().slice(0, 8);
  private builds = 0;

  constructor(
    private readonly deps: {
      items: ProjectItemStates;
      feed: ChangeFeed;
      log: Log;
      documentOf: DocumentOf;
      metadataOf: MetadataOf;
      graphs: ViewGraphStore;
      views: () => Iterable<ViewState>;
    },
  ) {
    this.events = new ProjectEvents(deps.items);
    this.control = new ProjectionRuntime(
      'views',
      deps.feed,
      everyReplica((change) => this.onChange(change), this.options()),
      deps.log,
    );
    this.control.startAt(deps.feed.position);
    for (const view of deps.views()) this.sync(view);
  }

  private options() {
    return { maxAttempts: 5, backoffMillis: 100 };
  }

  private async onChange(change: Change): Promise<void> {
    this.events.apply(change);
    if (change.definition.kind !== 'views') return;
    const view = (change.next ?? change.previous) as ViewState;
    this.sync(view, change.next === undefined);
  }

  /** Starts, restarts or stops the view's index as its state asks. */
  sync(view: ViewState, gone = false): void {
    const key = viewKey(view.project, view.id);
    const current = this.running.get(key);
    const wanted = !gone && !view.deprecated && !isAggregate(view.value.fields.type) && !isDefaultView(view.id);
    if (current && (!wanted || current.indexingRev !== view.value.indexingRev)) this.stop(key, current);
    if (wanted && !this.running.has(key)) this.start(key, view, view.value.indexingRev);
  }

  /** `DELETE .../offset`: the index is rebuilt from nothing, a SPARQL view's into a new graph. */
  restart(view: ViewState): void {
    const key = viewKey(view.project, view.id);
    const current = this.running.get(key);
    if (current) this.stop(key, current);
    this.start(key, view, view.value.indexingRev);
  }

  private stop(key: string, running: Running): void {
    void running.runner.stop();
    this.running.delete(key);
    const graph = running.graph;
    if (graph !== undefined)
      running.writes = running.writes.catch(() => undefined).then(() => this.deps.graphs.store.dropView(running.index.view.project, graph));
    running.writes.catch((error: unknown) => this.deps.log.warn(`view graph ${graph}: not dropped: ${(error as Error).message}`));
  }

  private start(key: string, view: ViewState, indexingRev: number): void {
    const shared = this.deps.graphs.shared === true;
    const index = new ViewIndex(view, this.deps.documentOf, this.deps.metadataOf, !shared);
    const position = this.deps.feed.position;
    const graph = !shared && view.value.fields.type === 'SparqlView' ? viewGraphOf(view.project, view.id, `${this.replica}.${++this.builds}`) : undefined;
    // The states as of now, captured at once: changes after `position` are the runner's.
    // The shared kinds' states are read after (their latest, possibly past `position`: the runner
    // applying a change again leaves what it left).
    const held = this.deps.items.held(view.project);
    const running: Running = {
      index,
      indexingRev,
      writes: Promise.resolve(),
      built: Promise.resolve(),
      runner: undefined as unknown as ProjectionRuntime,
      ...(graph ? { graph } : {}),
    };
    const write = (seq: number) => {
      if (graph === undefined) return Promise.resolve();
      const members = index.taken();
      if (!members.length) return running.writes;
      // The store copies the members' revisions: it must hold them first.
      running.writes = running.writes
        .catch(() => undefined)
        .then(async () => {
          try {
            await this.deps.graphs.reach(seq);
            await this.deps.graphs.store.viewMembers(view.project, graph, members);
          } catch (error) {
            // Sent again with the next write (the runner retries the change that failed).
            index.requeue(members);
            throw error;
          }
        });
      return running.writes;
    };
    running.built = (async () => {
      let applied = 0;
      const backfill = async (items: readonly ProjectItem[]) => {
        for (const { definition, key, state } of items) {
          await index.apply(definition, `${definition.kind} ${key}`, state, undefined);
          if (++applied % BACKFILL_BATCH === 0) void write(position).catch(() => undefined);
        }
      };
      await backfill(held);
      for await (const page of this.deps.items.sharedOf(view.project)) await backfill(page);
      await write(position);
    })();
    running.runner = new ProjectionRuntime(
      `view ${view.project} ${view.id}`,
      this.deps.feed,
      everyReplica(async (change) => {
        await running.built;
        await index.applyChange(change);
        await write(change.logged.seq);
      }, this.options()),
      this.deps.log,
    );
    running.runner.startAt(position);
    this.running.set(key, running);
    running.built.catch((error: unknown) => this.deps.log.error(`view ${view.project} ${view.id}: indexing failed: ${(error as Error).message}`));
  }

  /** The view's index once it reflects the log as of now (reads wait for it, as every read of a projection does). */
  async ready(project: ProjectRef, id: string): Promise<{ index: ViewIndex; graph?: string } | undefined> {
    const position = this.deps.feed.position;
    // A view created just before is started by the runner following the views.
    await this.control.reach(position);
    const running = this.running.get(viewKey(project, id));
    if (!running) return undefined;
    await running.built;
    await running.runner.reach(position);
    await running.writes;
    if (this.deps.graphs.shared) {
      // The holder wrote the view's graph as of the store's position: it covers the log as of this read.
      const graph = sharedGraphOf(running.index.view);
      if (graph !== undefined) await this.deps.graphs.reach(position);
      return { index: running.index, ...(graph ? { graph } : {}) };
    }
    return { index: running.index, ...(running.graph ? { graph: running.graph } : {}) };
  }

  /** Its runner's position and what remains after it, for `offset` and `statistics`. */
  progress(project: ProjectRef, id: string): { position: number; remaining: number; index: ViewIndex } | undefined {
    const running = this.running.get(viewKey(project, id));
    if (!running) return undefined;
    const position = running.runner.position;
    return { position, remaining: this.remaining(project, position), index: running.index };
  }

  /** The project's changes the log holds after `position`. */
  remaining(project: ProjectRef, position: number): number {
    return this.deps.feed.after(position, 10_000).filter((c) => {
      const state = c.next ?? c.previous;
      return c.definition.listed !== undefined && state !== undefined && c.definition.listed(state).project === project;
    }).length;
  }

  /** The runner counting the projects' events, for the default views' statistics. */
  get defaultPosition(): number {
    return this.control.position;
  }

  async close(): Promise<void> {
    this.control.stop();
    const all = [...this.running];
    for (const [key, running] of all) this.stop(key, running);
    // The embedded store's graphs are this process's own: they go with it.
    await Promise.all(all.map(([, r]) => r.writes.catch(() => undefined)));
  }
}
