import type { Log } from '../../kernel/Log.js';
import type { ProjectRef } from '../../kernel/labels.js';
import type { States } from '../../projection/States.js';
import type { ChangeFeed } from '../../projection/ChangeFeed.js';
import { ProjectionRunner } from '../../projection/ProjectionRunner.js';
import type { Change } from '../../projection/Projection.js';
import type { ViewState } from './View.js';
import { isAggregate } from './View.js';
import { isDefaultView, viewKey } from './viewDefinition.js';
import type { DocumentOf } from './ViewIndex.js';
import { ViewIndex } from './ViewIndex.js';

interface Running {
  index: ViewIndex;
  runner: ProjectionRunner;
  /** The index built from the states: changes after its position wait for it. */
  built: Promise<void>;
  indexingRev: number;
}

/**
 * Every user-defined indexing view's index, each a projection created at run time with a runner and
 * a checkpoint of its own: it indexes what the states hold, then follows the log from there. A
 * runner of the module follows the views themselves: a view created, updated, restarted or
 * undeprecated is (re)indexed, a deprecated one dropped. The default views are answered by the
 * project's search and SPARQL endpoint, never indexed again here.
 */
export class ViewIndexes {
  private readonly running = new Map<string, Running>();
  private readonly control: ProjectionRunner;

  constructor(private readonly deps: { states: States; feed: ChangeFeed; log: Log; documentOf: DocumentOf; views: () => Iterable<ViewState> }) {
    this.control = new ProjectionRunner('views', (change) => this.onChange(change), deps.feed, this.options());
    this.control.startAt(deps.feed.position);
    for (const view of deps.views()) this.sync(view);
  }

  private options() {
    return { maxAttempts: 5, backoffMillis: 100, log: this.deps.log };
  }

  private async onChange(change: Change): Promise<void> {
    if (change.definition.kind !== 'views') return;
    const view = (change.next ?? change.previous) as ViewState;
    this.sync(view, change.next === undefined);
  }

  /** Starts, restarts or stops the view's index as its state asks. */
  sync(view: ViewState, gone = false): void {
    const key = viewKey(view.project, view.id);
    const current = this.running.get(key);
    const wanted = !gone && !view.deprecated && !isAggregate(view.value.fields.type) && !isDefaultView(view.id);
    if (current && (!wanted || current.indexingRev !== view.value.indexingRev)) {
      current.runner.stop();
      this.running.delete(key);
    }
    if (wanted && !this.running.has(key)) this.start(key, view, view.value.indexingRev);
  }

  /** `DELETE .../offset`: the index is rebuilt from nothing. */
  restart(view: ViewState): void {
    const key = viewKey(view.project, view.id);
    this.running.get(key)?.runner.stop();
    this.running.delete(key);
    this.start(key, view, view.value.indexingRev);
  }

  private start(key: string, view: ViewState, indexingRev: number): void {
    const index = new ViewIndex(view, this.deps.documentOf);
    const position = this.deps.feed.position;
    // The states as of now, captured at once: changes after `position` are the runner's.
    const items: [Parameters<ViewIndex['apply']>[0], string, unknown][] = [];
    for (const [definition, states] of this.deps.states.all()) {
      if (!definition.listed) continue;
      for (const [itemKey, state] of states)
        if (definition.listed(state).project === view.project) items.push([definition, `${definition.kind} ${itemKey}`, state]);
    }
    const built = (async () => {
      for (const [definition, itemKey, state] of items) await index.apply(definition, itemKey, state, undefined);
    })();
    const running: Running = { index, built, indexingRev, runner: undefined as unknown as ProjectionRunner };
    running.runner = new ProjectionRunner(
      `view ${view.project} ${view.id}`,
      async (change) => {
        await built;
        await index.applyChange(change);
      },
      this.deps.feed,
      this.options(),
    );
    running.runner.startAt(position);
    this.running.set(key, running);
    built.catch((error: unknown) => this.deps.log.error(`view ${view.project} ${view.id}: indexing failed: ${(error as Error).message}`));
  }

  /** The view's index once it reflects the log as of now (reads wait for it, as every read of a projection does). */
  async ready(project: ProjectRef, id: string): Promise<ViewIndex | undefined> {
    await this.control.reach(this.deps.feed.position);
    const running = this.running.get(viewKey(project, id));
    if (!running) return undefined;
    await running.built;
    await running.runner.reach(this.deps.feed.position);
    return running.index;
  }

  /** Its runner's position and what remains after it, for `offset` and `statistics`. */
  progress(project: ProjectRef, id: string): { position: number; remaining: number; index: ViewIndex } | undefined {
    const running = this.running.get(viewKey(project, id));
    if (!running) return undefined;
    const position = running.runner.position;
    const remaining = this.deps.feed.after(position, 10_000).filter((c) => {
      const state = c.next ?? c.previous;
      return c.definition.listed !== undefined && state !== undefined && c.definition.listed(state).project === project;
    }).length;
    return { position, remaining, index: running.index };
  }

  close(): void {
    this.control.stop();
    for (const running of this.running.values()) running.runner.stop();
    this.running.clear();
  }
}
