import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { json, measure, startProcess } from './harness.js';
import { payload } from './resources.js';
import { clearVirtuoso, releaseVirtuoso, storeEnv, useVirtuoso } from '../test/support/virtuoso.js';

const SCHEMA = {
  '@context': { sh: 'http://www.w3.org/ns/shacl#', schema: 'http://schema.org/', xsd: 'http://www.w3.org/2001/XMLSchema#' },
  '@id': 'http://example.org/schemas/person',
  shapes: [
    {
      '@id': 'http://example.org/schemas/person/shape',
      '@type': 'sh:NodeShape',
      targetClass: 'schema:Person',
      property: [
        { path: 'schema:name', datatype: 'xsd:string', minCount: 1 },
        { path: 'schema:version', datatype: 'xsd:integer', minCount: 1 },
      ],
    },
  ],
};

/** The server's peak resident memory so far (Linux), in MiB. */
const peakRss = (pid: number | undefined): string => {
  try {
    const kib = Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]);
    return `${Math.round(kib / 1024)} MiB`;
  } catch {
    return '?';
  }
};

/** One bulk import of `lines` (each answered), timed from the first byte sent to the last answer. */
const importLines = async (url: string, lines: string[]): Promise<{ seconds: number; errors: number }> => {
  const started = performance.now();
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/x-ndjson' }, body: `${lines.join('\n')}\n` });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`POST ${url}: ${res.status} ${text.slice(0, 300)}`);
  const answers = text.trim().split('\n');
  if (answers.length !== lines.length) throw new Error(`${answers.length} answers to ${lines.length} lines`);
  const errors = answers.filter((a) => (JSON.parse(a) as { status: number }).status >= 400);
  if (errors.length) console.log(`  first error: ${errors[0]}`);
  return { seconds: (performance.now() - started) / 1000, errors: errors.length };
};

/**
 * Seconds from now until the project's SPARQL endpoint answers (a store behind the log answers 503
 * until it holds every write) and counts `count` resources: when the store caught up with an import.
 */
const caughtUp = async (url: string, project: string, count: number): Promise<number> => {
  const started = performance.now();
  const query = encodeURIComponent('SELECT (COUNT(DISTINCT ?s) AS ?n) WHERE { ?s <http://schema.org/name> ?o }');
  for (let tries = 0; tries < 1_200; tries++) {
    const res = await fetch(`${url}/v1/views/bench/${project}/graph/sparql?query=${query}`, { headers: { accept: 'application/sparql-results+json' } });
    const text = await res.text();
    if (res.status === 200) {
      const n = Number((JSON.parse(text) as { results: { bindings: { n: { value: string } }[] } }).results.bindings[0]?.n.value);
      if (n >= count) return (performance.now() - started) / 1000;
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`the store of bench/${project} did not catch up in 5 minutes`);
};

/**
 * Issue 37: bulk import (no schema, with one) against single creates, and export, over `count`
 * resources of ~25 properties; the time until the store holds every line after each import.
 * BENCH_STORE=external runs it over Virtuoso (started as the tests start it).
 */
export const benchBulk = async (count: number): Promise<void> => {
  const dataDir = mkdtempSync(join(tmpdir(), 'registry-bench-bulk-'));
  const port = 19_000 + Math.floor(Math.random() * 1000);
  const external = process.env['BENCH_STORE'] === 'external' ? (await useVirtuoso()).server : undefined;
  if (external) await clearVirtuoso(external);
  const server = await startProcess(dataDir, port, external ? storeEnv(external) : {});
  const { url } = server;
  try {
    await json(`${url}/v1/orgs/bench`, 'PUT', {});
    for (const project of ['plain', 'schema', 'single']) await json(`${url}/v1/projects/bench/${project}`, 'PUT', {});
    await json(`${url}/v1/schemas/bench/schema`, 'POST', SCHEMA);
    const lines = (project: string) => {
      const base = `${url}/v1/resources/bench/${project}/_/`;
      return Array.from({ length: count }, (_, i) => JSON.stringify({ '@id': `${base}r${i}`, ...payload(i, base) }));
    };
    console.log(
      `\nbulk: ${count} resources of ~25 properties (inline context, two links), ${external ? 'external store (Virtuoso)' : 'embedded store'}, journal`,
    );
    const singles = Math.min(count, 2_000);
    const base = `${url}/v1/resources/bench/single/_/`;
    const single = await measure('single creates (PUT, 8 in flight)', singles, 8, async (i) => void (await json(`${base}r${i}`, 'PUT', payload(i, base))));
    const singleRate = (single.length / single.reduce((a, b) => a + b, 0)) * 8 * 1000;
    const plainLines = lines('plain');
    const bytes = plainLines.reduce((n, l) => n + l.length + 1, 0);
    const plain = await importLines(`${url}/v1/bulk/resources/bench/plain`, plainLines);
    console.log(
      `import, no schema                  ${count} lines  ${(count / plain.seconds).toFixed(0).padStart(6)} lines/s  ${plain.seconds.toFixed(1)} s  ${(bytes / count).toFixed(0)} B/line  ${plain.errors} errors  (~${(count / plain.seconds / singleRate).toFixed(1)}x single creates)`,
    );
    console.log(`  store caught up                  ${(await caughtUp(url, 'plain', count)).toFixed(1)} s after the last answer`);
    const constrained = await importLines(`${url}/v1/bulk/resources/bench/schema/${encodeURIComponent(SCHEMA['@id'])}`, lines('schema'));
    console.log(
      `import, with a schema              ${count} lines  ${(count / constrained.seconds).toFixed(0).padStart(6)} lines/s  ${constrained.seconds.toFixed(1)} s  ${constrained.errors} errors`,
    );
    console.log(`  store caught up                  ${(await caughtUp(url, 'schema', count)).toFixed(1)} s after the last answer`);
    for (const [name, accept] of [
      ['NDJSON', 'application/x-ndjson'],
      ['N-Quads', 'application/n-quads'],
    ] as const) {
      const started = performance.now();
      const res = await fetch(`${url}/v1/export/projects/bench/plain`, { headers: { accept } });
      const body = Buffer.from(await res.arrayBuffer());
      const seconds = (performance.now() - started) / 1000;
      console.log(
        `export, ${name.padEnd(27)} ${count} items  ${(count / seconds).toFixed(0).padStart(6)} items/s  ${seconds.toFixed(1)} s  ${(body.length / count).toFixed(0)} B/item`,
      );
    }
    console.log(`server peak RSS                    ${peakRss(server.child.pid)}`);
  } finally {
    await server.stop();
    if (external) await releaseVirtuoso();
    rmSync(dataDir, { recursive: true, force: true });
  }
};
