import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { ProjectDatasets } from './ProjectDatasets.js';
import { QueryFailed } from './ProjectSparqlStore.js';
import type { ReplicaChange, ReplicaMessage, ReplicaStart, Reply } from './sparqlReplicaMessages.js';

const CHUNK = 8 * 1024 * 1024;

/**
 * The revision file as it is now, in pieces cut at line ends (never inside a character). The
 * other side flushes it before posting changes, so it holds the revision of every change received.
 */
function* revisionFile(path: string): Generator<string> {
  const fd = openSync(path, 'r');
  try {
    const length = fstatSync(fd).size;
    let carry = Buffer.alloc(0);
    for (let position = 0; position < length;) {
      const buffer = Buffer.allocUnsafe(Math.min(CHUNK, length - position));
      const read = readSync(fd, buffer, 0, buffer.length, position);
      if (read === 0) break;
      position += read;
      const data = carry.length ? Buffer.concat([carry, buffer.subarray(0, read)]) : buffer.subarray(0, read);
      const cut = data.lastIndexOf(0x0a) + 1;
      carry = Buffer.from(data.subarray(cut));
      if (cut) yield data.toString('utf8', 0, cut);
    }
    if (carry.length) yield carry.toString('utf8');
  } finally {
    closeSync(fd);
  }
}

/**
 * The query worker: the datasets of the projects it was asked about, loaded from the revision file
 * on their first query and fed in log order after, answering one query at a time.
 */
const start = workerData as ReplicaStart;
const datasets = new ProjectDatasets(start.maxResults, start.maxViewQuads, () => revisionFile(start.file));
const reply = (message: Reply): void => parentPort!.postMessage(message);

// The heads of every project: a project's are copied into its default graph as it is loaded.
datasets.setHeads(start.heads);
/**
 * SPARQL views' copies are built in slices of this long, between messages: a query waits at most a
 * slice behind a copy (issue 32: twenty copies built at once held every worker for minutes).
 */
const SLICE_MILLIS = 20;
let slicing = false;
/** Queries waiting for their view's copy (`afterCopy`); those of them answered busy by the other side. */
const waiting = new Set<number>();
const cancelled = new Set<number>();

/** Builds the views' copies in the background, a slice at a time, letting queries and changes in between. */
const buildSoon = (): void => {
  if (slicing || !datasets.views.building()) return;
  slicing = true;
  const slice = () => {
    // A query waiting for its view's copy has the worker's time for that copy alone.
    if (waiting.size || datasets.views.build(Date.now() + SLICE_MILLIS)) setImmediate(slice);
    else slicing = false;
  };
  setImmediate(slice);
};

// The views' copies come after `ready`: the worker answers queries over projects while it builds them.
for (const [project, view, members] of start.views) datasets.views.enqueue(project, view, members);
reply({ ready: true });
buildSoon();

const apply = (change: ReplicaChange): void => {
  switch (change.t) {
    case 'revision':
      return datasets.revision(change.project, change.graph, change.ntriples);
    case 'current':
      return datasets.current(change.project, change.item, change.graph);
    case 'drop':
      return datasets.drop(change.project, change.graphs);
    case 'members':
      return datasets.views.enqueue(change.project, change.view, change.members);
    case 'dropView':
      return datasets.views.drop(change.view);
  }
};

type QueryMessage = Extract<ReplicaMessage, { t: 'query' }>;

/**
 * A query over a view whose copy is not complete: the copy is built first, in slices (changes
 * posted meanwhile are applied between them); once less than half its budget is left it is
 * answered busy, never run, and the copy goes on in the background.
 */
const afterCopy = (message: QueryMessage, view: string): void => {
  reply({ building: message.id });
  waiting.add(message.id);
  const step = () => {
    const more = !cancelled.has(message.id) && datasets.views.build(Date.now() + SLICE_MILLIS, view);
    if (more && message.deadline - Date.now() >= message.millis / 2) return void setImmediate(step);
    waiting.delete(message.id);
    if (cancelled.delete(message.id)) return buildSoon();
    // Started with too little of its budget left, it would be stopped as over budget and its worker replaced (its copies with it).
    if (message.deadline - Date.now() < message.millis / 2) reply({ id: message.id, failure: { failure: 'busy', millis: message.millis } });
    else {
      reply({ started: message.id });
      answer(message);
    }
    buildSoon();
  };
  setImmediate(step);
};

parentPort!.on('message', (message: ReplicaMessage) => {
  switch (message.t) {
    case 'changes':
      for (const change of message.changes) apply(change);
      return buildSoon();
    case 'cancel':
      if (waiting.has(message.id)) cancelled.add(message.id);
      return;
    case 'query':
      if (!datasets.holds(message.query.project)) return afterLoad(message);
      return run(message);
  }
});

function run(message: QueryMessage): void {
  const view = message.query.view;
  if (view !== undefined && datasets.views.building(view)) return afterCopy(message, view);
  answer(message);
}

/**
 * A query over a project not held yet: the project is loaded first, as a view's copy is built
 * (answered busy, never run, if less than half its budget is left; the project stays loaded).
 */
function afterLoad(message: QueryMessage): void {
  reply({ building: message.id });
  waiting.add(message.id);
  setImmediate(() => {
    datasets.hold(message.query.project);
    // Changes and a cancel posted during the load come first.
    setImmediate(() => {
      waiting.delete(message.id);
      if (cancelled.delete(message.id)) return;
      if (message.deadline - Date.now() < message.millis / 2) return reply({ id: message.id, failure: { failure: 'busy', millis: message.millis } });
      reply({ started: message.id });
      run(message);
    });
  });
}

function answer(message: QueryMessage): void {
  try {
    parentPort!.postMessage({ id: message.id, answer: datasets.query(message.query) });
  } catch (error) {
    const message_ = String((error as Error).message ?? error);
    // Oxigraph panicked (out of WASM memory: "unreachable"), or this side ran out of room for the answer: a crash, never a bad query.
    const crashed = error instanceof WebAssembly.RuntimeError || error instanceof RangeError;
    const failure =
      error instanceof QueryFailed ? error.reason : crashed ? { failure: 'crashed', message: message_ } : { failure: 'invalid', message: message_ };
    parentPort!.postMessage({ id: message.id, failure });
    // A panicked engine's state cannot be trusted: this worker ends and is replaced.
    if (error instanceof WebAssembly.RuntimeError) process.exit(1);
  }
}
