import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/** An operation's time span (microseconds of the monotonic clock both processes share) and its request count. */
export interface Window {
  op: string;
  fromMicros: number;
  toMicros: number;
  requests: number;
}

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string };
  children?: number[];
}

interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

/**
 * The phase a frame's time belongs to. Libraries that are a phase by themselves (JSON-LD, SHACL,
 * the logger, the metrics, compression, JWT) name it wherever they are called from; generic ones
 * (n3, Oxigraph, SQLite, express, Node's internals, builtins) give their time to the nearest caller
 * of ours, whose folder names the phase.
 */
const RULES: [RegExp, string][] = [
  // Middleware calls the next one from its own frame: the router's frames end the walk, so that the
  // routes below a middleware are not counted as that middleware, nor a response's socket write as
  // the compression that wraps it.
  [/\/node_modules\/(express|router|path-to-regexp|finalhandler|send|qs|cors|vary|on-finished|on-headers|depd|debug)\//, 'express'],
  [/^node:(net|_http_outgoing|_http_server|internal\/stream_base_commons)$/, 'HTTP request and response (node)'],
  [/\/src\/http\/logging\.js|\/node_modules\/(pino|sonic-boom|pino-std-serializers|fast-redact|on-exit-leak-free|thread-stream)\//, 'request log'],
  [/\/src\/http\/metrics\.js|\/node_modules\/(prom-client|tdigest|bintrees)\//, 'metrics'],
  [/\/node_modules\/(compression|compressible|accepts|negotiator)\/|^node:zlib/, 'compression'],
  [/\/src\/auth\/|\/src\/http\/authenticate\.js|\/node_modules\/jose\//, 'authorization'],
  [/\/src\/http\/bodyReader\.js|\/node_modules\/(raw-body|body-parser|iconv-lite|content-type|type-is)\//, 'body read'],
  [/\/src\/shacl\/|\/node_modules\/(rdf-validate-shacl|clownface|@rdfjs|rdf-validate-datatype|@vocabulary)\//, 'SHACL'],
  [/\/src\/jsonld\/|\/node_modules\/(jsonld|rdf-canonize|canonicalize)\//, 'JSON-LD'],
  [/\/src\/workers\//, 'worker round trip (post, receive)'],
  [/\/src\/events\//, 'append (event log)'],
  [
    /\/src\/store\/(SparqlReplica|sparqlReplicaWorker|ProjectDatasets|ProjectSparqlStore)|\/src\/projection\/SparqlReplicaProjection/,
    'projection: SPARQL replica',
  ],
  [/\/src\/projection\/(RevisionProjection|storableRevision)|\/src\/store\//, 'projection: revision graphs (Oxigraph)'],
  [/\/src\/catalogue\//, 'projection: catalogue'],
  [/\/src\/search\//, 'projection: text index'],
  [/\/src\/projection\//, 'projection: states, projector'],
  [/\/src\/http\/render\//, 'rendering'],
  [/\/src\/domain\/(EventWriter|Lifecycle)/, 'write step (evaluate, append, catch up)'],
  [/\/src\/domain\//, 'service: checks before the append'],
  [/\/src\/http\/|\/src\/app\.js/, 'routes, HTTP glue of ours'],
];

/** Where no frame of ours or of a phase library is on the stack: by the leaf. */
const LEAF_RULES: [RegExp, string][] = [
  [/^node:(_http|http|net|internal\/(http|streams|stream_base|net|timers|process\/task_queues|async_hooks))/, 'HTTP request and response (node)'],
];

export const categorize = (nodes: ProfileNode[]): Map<number, string | undefined> => {
  const parent = new Map<number, number>();
  for (const node of nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const category = new Map<number, string | undefined>();
  for (const node of nodes) {
    const name = node.callFrame.functionName;
    if (name === '(idle)') {
      category.set(node.id, undefined);
      continue;
    }
    if (name === '(garbage collector)') {
      category.set(node.id, 'garbage collector');
      continue;
    }
    if (name === '(program)') {
      category.set(node.id, 'native, outside JavaScript (program)');
      continue;
    }
    let found: string | undefined;
    for (let at: ProfileNode | undefined = node; at && !found; at = byId.get(parent.get(at.id) ?? -1))
      found = RULES.find(([pattern]) => pattern.test(at!.callFrame.url))?.[1];
    found ??= LEAF_RULES.find(([pattern]) => pattern.test(node.callFrame.url))?.[1] ?? 'other';
    category.set(node.id, found);
  }
  return category;
};

/** CPU microseconds by window and phase, of one profile. */
const phasesOf = (profile: Profile, windows: Window[]): Map<string, Map<string, number>> => {
  const category = categorize(profile.nodes);
  const result = new Map(windows.map((w) => [w.op, new Map<string, number>()]));
  // A sample stands for the time until the next one, but no longer than the sampling interval: a
  // thread the machine's other processes keep off the CPU is not working meanwhile, and its first
  // sample back would take all of that wait (on a shared machine, mostly in system calls that wake
  // another thread: postMessage, socket writes).
  const interval = [...profile.timeDeltas].sort((a, b) => a - b)[Math.floor(profile.timeDeltas.length / 2)] ?? 0;
  let at = profile.startTime;
  for (let i = 0; i < profile.samples.length; i++) {
    at += profile.timeDeltas[i] ?? 0;
    const weight = Math.min(profile.timeDeltas[i + 1] ?? 0, interval);
    const phase = category.get(profile.samples[i]!);
    if (phase === undefined) continue;
    const window = windows.find((w) => at >= w.fromMicros && at < w.toMicros);
    if (!window) continue;
    const phases = result.get(window.op)!;
    phases.set(phase, (phases.get(phase) ?? 0) + weight);
  }
  return result;
};

/**
 * The table of CPU microseconds per request by phase, main thread and worker threads apart, of the
 * `--cpu-prof` files in `dir` (one per thread: `CPU.<date>.<time>.<pid>.<thread>.<seq>.cpuprofile`,
 * thread 0 the main one).
 */
export const phaseTable = (dir: string, windows: Window[]): string => {
  const totals = new Map<string, number>();
  const add = (key: string, micros: number) => totals.set(key, (totals.get(key) ?? 0) + micros);
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.cpuprofile'))) {
    const thread = Number(file.split('.')[4]);
    const profile = JSON.parse(readFileSync(join(dir, file), 'utf8')) as Profile;
    const side = thread === 0 ? 'main' : 'workers';
    for (const [op, phases] of phasesOf(profile, windows)) for (const [phase, micros] of phases) add(`${op}\t${side}\t${phase}`, micros);
  }
  const phases = [...new Set([...totals.keys()].map((k) => k.split('\t')[2]!))];
  const columns = windows.flatMap((w) => ['main', 'workers'].map((side) => ({ op: w.op, side, requests: w.requests })));
  const cell = (op: string, side: string, phase: string, requests: number) => (totals.get(`${op}\t${side}\t${phase}`) ?? 0) / requests;
  const columnTotal = (c: (typeof columns)[number]) => phases.reduce((sum, p) => sum + cell(c.op, c.side, p, c.requests), 0);
  const rowTotal = (phase: string) => columns.reduce((sum, c) => sum + cell(c.op, c.side, phase, c.requests), 0);
  phases.sort((a, b) => rowTotal(b) - rowTotal(a));
  const fmt = (micros: number) => (micros < 0.5 ? '' : micros.toFixed(0));
  const lines = [
    `| µs per request | ${columns.map((c) => `${c.op} ${c.side}`).join(' | ')} |`,
    `|---|${columns.map(() => '---:').join('|')}|`,
    ...phases.map((p) => `| ${p} | ${columns.map((c) => fmt(cell(c.op, c.side, p, c.requests))).join(' | ')} |`),
    `| **CPU, all phases** | ${columns.map((c) => (fmt(columnTotal(c)) ? `**${fmt(columnTotal(c))}**` : '')).join(' | ')} |`,
    `| wall time per request ÷ concurrency | ${windows.flatMap((w) => [fmt((w.toMicros - w.fromMicros) / w.requests), '']).join(' | ')} |`,
  ];
  return lines.join('\n');
};
