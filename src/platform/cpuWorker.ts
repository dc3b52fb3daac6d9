import { parentPort } from 'node:worker_threads';
import { Rejection } from '../kernel/Rejection.js';
import { PartMissing } from '../workers/Executor.js';
import type { CpuOperations } from './cpuOperations.js';
import { cpuOperations } from './cpuOperations.js';

type OperationName = keyof CpuOperations;

/** A worker thread of the pool: runs the operations of a message in turn, answering each with its value or its rejection. */
const ops = cpuOperations();
const run = async ({ id, op, args }: { id: number; op: OperationName; args: unknown }) => {
  try {
    const value = await (ops[op] as (a: unknown) => Promise<unknown>)(args);
    return { id, ok: true, value };
  } catch (error) {
    if (error instanceof Rejection) return { id, ok: false, rejection: { type: error.type, reason: error.reason, fields: error.fields } };
    if (error instanceof PartMissing) return { id, ok: false, shapesMissing: true };
    return { id, ok: false, message: (error as Error).message ?? String(error) };
  }
};
// Each answer as soon as it is ready: holding the first for the rest of the message added their time to its request's.
parentPort!.on('message', async (tasks: { id: number; op: OperationName; args: unknown }[]) => {
  for (const task of tasks) parentPort!.postMessage([await run(task)]);
});
// Loaded: the pool counts a task's budget from here at the earliest.
parentPort!.postMessage([]);
