import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { json, startProcess, summarize } from './harness.js';

const CONTEXT = { '@vocab': 'http://schema.org/' };

/** The process's resident memory, in MiB (Linux). */
const rssMb = (pid: number): number => {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith('VmRSS:'));
  return line ? Number(line.replace(/\D+/g, '')) / 1024 : NaN;
};

const registry = async (env: Record<string, string>, resources: number) => {
  const dir = mkdtempSync(join(tmpdir(), 'registry-bench-costly-'));
  const server = await startProcess(dir, 20_000 + Math.floor(Math.random() * 1000), env);
  await json(`${server.url}/v1/orgs/bench`, 'PUT', {});
  await json(`${server.url}/v1/projects/bench/main`, 'PUT', {});
  let next = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      for (let i = next++; i < resources; i = next++)
        await json(`${server.url}/v1/resources/bench/main/_/r${i}`, 'PUT', {
          '@context': CONTEXT,
          name: `item number ${i} ${'abcdefgh'.repeat(4)}`,
          description: `${'lorem ipsum dolor sit amet '.repeat(5)}${i}`,
          ...Object.fromEntries(Array.from({ length: 20 }, (_, p) => [`p${p}`, `value ${p} of ${i}`])),
        });
    }),
  );
  return {
    url: server.url,
    pid: server.child.pid!,
    stop: async () => {
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
};

/** Probes `GET /v1/version` one after the other until `done` settles: the probe latencies. */
const probeWhile = async (url: string, done: Promise<unknown>): Promise<number[]> => {
  let finished = false;
  void done.then(() => (finished = true));
  const times: number[] = [];
  while (!finished) {
    const t = performance.now();
    await fetch(`${url}/v1/version`).then((r) => r.text());
    times.push(performance.now() - t);
    await new Promise((r) => setTimeout(r, 20));
  }
  return times;
};

const wildcards = (salt: number) => ({
  query: { bool: { should: Array.from({ length: 1_000 }, (_, i) => ({ wildcard: { 'name.keyword': `${'*?'.repeat(20)}${salt}-${i}x` } })) } },
});
const prefixes = (salt: number) => ({ query: { query_string: { query: Array.from({ length: 1_000 }, (_, i) => `w${salt}${i}*`).join(' ') } } });
const post = (url: string, body: unknown) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }).then((r) => r.status);

/**
 * Issue 19: the event loop's liveness while costly requests run. `GET /v1/version` probed while ten
 * costly searches (five of 1,000 wildcard clauses, five query_string of 1,000 prefixes) run at
 * once; a trivial SPARQL query while a cartesian product runs; the memory a SPARQL query worker (a
 * whole replica) costs, one worker against two. `BENCH_ONLY=costly npm run bench [-- N]`.
 */
export const benchCostly = async (resources: number, memoryResources = resources): Promise<void> => {
  const r = await registry({ COSTLY_PER_CALLER: '20', SEARCH_TIMEOUT_MILLIS: '600000', SPARQL_TIMEOUT_MILLIS: '5000' }, resources);
  try {
    const started = performance.now();
    const searches = Promise.all(Array.from({ length: 10 }, (_, i) => post(`${r.url}/v1/search/query`, i % 2 ? prefixes(i) : wildcards(i))));
    const probes = await probeWhile(r.url, searches);
    const statuses = await searches;
    const wall = performance.now() - started;
    console.log(summarize('version while 10 costly searches', probes, wall), ` (searches: ${statuses.join(' ')}, ${wall.toFixed(0)} ms in all)`);
    const cartesian = fetch(
      `${r.url}/v1/views/bench/main/graph/sparql?query=${encodeURIComponent('SELECT (COUNT(*) AS ?c) WHERE { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i }')}`,
    );
    await new Promise((res) => setTimeout(res, 100));
    const trivial: number[] = [];
    const t0 = performance.now();
    for (let i = 0; i < 20; i++) {
      const t = performance.now();
      await fetch(`${r.url}/v1/views/bench/main/graph/sparql?query=${encodeURIComponent('ASK { ?s ?p ?o }')}`).then((res) => res.text());
      trivial.push(performance.now() - t);
    }
    console.log(summarize('SPARQL ASK while a cartesian runs', trivial, performance.now() - t0), ` (the cartesian: ${(await cartesian).status})`);
  } finally {
    await r.stop();
  }
  for (const workers of ['1', '2']) {
    const m = await registry({ SPARQL_WORKERS: workers }, memoryResources);
    try {
      await fetch(`${m.url}/v1/views/bench/main/graph/sparql?query=${encodeURIComponent('ASK { ?s ?p ?o }')}`).then((res) => res.text());
      console.log(`process RSS with ${workers} SPARQL worker(s), ${memoryResources} resources: ${rssMb(m.pid).toFixed(0)} MiB`);
    } finally {
      await m.stop();
    }
  }
};
