import type { OperationName, Operations } from '../jsonld/jsonldOperations.js';
import { operations } from '../jsonld/jsonldOperations.js';

/** Runs the CPU-heavy operations somewhere: inline on the caller's thread, or in a pool of worker threads. */
export interface Executor {
  run<K extends OperationName>(op: K, args: Parameters<Operations[K]>[0]): ReturnType<Operations[K]>;
  close(): Promise<void>;
}

/** On the caller's thread, without a budget: for tools and tests that build the parts by hand. */
export const inlineExecutor = (): Executor => {
  const ops = operations();
  return {
    run: (op, args) => (ops[op] as (a: typeof args) => ReturnType<Operations[typeof op]>)(args),
    close: async () => undefined,
  };
};
