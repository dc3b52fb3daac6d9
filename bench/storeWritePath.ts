import { execSync } from 'node:child_process';
import { searchableText } from '../src/search/searchDocument.js';
import { itemTriplesUpdates } from '../src/search/store/itemTriples.js';
import type { ItemTriples } from '../src/search/store/itemTriples.js';
import { documentTriples, searchGraphOf } from '../src/search/store/searchGraph.js';
import { textGraphOf, textTriples } from '../src/search/store/textGraph.js';
import { iri, literal, quad } from '../src/rdf/terms.js';
import { itemNode } from '../src/store/graphNames.js';
import { revisionInserts } from '../src/store/remoteSparql.js';
import { SparqlHttpClient } from '../src/store/SparqlHttpClient.js';
import { releaseVirtuoso, useVirtuoso } from '../test/support/virtuoso.js';

/**
 * The store writer's requests alone, by write path (`node dist/bench/storeWritePath.js [rounds]`):
 * batches of 100 new resources of ~25 properties each (revision graph, search document, listing
 * words, built by the writer's own functions into the writer's own requests), each batch written
 * by one path in turn, the paths alternated round by round on the same Virtuoso: today's requests,
 * the same prefixed `DEFINE sql:log-enable 2` (no transaction log, autocommit) and `3` (log,
 * autocommit). Quotes triples/s per path and the ratios to today's.
 */
const ROUNDS = Number(process.argv[2] ?? 10);
const BATCH = 100;
process.env['VIRTUOSO_BUFFERS'] ??= '30000';
const EX = 'http://example.org/vocab/';

const payload = (i: number): Record<string, unknown> => {
  const doc: Record<string, unknown> = {
    '@id': `http://registry.bench/r${i}`,
    '@type': ['Person', `ex:Kind${i % 5}`],
    name: `person ${i}`,
    age: 18 + (i % 60),
  };
  for (let p = 0; p < 20; p++) doc[`ex:p${p}`] = p % 3 === 0 ? i * p : `value ${p} of ${i}`;
  return doc;
};

const batchOf = (from: number): { updates: string[]; triples: number; byGraph: Map<string, string> } => {
  const byGraph = new Map<string, string>();
  const graphs = [];
  const items: ItemTriples[] = [];
  let triples = 0;
  for (let i = from; i < from + BATCH; i++) {
    const project = `bench/p${i % 10}`;
    const id = `http://registry.bench/r${i}`;
    const node = itemNode('resources', project, id);
    const doc = payload(i);
    let ntriples = quad(iri(id), iri('http://www.w3.org/1999/02/22-rdf-syntax-ns#type'), iri('http://schema.org/Person'), '');
    for (const [k, v] of Object.entries(doc)) if (k !== '@id' && k !== '@type') ntriples += quad(iri(id), iri(`${EX}${k}`), literal(String(v)), '');
    graphs.push({ graph: `urn:registry:rev/${project}/r${i}/1`, ntriples });
    byGraph.set(`urn:registry:rev/${project}/r${i}/1`, ntriples);
    const search = documentTriples(node, { ...doc, _project: project, _rev: 1, _createdAt: '2026-11-28T04:00:00.000Z', _deprecated: false });
    const text = textTriples(node, searchableText(id, doc));
    items.push(
      { graph: searchGraphOf(project), node, triples: search, fresh: true },
      { graph: textGraphOf('resources', project), node, triples: text, fresh: true },
    );
    for (const [g, t] of [
      [searchGraphOf(project), search],
      [textGraphOf('resources', project), text],
    ] as const)
      byGraph.set(g, (byGraph.get(g) ?? '') + t);
    triples += [ntriples, search, text].map((t) => t.split('\n').length - 1).reduce((a, b) => a + b);
  }
  return { updates: [...revisionInserts(graphs).map((u) => u.text), ...itemTriplesUpdates(items)], triples, byGraph };
};

const virtuoso = await useVirtuoso();
// Each path says how it writes: the client sends the updates as they are.
const client = new SparqlHttpClient({ ...virtuoso.server, fastWrites: undefined }, { timeoutMillis: 120_000 });
const GSP = 'Graph Store POST per graph';
const GSP4 = 'Graph Store POST, 4 at once';
const paths: Record<string, (u: string) => string> = {
  [GSP]: (u) => u,
  [GSP4]: (u) => u,
  'INSERT DATA (today)': (u) => u,
  'log-enable 2': (u) => `DEFINE sql:log-enable 2\n${u}`,
  'log-enable 3': (u) => `DEFINE sql:log-enable 3\n${u}`,
  'log-enable 0': (u) => `DEFINE sql:log-enable 0\n${u}`,
};
const totals = new Map<string, { millis: number; triples: number }>();
console.log(`load at start: ${execSync('uptime').toString().trim()}`);
let next = 0;
try {
  for (let round = 0; round < ROUNDS; round++)
    for (const [name, path] of Object.entries(paths)) {
      const { updates, triples, byGraph } = batchOf(next);
      next += BATCH;
      const t = performance.now();
      if (name === GSP) for (const [g, text] of byGraph) await client.addToGraph(g, text);
      else if (name === GSP4) {
        const queue = [...byGraph];
        await Promise.all(
          Array.from({ length: 4 }, async () => {
            for (let e = queue.shift(); e; e = queue.shift()) await client.addToGraph(e[0], e[1]);
          }),
        );
      } else for (const u of updates) await client.update(path(u));
      const total = totals.get(name) ?? { millis: 0, triples: 0 };
      total.millis += performance.now() - t;
      total.triples += triples;
      totals.set(name, total);
    }
  const base = totals.get('INSERT DATA (today)')!;
  for (const [name, { millis, triples }] of totals)
    console.log(
      `${name}: ${((triples / millis) * 1000).toFixed(0)} triples/s (${triples / ROUNDS / BATCH} triples/resource, ${(millis / ROUNDS).toFixed(0)} ms/batch of ${BATCH}), ${(base.millis / base.triples / (millis / triples)).toFixed(2)}× today`,
    );
} finally {
  await releaseVirtuoso();
}
console.log(`load at end: ${execSync('uptime').toString().trim()}`);
