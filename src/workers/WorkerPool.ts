import { Worker } from 'node:worker_threads';
import { rejections } from '../domain/rejections.js';
import { Rejection } from '../kernel/Rejection.js';
import type { Executor } from './Executor.js';
import type { OperationName, Operations } from './operations.js';

interface Task {
  op: OperationName;
  args: Record<string, unknown>;
  queuedAt: number;
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

interface Slot {
  worker: Worker;
  task?: Task & { id: number; timer: NodeJS.Timeout };
  /** Shape sets this worker has compiled: their text need not travel again. */
  shapes: Set<string>;
}

/** A shape set's key, when the task validates against one. */
const shapesKey = (task: Task): string | undefined => (task.op === 'validate' ? (task.args['shapes'] as { key: string }).key : undefined);

/**
 * CPU-heavy work off the event loop: a fixed number of worker threads, a queue, and a time budget
 * per task counted from when it was queued. A task over budget is refused with
 * `ProcessingTimeExceeded` (nothing was written: writes run these steps before appending) and its
 * worker is terminated and replaced, so a catastrophic regular expression or a quadratic expansion
 * costs one worker for the budget, never the process. The workers also put the other cores to work.
 */
export class WorkerPool implements Executor {
  private readonly slots: Slot[] = [];
  private readonly queue: Task[] = [];
  private next = 0;
  private closed = false;

  constructor(
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

  run<K extends OperationName>(op: K, args: Parameters<Operations[K]>[0]): ReturnType<Operations[K]> {
    return new Promise((resolve, reject) => {
      if (this.closed) return reject(new Error('the worker pool is closed'));
      this.queue.push({ op, args: args as Record<string, unknown>, queuedAt: Date.now(), resolve, reject });
      this.dispatch();
    }) as ReturnType<Operations[K]>;
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const task of this.queue.splice(0)) task.reject(new Error('the worker pool is closed'));
    await Promise.all(this.slots.map((slot) => slot.worker.terminate()));
  }

  private spawn(): Slot {
    const worker = new Worker(new URL('./cpuWorker.js', import.meta.url));
    const slot: Slot = { worker, shapes: new Set() };
    worker.on('message', (reply: Reply) => this.settle(slot, reply));
    worker.on('error', (error) => this.fail(slot, error));
    worker.unref();
    return slot;
  }

  private dispatch(): void {
    for (const slot of this.slots) {
      if (slot.task) continue;
      const task = this.queue.shift();
      if (!task) return;
      const left = this.budgetMillis - (Date.now() - task.queuedAt);
      if (left <= 0) {
        task.reject(rejections.processingTimeExceeded(this.budgetMillis));
        continue;
      }
      this.send(slot, task, left);
    }
  }

  private send(slot: Slot, task: Task, left: number): void {
    const id = ++this.next;
    const key = shapesKey(task);
    let args = task.args;
    // A worker that compiled these shapes already gets only their key.
    if (key !== undefined && slot.shapes.has(key)) args = { ...args, shapes: { ...(args['shapes'] as object), text: undefined } };
    const timer = setTimeout(() => this.overBudget(slot), left);
    slot.task = { ...task, id, timer };
    slot.worker.postMessage({ id, op: task.op, args });
  }

  private settle(slot: Slot, reply: Reply): void {
    const task = slot.task;
    if (!task || task.id !== reply.id) return;
    clearTimeout(task.timer);
    slot.task = undefined;
    const key = shapesKey(task);
    if (reply.ok) {
      if (key !== undefined) slot.shapes.add(key);
      task.resolve(reply.value);
    } else if (reply.shapesMissing && key !== undefined) {
      // The worker forgot them (its cache is bounded): send them again, ahead of the queue.
      slot.shapes.delete(key);
      this.queue.unshift(task);
    } else if (reply.rejection) task.reject(new Rejection(reply.rejection.type, reply.rejection.reason, reply.rejection.fields));
    else task.reject(new Error(reply.message ?? 'worker task failed'));
    this.dispatch();
  }

  private overBudget(slot: Slot): void {
    const task = slot.task;
    if (!task) return;
    this.log(`worker pool: a ${task.op} task ran over its budget of ${this.budgetMillis} ms: refused, its worker replaced`);
    slot.task = undefined;
    void slot.worker.terminate();
    this.slots[this.slots.indexOf(slot)] = this.spawn();
    task.reject(rejections.processingTimeExceeded(this.budgetMillis));
    this.dispatch();
  }

  private fail(slot: Slot, error: Error): void {
    const task = slot.task;
    this.log(`worker pool: a worker failed (${error.message}): replaced`);
    if (task) {
      clearTimeout(task.timer);
      task.reject(error);
    }
    const index = this.slots.indexOf(slot);
    if (index !== -1 && !this.closed) this.slots[index] = this.spawn();
    this.dispatch();
  }
}

type Reply =
  | { id: number; ok: true; value: unknown }
  | { id: number; ok: false; rejection?: { type: string; reason: string; fields: Record<string, unknown> }; shapesMissing?: boolean; message?: string };
