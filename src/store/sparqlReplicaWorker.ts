import { closeSync, openSync, readSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { ProjectDatasets } from './ProjectDatasets.js';
import { QueryFailed } from './ProjectSparqlStore.js';
import type { ReplicaChange, ReplicaMessage, ReplicaStart } from './SparqlReplica.js';

/** The query worker: a replica of every project's dataset, fed in log order, answering one query at a time. */
const start = workerData as ReplicaStart;
const datasets = new ProjectDatasets(start.maxResults);

const CHUNK = 8 * 1024 * 1024;

/** The revision file up to `length` bytes, in chunks cut at line ends (never inside a character); each graph in one piece. */
const loadFile = (path: string, length: number): void => {
  if (!length) return;
  const fd = openSync(path, 'r');
  try {
    let carry = Buffer.alloc(0);
    let held = '';
    for (let position = 0; position < length;) {
      const buffer = Buffer.allocUnsafe(Math.min(CHUNK, length - position));
      const read = readSync(fd, buffer, 0, buffer.length, position);
      if (read === 0) break;
      position += read;
      const data = carry.length ? Buffer.concat([carry, buffer.subarray(0, read)]) : buffer.subarray(0, read);
      const cut = data.lastIndexOf(0x0a) + 1;
      carry = Buffer.from(data.subarray(cut));
      if (cut) held = datasets.loadRevisions(held + data.toString('utf8', 0, cut), false);
    }
    datasets.loadRevisions(held + carry.toString('utf8'), true);
  } finally {
    closeSync(fd);
  }
};

// The heads first: their graphs are copied into the default graphs as the file is read.
datasets.setHeads(start.heads);
datasets.prepareLoad(start.length);
loadFile(start.file, start.length);
for (const [project, view, members] of start.views) datasets.views.set(project, view, members);
parentPort!.postMessage({ ready: true });

const apply = (change: ReplicaChange): void => {
  switch (change.t) {
    case 'revision':
      return datasets.revision(change.project, change.graph, change.ntriples);
    case 'current':
      return datasets.current(change.project, change.item, change.graph);
    case 'drop':
      return datasets.drop(change.project, change.graphs);
    case 'members':
      return datasets.views.set(change.project, change.view, change.members);
    case 'dropView':
      return datasets.views.drop(change.view);
  }
};

parentPort!.on('message', (message: ReplicaMessage) => {
  switch (message.t) {
    case 'changes':
      for (const change of message.changes) apply(change);
      return;
    case 'query':
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
});
