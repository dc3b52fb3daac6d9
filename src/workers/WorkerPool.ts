import { Worker } from 'node:worker_threads';
import { requestRejections as rejections } from '../kernel/requestRejections.js';
import { Rejection } from '../kernel/Rejection.js';
import type { Executor, OperationTable } from './Executor.js';

interface Task {
  op: string;
  args: Record<string, unknown>;
  queuedAt: number;
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

/** A task posted to a worker; its budget's timer runs from when the worker starts it (the one before it was answered). */
type Sent = Task & { id: number; timer?: NodeJS.Timeout };

interface Slot {
  worker: Worker;
  /** The tasks posted to the worker and not answered yet, run by it in turn. */
  tasks: Map<number, Sent>;
  /** Shape sets this worker has compiled: their text need not travel again. */
  shapes: Set<string>;
  /** When the worker had loaded its modules (it says so with an empty message); none: still starting. */
  readyAt?: number;
}

/** A posted task back at the head of the queue: not started, its wait counted from now (it waited through no fault of its own). */
const requeued = ({ id: _id, timer: _timer, ...task }: Sent): Task => ({ ...task, queuedAt: Date.now() });

/** A shape set's key, when the task's arguments carry one (`shapes: { key, text }`, as validation does). */
const shapesKey = (task: Task): string | undefined => {
  const shapes = task.args['shapes'] as { key?: unknown } | undefined;
  return typeof shapes?.key === 'string' ? shapes.key : undefined;
};

/** Most tasks posted to a worker in one message. */
const BATCH = 16;

/**
 * CPU-heavy work off the event loop: a fixed number of worker threads, a queue, and a time budget
 * per task counted from when its worker starts it. A task over budget is refused with
 * `ProcessingTimeExceeded` (nothing was written: writes run these steps before appending) and its
 * worker is terminated and replaced, so a catastrophic regular expression or a quadratic expansion
 * costs one worker for the budget, never the process. The workers also put the other cores to work.
 *
 * Waiting is not the task's fault: a task that waited for a worker as long as the budget (the
 * process is overloaded) is not started and is refused `ServerBusy` (503, retry), never blamed on its
 * payload with a 400; nor is a task charged with the time of the tasks posted before it.
 *
 * An idle worker takes its share of the tasks waiting in one message: a message to an idle worker
 * wakes its thread, which cost the event loop more than the message (a write's round trip, ~270 µs
 * of the main thread under load, measured in issue 22), so under load the tasks that queued while
 * the workers were busy travel together. The worker runs them in turn and answers each as soon as
 * it is done: the answer of one starts the budget of the next.
 */
export class WorkerPool<Ops extends OperationTable<Ops>> implements Executor<Ops> {
  private readonly slots: Slot[] = [];
  private readonly queue: Task[] = [];
  private next = 0;
  private closed = false;
  /** Tasks asked for and not yet answered. */
  private outstanding = 0;

  constructor(
    /** The worker's script: it runs the operation table (see `platform/cpuWorker.ts`). */
    private readonly script: URL,
    private readonly size: number,
    private readonly budgetMillis: number,
    private readonly log: (line: string) => void = (line) => console.error(line),
  ) {
    for (let i = 0; i < size; i++) this.slots.push(this.spawn());
  }

  /** Tasks waiting for a worker (for metrics). */
  get queued(): number {
    return this.queue.length;
  }

  run<K extends keyof Ops & string>(op: K, args: Parameters<Ops[K]>[0]): ReturnType<Ops[K]> {
    return new Promise((resolve, reject) => {
      if (this.closed) return reject(new Error('the worker pool is closed'));
      this.holding(1);
      const done = () => this.holding(-1);
      this.queue.push({
        op,
        args: args as Record<string, unknown>,
        queuedAt: Date.now(),
        resolve: (value) => (done(), resolve(value as never)),
        reject: (error) => (done(), reject(error)),
      });
      this.dispatch();
    }) as ReturnType<Ops[K]>;
  }

  /**
   * Workers keep the process alive only while tasks are outstanding: an idle pool must not hold a
   * shutdown, but a task waiting for a worker still starting (nothing else running, as at a restore)
   * must not let the process end under it.
   */
  private holding(change: 1 | -1): void {
    const before = this.outstanding;
    this.outstanding += change;
    if (before === 0 && this.outstanding > 0) for (const slot of this.slots) slot.worker.ref();
    if (before > 0 && this.outstanding === 0) for (const slot of this.slots) slot.worker.unref();
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const task of this.queue.splice(0)) task.reject(new Error('the worker pool is closed'));
    await Promise.all(this.slots.map((slot) => slot.worker.terminate()));
  }

  private spawn(): Slot {
    const worker = new Worker(this.script);
    const slot: Slot = { worker, tasks: new Map(), shapes: new Set() };
    worker.on('message', (replies: Reply[]) => this.settle(slot, replies));
    worker.on('error', (error) => this.fail(slot, error));
    if (this.outstanding === 0) worker.unref();
    return slot;
  }

  private dispatch(): void {
    const idle = this.slots.filter((slot) => slot.readyAt !== undefined && slot.tasks.size === 0);
    for (let i = 0; i < idle.length && this.queue.length; i++) {
      const share = Math.min(BATCH, Math.ceil(this.queue.length / (idle.length - i)));
      const batch: { id: number; op: string; args: Record<string, unknown> }[] = [];
      const slot = idle[i]!;
      while (batch.length < share) {
        const task = this.queue.shift();
        if (!task) break;
        // A worker's start (its modules, Oxigraph's WASM) is not a wait for one: it does not count.
        const waited = Date.now() - Math.max(task.queuedAt, slot.readyAt!);
        if (waited >= this.budgetMillis) {
          task.reject(rejections.serverBusy(waited));
          continue;
        }
        batch.push(this.sent(slot, task));
      }
      if (batch.length) {
        slot.worker.postMessage(batch);
        this.timeNext(slot);
      }
    }
  }

  private sent(slot: Slot, task: Task): { id: number; op: string; args: Record<string, unknown> } {
    const id = ++this.next;
    const key = shapesKey(task);
    let args = task.args;
    // A worker that compiled these shapes already gets only their key.
    if (key !== undefined && slot.shapes.has(key)) args = { ...args, shapes: { ...(args['shapes'] as object), text: undefined } };
    else if (key !== undefined) slot.shapes.add(key);
    slot.tasks.set(id, { ...task, id });
    return { id, op: task.op, args };
  }

  /** Starts the budget of the task the worker runs now: the first one it holds unanswered (it runs them in the order posted). */
  private timeNext(slot: Slot): void {
    const [running] = slot.tasks.values();
    if (running && running.timer === undefined) running.timer = setTimeout(() => this.overBudget(slot, running.id), this.budgetMillis);
  }

  private settle(slot: Slot, replies: Reply[]): void {
    slot.readyAt ??= Date.now();
    for (const reply of replies) {
      const task = slot.tasks.get(reply.id);
      if (!task) continue;
      clearTimeout(task.timer);
      slot.tasks.delete(reply.id);
      const key = shapesKey(task);
      if (reply.ok) task.resolve(reply.value);
      else if (reply.shapesMissing && key !== undefined) {
        // The worker forgot them (its cache is bounded): send them again, ahead of the queue.
        slot.shapes.delete(key);
        this.queue.unshift(requeued(task));
      } else if (reply.rejection) task.reject(new Rejection(reply.rejection.type, reply.rejection.reason, reply.rejection.fields));
      else task.reject(new Error(reply.message ?? 'worker task failed'));
    }
    this.timeNext(slot);
    this.dispatch();
  }

  private overBudget(slot: Slot, id: number): void {
    const task = slot.tasks.get(id);
    if (!task) return;
    this.log(`worker pool: a ${task.op} task ran over its budget of ${this.budgetMillis} ms: refused, its worker replaced`);
    slot.tasks.delete(id);
    task.reject(rejections.processingTimeExceeded(this.budgetMillis));
    this.replace(slot);
  }

  private fail(slot: Slot, error: Error): void {
    this.log(`worker pool: a worker failed (${error.message}): replaced`);
    // The task it was running fails; which one that was is not known, so every task it held does.
    for (const task of slot.tasks.values()) task.reject(error);
    slot.tasks.clear();
    this.replace(slot);
  }

  /**
   * A new worker in the slot's place. The tasks the old one held besides are run again by others,
   * ahead of the queue (operations are pure: nothing of theirs was kept), each with its whole budget.
   */
  private replace(slot: Slot): void {
    void slot.worker.terminate();
    const held = [...slot.tasks.values()];
    slot.tasks.clear();
    for (const task of held) clearTimeout(task.timer);
    this.queue.unshift(...held.map(requeued));
    const index = this.slots.indexOf(slot);
    if (index !== -1 && !this.closed) this.slots[index] = this.spawn();
    this.dispatch();
  }
}

type Reply =
  | { id: number; ok: true; value: unknown }
  | { id: number; ok: false; rejection?: { type: string; reason: string; fields: Record<string, unknown> }; shapesMissing?: boolean; message?: string };
