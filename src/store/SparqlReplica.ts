import { Worker } from 'node:worker_threads';
import type { ProjectRef } from '../kernel/labels.js';
import type { ItemHead, ProjectQuery, ProjectSparqlStore, QueryAnswer, ViewMember } from './ProjectSparqlStore.js';
import { QueryFailed } from './ProjectSparqlStore.js';
import { FreshWorkerState } from './FreshWorkerState.js';
import type { ReplicaChange, ReplicaMessage, ReplicaStart, Reply } from './sparqlReplicaMessages.js';
import { QueryMemoryWatch } from './QueryMemoryWatch.js';
import { FairQueue } from './FairQueue.js';

interface Pending {
  query: ProjectQuery;
  queuedAt: number;
  resolve(answer: QueryAnswer): void;
  reject(error: unknown): void;
}

export interface ReplicaOptions {
  /** A query's budget, counted from when it was asked. */
  timeoutMillis: number;
  /** Most rows (SELECT) or triples (CONSTRUCT, DESCRIBE) one answer may hold. */
  maxResults: number;
  /** Query workers, each holding the projects it was asked about (default 1). */
  workers?: number;
  /** The JavaScript heap of a worker, in MiB: past it the worker is stopped (its query answered as a crash). */
  heapMb?: number;
  /** Growth of the process' memory while queries run, in MiB: past it the longest-running query is stopped (answered as a crash). */
  queryMemoryMb?: number;
  /** Most quads one SPARQL view's copy may hold in each worker (unbounded if absent). */
  maxViewQuads?: number;
  /**
   * A worker that answered no query for this long, holding projects beyond those of the SPARQL
   * views, is replaced by a fresh one (0: never). WASM memory never shrinks: only a new worker gives
   * back what the projects it loaded, and the queries it ran, took.
   */
  idleMillis?: number;
  log(line: string): void;
}

/** Changes are posted to the workers at the latest this long after the first of them, or once this many wait (see `send`). */
const POST_MILLIS = 50;
const POST_CHANGES = 500;

/** A query worker, and the query it runs. */
interface Slot {
  worker: Worker;
  ready: boolean;
  /** The projects it was asked about, which it holds. */
  projects: Set<ProjectRef>;
  /** When it last finished a query (`Date.now()`), or started. */
  lastUsed: number;
  running?: Pending & {
    id: number;
    timer: NodeJS.Timeout;
    /** It waits in the worker for its project to be loaded or its view's copy built, not running yet. */
    building?: boolean;
  };
}

/**
 * Callers' SPARQL queries run in worker threads, each holding a replica of the datasets of the
 * projects it was asked about (`ProjectDatasets`, loaded from the revision file on a project's first
 * query), never on the event loop: Oxigraph evaluates synchronously and cannot be
 * interrupted, so a query over its budget is stopped by terminating its worker. A new one starts at
 * once from the revision file and the current heads, which this side keeps; changes made since are
 * sent after, in order. Each worker runs one query at a time, so a costly query holds one worker and
 * the others keep answering; queries wait in a queue with a lane per caller, served in turn, and a
 * caller holds at most every worker but one (issue 32: two costly queries of one tenant held both
 * workers, and another's `ASK {}` waited 29 s). A worker that dies under a query (out of memory, an
 * engine panic) answers it as a crash, never as a bad query.
 *
 * A SPARQL view's copy is built in the worker in slices, between queries (`ViewStores`); a query
 * over a view whose copy is not complete waits for it in the worker, and if its budget runs out
 * there it is answered busy (503) and the worker kept: replacing it would only start every copy
 * anew (issue 32: the replacements' copies kept SPARQL down for minutes).
 */
export class SparqlReplica implements ProjectSparqlStore {
  private readonly slots: Slot[] = [];
  private readonly fresh = new FreshWorkerState();
  private readonly queue = new FairQueue<Pending>();
  /** Workers one caller may hold at once: all but one, so that another caller always finds one. */
  private readonly perCaller: number;
  private next = 0;
  private closed = false;
  private readonly memory: QueryMemoryWatch | undefined;
  /** Changes not yet posted: all those of one turn of the event loop go in one message per worker. */
  private changes: ReplicaChange[] = [];
  private timer: NodeJS.Timeout | undefined;
  private idleCheck: NodeJS.Timeout | undefined;

  constructor(
    private readonly revisions: { readonly path: string; flush(): number },
    private readonly options: ReplicaOptions,
  ) {
    this.perCaller = Math.max(1, (options.workers ?? 1) - 1);
    if (options.queryMemoryMb !== undefined) this.memory = new QueryMemoryWatch(options.queryMemoryMb * 1024 * 1024, (grown) => this.overMemory(grown));
  }

  /** Starts the workers once the revision file and the heads are restored; changes before are only remembered. */
  async start(heads: Iterable<[ProjectRef, string, string]>): Promise<void> {
    for (const [project, item, graph] of heads) this.fresh.current(project, item, graph);
    for (let i = 0; i < Math.max(1, this.options.workers ?? 1); i++) this.slots.push(this.spawn());
    const idle = this.options.idleMillis ?? 0;
    if (idle > 0) this.idleCheck = setInterval(() => this.replaceIdle(), Math.max(10, Math.min(idle / 4, 5_000))).unref();
  }

  /** The query workers' thread ids, in slot order: a replaced worker's id changes. */
  threads(): number[] {
    return this.slots.map((slot) => slot.worker.threadId);
  }

  // The worker applies changes in the order they are posted, before any later query (posted after them).
  async revision(project: ProjectRef, graph: string, ntriples: string): Promise<void> {
    this.send({ t: 'revision', project, graph, ntriples });
  }

  async current(project: ProjectRef, item: string, graph: string | undefined): Promise<void> {
    this.fresh.current(project, item, graph);
    this.send({ t: 'current', project, item, graph });
  }

  async currents(heads: readonly ItemHead[]): Promise<void> {
    for (const { project, item, graph } of heads) await this.current(project, item, graph);
  }

  async drop(project: ProjectRef, graphs: string[]): Promise<void> {
    this.send({ t: 'drop', project, graphs });
  }

  async viewMembers(project: ProjectRef, view: string, members: ViewMember[]): Promise<void> {
    this.fresh.members(project, view, members);
    // Every worker copies the view, from its project's graphs: each holds the project from then on.
    for (const slot of this.slots) slot.projects.add(project);
    this.send({ t: 'members', project, view, members });
  }

  async dropView(_project: ProjectRef, view: string): Promise<void> {
    this.fresh.dropView(view);
    this.send({ t: 'dropView', view });
  }

  query(query: ProjectQuery): Promise<QueryAnswer> {
    return new Promise((resolve, reject) => {
      if (this.closed) return reject(new Error('the SPARQL replica is closed'));
      this.queue.push(query.caller ?? '', { query, queuedAt: Date.now(), resolve, reject });
      this.dispatch();
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.timer);
    clearInterval(this.idleCheck);
    for (const pending of this.queue.drain()) pending.reject(new Error('the SPARQL replica is closed'));
    for (const slot of this.slots)
      if (slot.running) {
        clearTimeout(slot.running.timer);
        slot.running.reject(new Error('the SPARQL replica is closed'));
        slot.running = undefined;
        this.watchIdle();
      }
    await Promise.all(this.slots.splice(0).map((slot) => slot.worker.terminate()));
  }

  /**
   * Posting a message wakes each worker, which costs the event loop far more than the message
   * itself (a write's two messages to two workers: 165-175 µs, then ~80 µs for one, measured in
   * issue 22). Nothing waits for the workers to hold a change but the queries, and each query is
   * posted after every change before it (`dispatch`): so changes travel together, when a query
   * comes, else every POST_MILLIS or POST_CHANGES changes (the backlog a query could find stays small).
   */
  private send(change: ReplicaChange): void {
    const count = this.changes.push(change);
    if (count >= POST_CHANGES) this.post();
    else if (count === 1) this.timer = setTimeout(() => this.post(), POST_MILLIS).unref();
  }

  private post(): void {
    clearTimeout(this.timer);
    if (!this.changes.length) return;
    // A worker loads a project from the file when first asked about it, having skipped its changes: the file holds their revisions first.
    this.revisions.flush();
    const changes = this.changes;
    this.changes = [];
    // A revision goes only to the workers holding its project (the others would skip it): the text is most of what a message copies.
    for (const slot of this.slots) {
      const theirs = changes.filter((change) => change.t !== 'revision' || slot.projects.has(change.project));
      if (theirs.length) slot.worker.postMessage({ t: 'changes', changes: theirs } satisfies ReplicaMessage);
    }
  }

  private spawn(): Slot {
    // Changes made so far go to the workers running; the new one finds them in the heads and the file.
    this.post();
    const heads = this.fresh.headList();
    // Everything projected so far is in the file once flushed; later changes reach the worker as messages.
    this.revisions.flush();
    const views = this.fresh.viewList();
    const start: ReplicaStart = {
      file: this.revisions.path,
      heads,
      views,
      maxResults: this.options.maxResults,
      ...(this.options.maxViewQuads === undefined ? {} : { maxViewQuads: this.options.maxViewQuads }),
    };
    const worker = new Worker(new URL('./sparqlReplicaWorker.js', import.meta.url), {
      workerData: start,
      ...(this.options.heapMb === undefined ? {} : { resourceLimits: { maxOldGenerationSizeMb: this.options.heapMb } }),
    });
    const slot: Slot = { worker, ready: false, projects: new Set(views.map(([project]) => project)), lastUsed: Date.now() };
    worker.on('message', (reply: Reply) => this.settle(slot, reply));
    worker.on('error', (error) => this.failed(slot, error));
    worker.on('exit', (code) => code !== 0 && this.failed(slot, new Error(`the query worker exited with code ${code}`)));
    worker.unref();
    return slot;
  }

  /** Workers the caller's queries hold. */
  private held(caller: string): number {
    let count = 0;
    for (const slot of this.slots) if (slot.running && (slot.running.query.caller ?? '') === caller) count++;
    return count;
  }

  /**
   * Gives waiting queries to idle workers: to one holding the query's project if any, else to the
   * first idle one, so that a project is loaded into a second worker only while the first is busy.
   */
  private dispatch(): void {
    const may = (caller: string) => this.held(caller) < this.perCaller;
    for (;;) {
      const idle = this.slots.filter((slot) => !slot.running && slot.ready);
      if (!idle.length || !this.queue.size) return;
      const pending = this.queue.take(may);
      if (!pending) return;
      const left = this.options.timeoutMillis - (Date.now() - pending.queuedAt);
      if (left <= 0) {
        pending.reject(new QueryFailed({ failure: 'busy', millis: this.options.timeoutMillis }));
        continue;
      }
      const slot = idle.find((candidate) => candidate.projects.has(pending.query.project)) ?? idle[0]!;
      const id = ++this.next;
      this.post();
      // Its revisions go to this worker from now on; those before are in the file it loads the project from.
      slot.projects.add(pending.query.project);
      slot.running = { ...pending, id, timer: setTimeout(() => this.overBudget(slot), left) };
      slot.worker.postMessage({
        t: 'query',
        id,
        query: pending.query,
        deadline: pending.queuedAt + this.options.timeoutMillis,
        millis: this.options.timeoutMillis,
      } satisfies ReplicaMessage);
      this.memory?.running();
    }
  }

  private settle(slot: Slot, reply: Reply): void {
    if (!this.slots.includes(slot)) return;
    if ('ready' in reply) {
      slot.ready = true;
      return this.dispatch();
    }
    const running = slot.running;
    if ('building' in reply) {
      if (running?.id === reply.building) running.building = true;
      return;
    }
    if ('started' in reply) {
      if (running?.id !== reply.started) return;
      running.building = false;
      // What the load or the copy took is not the query's.
      this.memory?.rebase();
      return;
    }
    if (!running || running.id !== reply.id) return;
    clearTimeout(running.timer);
    slot.running = undefined;
    slot.lastUsed = Date.now();
    this.watchIdle();
    if ('answer' in reply) running.resolve(reply.answer);
    else {
      if (reply.failure.failure === 'crashed')
        this.options.log(`sparql: a query in project ${running.query.project} crashed its worker (${reply.failure.message}): replaced`);
      running.reject(new QueryFailed(reply.failure));
    }
    this.dispatch();
  }

  /** A new worker in the slot's place (the old one is terminated or gone). */
  private replace(slot: Slot, pause = 0): void {
    const index = this.slots.indexOf(slot);
    if (index === -1 || this.closed) return;
    void slot.worker.terminate();
    const respawn = () => {
      if (this.closed || this.slots[index] !== slot) return;
      this.slots[index] = this.spawn();
    };
    // A worker that cannot even start is retried after a pause, not in a loop.
    if (pause) setTimeout(respawn, pause).unref();
    else respawn();
  }

  /**
   * Replaces the workers idle past `idleMillis` that hold a project no SPARQL view needs (a fresh
   * worker holds the views' projects again, and rebuilds their copies, so one holding only those
   * would give nothing back). A query arriving meanwhile waits in the queue for the fresh worker's
   * `ready`, or goes to another idle one.
   */
  private replaceIdle(): void {
    const since = Date.now() - this.options.idleMillis!;
    const needed = this.fresh.viewProjects();
    for (const slot of [...this.slots])
      if (slot.ready && !slot.running && slot.lastUsed <= since && [...slot.projects].some((project) => !needed.has(project))) this.replace(slot);
  }

  /** Stops watching memory once no query runs. */
  private watchIdle(): void {
    if (!this.slots.some((slot) => slot.running)) this.memory?.idle();
  }

  private overMemory(grownBytes: number): void {
    let oldest: Slot | undefined;
    // A worker loading a project or building a view's copy grows by design: the watch measures afresh after it.
    for (const slot of this.slots) if (slot.running && !slot.running.building && (!oldest || slot.running.id < oldest.running!.id)) oldest = slot;
    if (!oldest) return this.slots.some((slot) => slot.running) ? undefined : this.watchIdle();
    const mib = Math.round(grownBytes / 1024 / 1024);
    this.failed(oldest, new Error(`the queries took ${mib} MiB, over the cap of ${this.options.queryMemoryMb} MiB: the longest-running one was stopped`));
  }

  private overBudget(slot: Slot): void {
    const running = slot.running;
    if (!running) return;
    if (running.building) {
      // It never ran: the worker drops it and goes on with the copy in slices; the slot takes the next query.
      this.options.log(`sparql: a query in project ${running.query.project} waited its whole budget for a SPARQL view's copy: answered busy`);
      slot.running = undefined;
      slot.lastUsed = Date.now();
      this.watchIdle();
      slot.worker.postMessage({ t: 'cancel', id: running.id } satisfies ReplicaMessage);
      running.reject(new QueryFailed({ failure: 'busy', millis: this.options.timeoutMillis }));
      return this.dispatch();
    }
    this.options.log(
      `sparql: a query in project ${running.query.project} ran over its budget of ${this.options.timeoutMillis} ms: stopped, its worker replaced`,
    );
    slot.running = undefined;
    this.watchIdle();
    running.reject(new QueryFailed({ failure: 'timeout', millis: this.options.timeoutMillis }));
    this.replace(slot);
  }

  private failed(slot: Slot, error: Error): void {
    if (!this.slots.includes(slot) || this.closed) return;
    this.options.log(`sparql: a query worker failed (${error.message}): replaced`);
    const running = slot.running;
    slot.running = undefined;
    this.watchIdle();
    if (running) {
      clearTimeout(running.timer);
      running.reject(new QueryFailed({ failure: 'crashed', message: error.message }));
    }
    this.replace(slot, slot.ready ? 0 : 1_000);
  }
}
