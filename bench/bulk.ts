import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { json, measure, startProcess } from './harness.js';
import { payload } from './resources.js';

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

/** Issue 37: bulk import (no schema, with one) against single creates, and export, over `count` resources of ~25 properties. */
export const benchBulk = async (count: number): Promise<void> => {
  const dataDir = mkdtempSync(join(tmpdir(), 'registry-bench-bulk-'));
  const port = 19_000 + Math.floor(Math.random() * 1000);
  const server = await startProcess(dataDir, port);
  const { url } = server;
  try {
    await json(`${url}/v1/orgs/bench`, 'PUT', {});
    for (const project of ['plain', 'schema', 'single']) await json(`${url}/v1/projects/bench/${project}`, 'PUT', {});
    await json(`${url}/v1/schemas/bench/schema`, 'POST', SCHEMA);
    const lines = (project: string) => {
      const base = `${url}/v1/resources/bench/${project}/_/`;
      return Array.from({ length: count }, (_, i) => JSON.stringify({ '@id': `${base}r${i}`, ...payload(i, base) }));
    };
    console.log(`\nbulk: ${count} resources of ~25 properties (inline context, two links), embedded store, journal`);
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
    const constrained = await importLines(`${url}/v1/bulk/resources/bench/schema/${encodeURIComponent(SCHEMA['@id'])}`, lines('schema'));
    console.log(
      `import, with a schema              ${count} lines  ${(count / constrained.seconds).toFixed(0).padStart(6)} lines/s  ${constrained.seconds.toFixed(1)} s  ${constrained.errors} errors`,
    );
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
    rmSync(dataDir, { recursive: true, force: true });
  }
};
