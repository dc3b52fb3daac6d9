import { readFileSync } from 'node:fs';
import { iri } from '../src/rdf/terms.js';
import { currentGraphOf, HEAD, headsGraphOf } from '../src/store/graphNames.js';
import { revisionInserts } from '../src/store/remoteSparql.js';
import { SparqlHttpClient } from '../src/store/SparqlHttpClient.js';
import { releaseVirtuoso, useVirtuoso } from '../test/support/virtuoso.js';

/**
 * The store writer's heads step alone, ways of filling the current graph compared on one Virtuoso
 * (`node dist/bench/headsStep.js`): `HEADS_N` (default 2,000) items of 27 triples in 10 projects,
 * their revision graphs written first, then the heads set in batches of 80, each way in turn on
 * items of its own, Virtuoso's CPU (from /proc) summed per way. `copy`: the new heads' triples
 * copied by `INSERT … WHERE` from their revision graphs (main); `data`: sent as `INSERT DATA` in the
 * same update; `post`: sent by the Graph Store protocol, one `POST` a project, the heads graph by
 * update; `bare`: the heads' query and graph alone (no triples); `noselect`: `data` without the
 * query for the held heads, 17 heads a request (creates, as the writer now sends them);
 * `copynoselect`: `copy` without the query. `HEADS_WAYS` picks some. Each
 * batch sends the triples in one request (past the stock settings' `DATA_TRIPLES`: a comparison).
 */
const N = Number(process.env['HEADS_N'] ?? 2_000);
const BATCH = 80;
const PROJECTS = 10;
const WAYS = (process.env['HEADS_WAYS'] ?? 'copy,data,post,bare,noselect').split(',') as Way[];
type Way = 'copy' | 'data' | 'post' | 'bare' | 'noselect' | 'copynoselect';

const cpuSeconds = (pid: number): number => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8')
    .replace(/^.*\) /, '')
    .split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
};

const triples = (i: number): string => {
  const s = `<http://registry.bench/r${i}>`;
  const lines = [
    `${s} <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> <http://schema.org/Person> .`,
    `${s} <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> <http://example.org/vocab/Kind${i % 5}> .`,
    `${s} <http://schema.org/name> "person ${i}" .`,
    `${s} <http://schema.org/age> "${18 + (i % 60)}"^^<http://www.w3.org/2001/XMLSchema#integer> .`,
    `${s} <http://schema.org/knows> <http://registry.bench/r${Math.max(0, i - 1)}> .`,
  ];
  for (let p = 0; p < 20; p++)
    lines.push(`${s} <http://example.org/vocab/p${p}> ${p % 3 === 0 ? `"${i * p}"^^<http://www.w3.org/2001/XMLSchema#integer>` : `"value ${p} of ${i}"`} .`);
  lines.push(`${s} <http://example.org/vocab/shared> "shared" .`, `${s} <http://example.org/vocab/kind> <http://example.org/vocab/Kind${i % 5}> .`);
  return `${lines.join('\n')}\n`;
};

interface Head {
  project: string;
  item: string;
  graph: string;
  ntriples: string;
}

const headsStep = async (client: SparqlHttpClient, way: Way, heads: Head[]): Promise<void> => {
  const rows = heads.map((h) => `(${iri(headsGraphOf(h.project))} ${iri(h.item)})`);
  if (way !== 'noselect' && way !== 'copynoselect')
    await client.query(
      `SELECT ?h ?item ?g WHERE { VALUES (?h ?item) { ${rows.join(' ')} } GRAPH ?h { ?item <${HEAD}> ?g } }`,
      'application/sparql-results+json',
    );
  const byProject = new Map<string, Head[]>();
  for (const h of heads) byProject.set(h.project, [...(byProject.get(h.project) ?? []), h]);
  const steps = [`INSERT DATA {\n${heads.map((h) => `GRAPH ${iri(headsGraphOf(h.project))} { ${iri(h.item)} <${HEAD}> ${iri(h.graph)} }`).join('\n')}\n}`];
  if (way === 'post') for (const [project, run] of byProject) await client.addToGraph(currentGraphOf(project), run.map((h) => h.ntriples).join(''));
  for (const [project, run] of byProject)
    if (way === 'copy' || way === 'copynoselect')
      steps.push(
        `INSERT { GRAPH ${iri(currentGraphOf(project))} { ?s ?p ?o } } WHERE { VALUES ?g { ${run.map((h) => iri(h.graph)).join(' ')} } GRAPH ?g { ?s ?p ?o } }`,
      );
    else if (way === 'data' || way === 'noselect')
      steps.push(`INSERT DATA { GRAPH ${iri(currentGraphOf(project))} {\n${run.map((h) => h.ntriples).join('')}} }`);
  await client.update(steps.join(' ;\n'), true);
};

const main = async (): Promise<void> => {
  const virtuoso = await useVirtuoso();
  const client = new SparqlHttpClient(virtuoso.server, { timeoutMillis: 300_000 });
  try {
    const heads = new Map<Way, Head[]>();
    for (const way of WAYS) {
      const all = Array.from({ length: N }, (_, i) => {
        const project = `${way}/p${i % PROJECTS}`;
        const item = `urn:registry:resources/${project}/r${i}`;
        return { project, item, graph: `${item}/rev/1`, ntriples: triples(i) };
      });
      heads.set(way, all);
      for (const update of revisionInserts(all.map((h) => ({ graph: h.graph, ntriples: h.ntriples })))) await client.update(update.text, update.whole);
    }
    const cpu = new Map<Way, number>(WAYS.map((w) => [w, 0]));
    for (let at = 0; at < N; at += BATCH)
      for (const way of (at / BATCH) % 2 ? [...WAYS].reverse() : WAYS) {
        const before = cpuSeconds(virtuoso.pid);
        // `noselect` as the writer sends it: DATA_TRIPLES (500) a request, 17 heads of 29.
        const step = way === 'noselect' ? 17 : BATCH;
        for (let from = at; from < Math.min(N, at + BATCH); from += step)
          await headsStep(client, way, heads.get(way)!.slice(from, Math.min(from + step, at + BATCH)));
        cpu.set(way, cpu.get(way)! + cpuSeconds(virtuoso.pid) - before);
      }
    for (const way of WAYS) {
      const { body } = await client.query(
        `SELECT (COUNT(*) AS ?n) WHERE { GRAPH ?g { ?s ?p ?o } FILTER(STRSTARTS(STR(?g), "urn:registry:current/${way}/")) }`,
        'application/sparql-results+json',
      );
      const held = (JSON.parse(body) as { results: { bindings: { n: { value: string } }[] } }).results.bindings[0]!.n.value;
      console.log(
        `${way}: Virtuoso CPU ${cpu.get(way)!.toFixed(2)} s for ${N} heads (${((cpu.get(way)! / N) * 1000).toFixed(2)} ms a head); current graphs hold ${held} triples`,
      );
    }
  } finally {
    await releaseVirtuoso();
  }
};

if (process.argv[1]?.endsWith('headsStep.js')) await main();
