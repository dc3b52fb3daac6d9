import { Worker } from 'node:worker_threads';
import type { ProjectRef } from '../kernel/labels.js';
import type { ProjectQuery, ProjectSparqlStore, QueryAnswer, QueryFailure } from './ProjectSparqlStore.js';
import { QueryFailed } from './ProjectSparqlStore.js';

/** What a fresh query worker starts from: the revision file up to `length`, and the current heads. */
export interface ReplicaStart {
  file: string;
  length: number;
  heads: [ProjectRef, string, string][];
  maxResults: number;
}

export type ReplicaMessage =
  | { t: 'revision'; project: ProjectRef; graph: string; ntriples: string }
  | { t: 'current'; project: ProjectRef; item: string; graph: string | undefined }
  | { t: 'drop'; project: ProjectRef; graphs: string[] }
  | { t: 'query'; id: number; query: ProjectQuery };

type Reply = { ready: true } | { id: number; answer: QueryAnswer } | { id: number; failure: QueryFailure };

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
  log(line: string): void;
}

/**
 * Callers' SPARQL queries run in a worker thread holding a replica of every project's dataset
 * (`ProjectDatasets`), never on the event loop: Oxigraph evaluates synchronously and cannot be
 * interrupted, so a query over its budget is stopped by terminating the worker. A new one starts at
 * once from the revision file and the current heads, which this side keeps; changes made since are
 * sent after, in order. One query runs at a time; others wait, their budget running.
 */
export class SparqlReplica implements ProjectSparqlStore {
  private worker?: Worker;
  private ready = false;
  private readonly heads = new Map<ProjectRef, Map<string, string>>();
  private readonly queue: Pending[] = [];
  private running?: Pending & { id: number; timer: NodeJS.Timeout };
  private next = 0;
  private closed = false;

  constructor(
    private readonly revisions: { readonly path: string; flush(): number },
    private readonly options: ReplicaOptions,
  ) {}

  /** Starts the worker once the revision file and the heads are restored; changes before are only remembered. */
  async start(heads: Iterable<[ProjectRef, string, string]>): Promise<void> {
    for (const [project, item, graph] of heads) this.headsOf(project).set(item, graph);
    this.spawn();
  }

  // The worker applies changes in the order they are posted, before any later query.
  async revision(project: ProjectRef, graph: string, ntriples: string): Promise<void> {
    this.send({ t: 'revision', project, graph, ntriples });
  }

  async current(project: ProjectRef, item: string, graph: string | undefined): Promise<void> {
    if (graph === undefined) this.headsOf(project).delete(item);
    else this.headsOf(project).set(item, graph);
    this.send({ t: 'current', project, item, graph });
  }

  async drop(project: ProjectRef, graphs: string[]): Promise<void> {
    this.send({ t: 'drop', project, graphs });
  }

  query(query: ProjectQuery): Promise<QueryAnswer> {
    return new Promise((resolve, reject) => {
      if (this.closed) return reject(new Error('the SPARQL replica is closed'));
      this.queue.push({ query, queuedAt: Date.now(), resolve, reject });
      this.dispatch();
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const pending of this.queue.splice(0)) pending.reject(new Error('the SPARQL replica is closed'));
    if (this.running) {
      clearTimeout(this.running.timer);
      this.running.reject(new Error('the SPARQL replica is closed'));
      this.running = undefined;
    }
    await this.worker?.terminate();
    this.worker = undefined;
  }

  private headsOf(project: ProjectRef): Map<string, string> {
    let heads = this.heads.get(project);
    if (!heads) this.heads.set(project, (heads = new Map()));
    return heads;
  }

  private send(message: ReplicaMessage): void {
    this.worker?.postMessage(message);
  }

  private spawn(): void {
    if (this.closed) return;
    const heads: [ProjectRef, string, string][] = [];
    for (const [project, items] of this.heads) for (const [item, graph] of items) heads.push([project, item, graph]);
    // Everything projected so far is in the file once flushed; later changes reach the worker as messages.
    const start: ReplicaStart = { file: this.revisions.path, length: this.revisions.flush(), heads, maxResults: this.options.maxResults };
    const worker = new Worker(new URL('./sparqlReplicaWorker.js', import.meta.url), { workerData: start });
    this.worker = worker;
    this.ready = false;
    worker.on('message', (reply: Reply) => this.settle(worker, reply));
    worker.on('error', (error) => this.failed(worker, error));
    worker.on('exit', (code) => code !== 0 && this.failed(worker, new Error(`the query worker exited with code ${code}`)));
    worker.unref();
  }

  private dispatch(): void {
    if (this.running || !this.ready || !this.worker) return;
    for (let pending = this.queue.shift(); pending; pending = this.queue.shift()) {
      const left = this.options.timeoutMillis - (Date.now() - pending.queuedAt);
      if (left <= 0) {
        pending.reject(new QueryFailed({ failure: 'busy', millis: this.options.timeoutMillis }));
        continue;
      }
      const id = ++this.next;
      this.running = { ...pending, id, timer: setTimeout(() => this.overBudget(), left) };
      this.worker.postMessage({ t: 'query', id, query: pending.query } satisfies ReplicaMessage);
      return;
    }
  }

  private settle(worker: Worker, reply: Reply): void {
    if (worker !== this.worker) return;
    if ('ready' in reply) {
      this.ready = true;
      return this.dispatch();
    }
    const running = this.running;
    if (!running || running.id !== reply.id) return;
    clearTimeout(running.timer);
    this.running = undefined;
    if ('answer' in reply) running.resolve(reply.answer);
    else running.reject(new QueryFailed(reply.failure));
    this.dispatch();
  }

  private overBudget(): void {
    const running = this.running;
    if (!running) return;
    this.options.log(
      `sparql: a query in project ${running.query.project} ran over its budget of ${this.options.timeoutMillis} ms: stopped, its worker replaced`,
    );
    this.running = undefined;
    void this.worker?.terminate();
    running.reject(new QueryFailed({ failure: 'timeout', millis: this.options.timeoutMillis }));
    this.spawn();
  }

  private failed(worker: Worker, error: Error): void {
    if (worker !== this.worker || this.closed) return;
    this.options.log(`sparql: the query worker failed (${error.message}): replaced`);
    const running = this.running;
    this.running = undefined;
    if (running) {
      clearTimeout(running.timer);
      running.reject(error);
    }
    // A worker that cannot even start is retried after a pause, not in a loop.
    if (this.ready) this.spawn();
    else setTimeout(() => this.spawn(), 1_000).unref();
  }
}
