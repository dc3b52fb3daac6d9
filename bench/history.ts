import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { json, measure, percentile, put, startProcess } from './harness.js';
import { clearVirtuoso, releaseVirtuoso, storeEnv, useVirtuoso } from '../test/support/virtuoso.js';

const VOCAB = 'http://ex.org/';

/** A resource of 25 properties (one of them a nested blank node, one a list), version `v`. */
const payload = (i: number, v: number) => {
  const body: Record<string, unknown> = { '@context': { '@vocab': VOCAB }, '@type': 'Thing' };
  for (let p = 0; p < 22; p++) body[`p${p}`] = p % 5 === v % 5 ? `value ${p} v${v}` : `value ${p} of ${i}`;
  body['address'] = { city: v % 2 ? 'Paris' : 'Lyon', street: `street ${i}` };
  body['list'] = [1, 2, v];
  return body;
};

/**
 * Diff and history of 25-property resources (each created, updated twice, tagged) in a registry
 * process: p50/p99 of a diff of two revisions (JSON), of a history, and of a SPARQL query over the
 * project's default graph as it is, `at=` an instant, and `tag=` (the aims: diff and history
 * p99 < 20 ms; a time-travel query within 2x of the same query on the current dataset).
 * BENCH_STORE=external runs it over Virtuoso (started as the tests start it).
 */
export const benchHistory = async (count = Number(process.env['BENCH_HISTORY_N'] ?? 2_000), runs = Number(process.env['BENCH_RUNS'] ?? 500)): Promise<void> => {
  const dir = mkdtempSync(join(tmpdir(), 'registry-bench-history-'));
  const port = 23_000 + Math.floor(Math.random() * 1000);
  const external = process.env['BENCH_STORE'] === 'external' ? (await useVirtuoso()).server : undefined;
  if (external) await clearVirtuoso(external);
  console.log(`history bench: ${count} resources, ${external ? 'external store (Virtuoso)' : 'embedded store'}`);
  const server = await startProcess(join(dir, 'data'), port, { LOG_LEVEL: 'silent', ...(external ? storeEnv(external) : {}) });
  try {
    await json(`${server.url}/v1/orgs/bench`, 'PUT', {});
    await json(`${server.url}/v1/projects/bench/h`, 'PUT', {});
    const at = (i: number) => `${server.url}/v1/resources/bench/h/_/r${i}`;
    await measure('history: create', count, 4, (i) => put(at(i), payload(i, 0)));
    await measure('history: update', count, 4, (i) => put(`${at(i)}?rev=1`, payload(i, 1)));
    const middle = new Date().toISOString();
    await new Promise((r) => setTimeout(r, 5));
    await measure('history: update again', count, 4, (i) => put(`${at(i)}?rev=2`, payload(i, 2)));
    await measure('history: tag', count, 4, async (i) => void (await json(`${at(i)}/tags?rev=3`, 'POST', { tag: 'v1', rev: 2 })));
    const ok = async (url: string, accept = 'application/json') => {
      const res = await fetch(url, { headers: { accept } });
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`${url}: ${res.status}`);
    };
    const pick = (i: number) => (i * 7919) % count;
    await measure('diff rev 1 -> 2 (JSON)', runs, 1, (i) => ok(`${at(pick(i))}/diff?from=1&to=2`));
    await measure('diff rev 1 -> 3 (RDF Patch)', runs, 1, (i) => ok(`${at(pick(i))}/diff?from=1&to=3`, 'application/rdf-patch'));
    await measure('history (4 revisions)', runs, 1, (i) => ok(`${server.url}/v1/history/resources/bench/h/r${pick(i)}`));
    await measure('blame (rev 3)', runs, 1, (i) => ok(`${at(pick(i))}/blame`));
    const query = encodeURIComponent(`SELECT (COUNT(*) AS ?n) WHERE { ?s <${VOCAB}p1> ?o }`);
    const sparql = (extra: string) => () => ok(`${server.url}/v1/views/bench/h/graph/sparql?query=${query}${extra}`, 'application/sparql-results+json');
    // The external store is written behind the log: wait until it holds every write (503 until then).
    for (let tries = 0; ; tries++) {
      const res = await fetch(`${server.url}/v1/views/bench/h/graph/sparql?query=${query}`, { headers: { accept: 'application/sparql-results+json' } });
      await res.arrayBuffer();
      if (res.status === 200) break;
      if (tries > 600) throw new Error(`the store did not catch up: ${res.status}`);
      await new Promise((r) => setTimeout(r, 1000));
    }
    const queries = Math.max(10, Math.floor(runs / 10));
    const current = await measure('sparql count, current', queries, 1, sparql(''));
    // The first query at an instant reads back from the log the items changed since; later ones at that instant find them kept.
    const cold = performance.now();
    await sparql(`&at=${encodeURIComponent(middle)}`)();
    console.log(`sparql count, at= first query         ${(performance.now() - cold).toFixed(1)} ms`);
    const asOf = await measure('sparql count, at= (between updates)', queries, 1, sparql(`&at=${encodeURIComponent(middle)}`));
    const tagged = await measure('sparql count, tag=v1', queries, 1, sparql('&tag=v1'));
    const ratio = (t: number[]) => (percentile(t, 50) / percentile(current, 50)).toFixed(1);
    console.log(`time travel at ${count} resources: at= ${ratio(asOf)}x, tag= ${ratio(tagged)}x the current query (p50)`);
  } finally {
    await server.stop();
    if (external) await releaseVirtuoso();
    rmSync(dir, { recursive: true, force: true });
  }
};

if (process.argv[1]?.endsWith('history.js')) await benchHistory(Number(process.argv[2] ?? process.env['BENCH_HISTORY_N'] ?? 2_000));
