import { readFileSync } from 'node:fs';
import { iri } from '../src/rdf/terms.js';
import { HEAD, headsGraphOf } from '../src/store/graphNames.js';
import { SparqlHttpClient } from '../src/store/SparqlHttpClient.js';
import { releaseVirtuoso, useVirtuoso } from '../test/support/virtuoso.js';

const cpuSeconds = (pid: number): number => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /, '').split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
};
const N = Number(process.env['HEADS_N'] ?? 20_000);
const PROJECTS = 10;
const main = async (): Promise<void> => {
  const virtuoso = await useVirtuoso();
  const client = new SparqlHttpClient(virtuoso.server, { timeoutMillis: 300_000 });
  try {
    const item = (i: number) => `urn:registry:resources/b/p${i % PROJECTS}/r${i}`;
    const project = (i: number) => `b/p${i % PROJECTS}`;
    for (let at = 0; at < N; at += 400) {
      const rows: string[] = [];
      for (let i = at; i < Math.min(N, at + 400); i++) rows.push(`GRAPH ${iri(headsGraphOf(project(i)))} { ${iri(item(i))} <${HEAD}> ${iri(`${item(i)}/rev/1`)} }`);
      await client.update(`INSERT DATA {\n${rows.join('\n')}\n}`);
    }
    const shapes: Record<string, (batch: number[]) => string> = {
      pairs: (b) => `SELECT ?h ?item ?g WHERE { VALUES (?h ?item) { ${b.map((i) => `(${iri(headsGraphOf(project(i)))} ${iri(item(i))})`).join(' ')} } GRAPH ?h { ?item <${HEAD}> ?g } }`,
      perProject: (b) => {
        const by = new Map<string, number[]>();
        for (const i of b) by.set(project(i), [...(by.get(project(i)) ?? []), i]);
        return `SELECT ?h ?item ?g WHERE { ${[...by].map(([p, is]) => `{ GRAPH ${iri(headsGraphOf(p))} { VALUES ?item { ${is.map((i) => iri(item(i))).join(' ')} } ?item <${HEAD}> ?g } BIND(${iri(headsGraphOf(p))} AS ?h) }`).join(' UNION ')} }`;
      },
      itemsIn: (b) => {
        const graphs = [...new Set(b.map(project))].map((p) => iri(headsGraphOf(p)));
        return `SELECT ?h ?item ?g WHERE { VALUES ?item { ${b.map((i) => iri(item(i))).join(' ')} } GRAPH ?h { ?item <${HEAD}> ?g } FILTER(?h IN (${graphs.join(', ')})) }`;
      },
    };
    const cpu: Record<string, number> = {};
    const rounds = 30;
    for (let r = 0; r < rounds; r++)
      for (const [name, shape] of Object.entries(shapes)) {
        const batch = Array.from({ length: 80 }, (_, k) => (r * 997 + k * 131) % N);
        const before = cpuSeconds(virtuoso.pid);
        const { body } = await client.query(shape(batch), 'application/sparql-results+json');
        cpu[name] = (cpu[name] ?? 0) + cpuSeconds(virtuoso.pid) - before;
        if (r === 0) console.log(name, (JSON.parse(body) as { results: { bindings: unknown[] } }).results.bindings.length, 'rows');
      }
    for (const [name, s] of Object.entries(cpu)) console.log(`${name}: ${((s / rounds) * 1000).toFixed(1)} ms of Virtuoso CPU a query of 80 items, heads ${N}`);
  } finally {
    await releaseVirtuoso();
  }
};
if (process.argv[1]?.endsWith('headsSelect.js')) await main();
