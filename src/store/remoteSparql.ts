import oxigraph from 'oxigraph';
import { iri } from '../rdf/terms.js';
import type { Binding, Row } from './GraphStore.js';

const XSD_BOOLEAN = 'http://www.w3.org/2001/XMLSchema#boolean';

/**
 * SPARQL 1.1 JSON results as the standard spells them. Virtuoso still writes SPARQL 1.0's
 * `typed-literal`, and booleans as `1` / `0`.
 */
export const standardBinding = (b: Binding | undefined): Binding | undefined => {
  if (!b) return b;
  const type = (b.type as string) === 'typed-literal' ? 'literal' : b.type;
  const value = b.datatype === XSD_BOOLEAN ? (b.value === '1' ? 'true' : b.value === '0' ? 'false' : b.value) : b.value;
  return type === b.type && value === b.value ? b : { ...b, type, value };
};

export interface JsonResults {
  head: { vars?: string[] };
  results?: { bindings: Row[] };
  boolean?: boolean;
}

export const standardResults = (text: string): JsonResults => {
  const json = JSON.parse(text) as JsonResults;
  // Only the standard's members (Virtuoso adds `link`, `distinct`, `ordered`).
  if (!json.results) return { head: {}, boolean: Boolean(json.boolean) };
  const bindings = json.results.bindings.map((row) => {
    const out: Row = {};
    for (const [name, binding] of Object.entries(row)) out[name] = standardBinding(binding);
    return out;
  });
  return { head: { vars: json.head.vars ?? [] }, results: { bindings } };
};

/**
 * One revision graph written whole, once: inserted only while the graph is empty, so writing it
 * again (a replay, a retry after a lost answer) changes nothing, its blank nodes included (each
 * write of the template would make new ones). The emptiness test is a COUNT subquery: Virtuoso
 * (7.2) evaluates `WHERE { FILTER NOT EXISTS { ... } }` alone as true whatever the graph holds.
 */
export const revisionInsert = (graph: string, ntriples: string): string =>
  `INSERT { GRAPH ${iri(graph)} {\n${ntriples}} } WHERE { { SELECT (COUNT(*) AS ?held) WHERE { GRAPH ${iri(graph)} { ?s ?p ?o } } } FILTER(?held = 0) }`;

export const dropStatements = (graphs: string[]): string[] => {
  const out: string[] = [];
  for (let i = 0; i < graphs.length; i += 200)
    out.push(
      graphs
        .slice(i, i + 200)
        .map((g) => `DROP SILENT GRAPH ${iri(g)}`)
        .join(' ;\n'),
    );
  return out;
};

/** N-Quads text as one `INSERT DATA`, graph by graph. */
export const insertData = (nquads: string): string | undefined => {
  const byGraph = new Map<string, string[]>();
  for (const q of oxigraph.parse(nquads, { format: 'application/n-quads', lenient: true })) {
    const graph = q.graph.termType === 'DefaultGraph' ? '' : q.graph.value;
    let lines = byGraph.get(graph);
    if (!lines) byGraph.set(graph, (lines = []));
    lines.push(`${q.subject.toString()} ${q.predicate.toString()} ${q.object.toString()} .`);
  }
  if (!byGraph.size) return undefined;
  const blocks = [...byGraph].map(([g, lines]) => (g ? `GRAPH ${iri(g)} {\n${lines.join('\n')}\n}` : lines.join('\n')));
  return `INSERT DATA {\n${blocks.join('\n')}\n}`;
};

/** RDF text (N-Triples or Turtle, as a server answered) as N-Triples in the form this service writes. */
export const asNTriples = (body: string, type: string): string => {
  if (!body.trim()) return '';
  const format = type === 'text/turtle' ? 'text/turtle' : 'application/n-triples';
  let out = '';
  for (const q of oxigraph.parse(body, { format, lenient: true })) out += `${q.subject.toString()} ${q.predicate.toString()} ${q.object.toString()} .\n`;
  return out;
};
