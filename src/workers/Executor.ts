/**
 * A table of CPU-heavy operations: plain functions of plain data, so that they run the same in a
 * worker thread or inline. Each floor declares the operations it needs (JSON-LD, SHACL); the
 * composition root assembles the table the workers run.
 */
export type OperationTable<Ops> = { [K in keyof Ops]: (args: never) => Promise<unknown> };

/** Runs the operations of a table somewhere: inline on the caller's thread, or in a pool of worker threads. */
export interface Executor<Ops extends OperationTable<Ops>> {
  run<K extends keyof Ops & string>(op: K, args: Parameters<Ops[K]>[0]): ReturnType<Ops[K]>;
  close(): Promise<void>;
}

/** On the caller's thread, without a budget: for tools and tests that build the parts by hand. */
export const inlineExecutor = <Ops extends OperationTable<Ops>>(ops: Ops): Executor<Ops> => ({
  run: (op, args) => (ops[op] as unknown as (a: typeof args) => ReturnType<Ops[typeof op]>)(args),
  close: async () => undefined,
});

/** Asked to run with a part of its arguments it no longer holds (shapes sent by key only): the caller sends them again. */
export class PartMissing extends Error {}
