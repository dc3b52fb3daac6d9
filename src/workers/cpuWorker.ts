import { parentPort } from 'node:worker_threads';
import { Rejection } from '../kernel/Rejection.js';
import type { OperationName, Operations } from './operations.js';
import { operations, ShapesMissing } from './operations.js';

/** A worker thread of the pool: runs the operations of a message in turn and answers them together (see HOLD_MILLIS), each with its value or its rejection. */
const ops = operations();
const run = async ({ id, op, args }: { id: number; op: OperationName; args: unknown }) => {
  try {
    const value = await (ops[op] as (a: unknown) => ReturnType<Operations[OperationName]>)(args);
    return { id, ok: true, value };
  } catch (error) {
    if (error instanceof Rejection) return { id, ok: false, rejection: { type: error.type, reason: error.reason, fields: error.fields } };
    if (error instanceof ShapesMissing) return { id, ok: false, shapesMissing: true };
    return { id, ok: false, message: (error as Error).message ?? String(error) };
  }
};
/** Answers wait at most this long for the rest of their message: a task over its budget is then told from those done before it. */
const HOLD_MILLIS = 20;
parentPort!.on('message', async (tasks: { id: number; op: OperationName; args: unknown }[]) => {
  let replies = [];
  let since = Date.now();
  for (const task of tasks) {
    replies.push(await run(task));
    if (Date.now() - since < HOLD_MILLIS) continue;
    parentPort!.postMessage(replies);
    replies = [];
    since = Date.now();
  }
  if (replies.length) parentPort!.postMessage(replies);
});
