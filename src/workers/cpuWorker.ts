import { parentPort } from 'node:worker_threads';
import { Rejection } from '../kernel/Rejection.js';
import type { OperationName, Operations } from './operations.js';
import { operations, ShapesMissing } from './operations.js';

/** A worker thread of the pool: runs one operation at a time and answers with its value or its rejection. */
const ops = operations();
parentPort!.on('message', async ({ id, op, args }: { id: number; op: OperationName; args: unknown }) => {
  try {
    const value = await (ops[op] as (a: unknown) => ReturnType<Operations[OperationName]>)(args);
    parentPort!.postMessage({ id, ok: true, value });
  } catch (error) {
    if (error instanceof Rejection) parentPort!.postMessage({ id, ok: false, rejection: { type: error.type, reason: error.reason, fields: error.fields } });
    else if (error instanceof ShapesMissing) parentPort!.postMessage({ id, ok: false, shapesMissing: true });
    else parentPort!.postMessage({ id, ok: false, message: (error as Error).message ?? String(error) });
  }
});
