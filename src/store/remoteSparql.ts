import oxigraph from 'oxigraph';
import { iri } from '../rdf/terms.js';
import { scopeBlankNodes } from './blankNodes.js';
import type { Binding, RevisionText, Row } from './GraphStore.js';

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

/**
 * Bounds of one request to the server, from Virtuoso 7.2's limits (measured on the tests' server):
 * it compiles a whole request into one SQL procedure, so a request of many operations costs more
 * than linearly (50 changes' head and catalogue updates joined: 1.4 s; 100: 5–7 s) and past ~150
 * it is refused (SQ200 "Query too large, variables in state over the limit"); an `INSERT` template
 * past ~1,500 triples is refused (SP031 "generated SQL text has exceeded 10000 lines"); `INSERT
 * DATA` took 24,000 triples (1.5 MB) in one operation, and the transaction log refuses one
 * transaction past 50 MB. So batches are written in set-wise operations (a few per request, over
 * `VALUES`) and cut by these sizes.
 */
export const REQUEST_BYTES = 512 * 1024;
/**
 * Triples of one `INSERT DATA` request. Debian's stock `virtuoso.ini` (the package's settings, close
 * to the compose file's image) refuses far less than the tests' minimal ini: measured there
 * (INSERT DATA requests sent to a Virtuoso started by test/support/virtuoso.ts with `stockIni`), `INSERT DATA` of 40 graphs of 25 triples (1,000) passed, 50
 * (1,250) were refused with SP031 ("generated SQL text has exceeded 10000 lines"), as was one graph
 * of 1,500 triples; 1,000 in one graph passed. Half of that, whatever the graphs.
 */
export const DATA_TRIPLES = 500;
/** Triples of one `INSERT` template (revision graphs with blank nodes). */
export const TEMPLATE_TRIPLES = 500;
/** Rows of one `VALUES` block (Virtuoso: a few thousand compile to too much SQL). */
export const VALUES_ROWS = 500;

/** The share of one request's bounds (`REQUEST_BYTES` of text, `DATA_TRIPLES` triples) N-Triples text takes. */
export const dataShare = (ntriples: string): number => Math.max(ntriples.length / REQUEST_BYTES, lineCount(ntriples) / DATA_TRIPLES);

/** `items` cut into runs of at most `rows` items and about `bytes` of text (an item larger than that alone). */
export const chunks = <T>(items: readonly T[], size: (item: T) => number, bytes = REQUEST_BYTES, rows = Number.POSITIVE_INFINITY): T[][] => {
  const out: T[][] = [];
  let run: T[] = [];
  let held = 0;
  for (const item of items) {
    const n = size(item);
    if (run.length && (held + n > bytes || run.length >= rows)) {
      out.push(run);
      run = [];
      held = 0;
    }
    run.push(item);
    held += n;
  }
  if (run.length) out.push(run);
  return out;
};

/** The graphs among `graphs` that hold anything, one query per `VALUES_ROWS`. */
export const heldGraphsQueries = (graphs: readonly string[]): string[] =>
  chunks(graphs, () => 1, Number.POSITIVE_INFINITY, VALUES_ROWS).map(
    (run) => `SELECT DISTINCT ?g WHERE { VALUES ?g { ${run.map(iri).join(' ')} } GRAPH ?g { ?s ?p ?o } }`,
  );

const hasBlankNodes = (ntriples: string): boolean => ntriples.includes('_:') && ntriples.split('\n').some((line) => scopeBlankNodes(line, '~') !== line);

/**
 * Requests writing revision graphs none of which the store holds yet, each whole: those without
 * blank nodes as `INSERT DATA` with a `GRAPH` block each (a replay inserts the same triples again,
 * which changes nothing), those with blank nodes as `INSERT` templates (Virtuoso refuses blank nodes
 * in `INSERT DATA`), their labels scoped per graph so that no two revisions share a blank node, and
 * written only while none of their graphs holds anything, so a retry after a lost answer makes no
 * second copy. Each request is one operation: it is applied whole or not at all; a template's must be
 * (`whole`: a part of it written would be taken for all of it).
 */
export const revisionInserts = (graphs: readonly RevisionText[]): { text: string; whole: boolean }[] => {
  const plain: RevisionText[] = [];
  const blank: RevisionText[] = [];
  for (const g of graphs) if (g.ntriples.trim()) (hasBlankNodes(g.ntriples) ? blank : plain).push(g);
  const block = (g: RevisionText, ntriples: string) => `GRAPH ${iri(g.graph)} {\n${ntriples}}`;
  // A graph without blank nodes may be written in parts (each part again is harmless), so each request holds DATA_TRIPLES at most.
  const parts = plain.flatMap((g) => linesOf(g.ntriples, DATA_TRIPLES).map((ntriples) => ({ graph: g.graph, ntriples })));
  const updates = chunks(parts, (g) => dataShare(g.ntriples), 1).map((run) => ({
    text: `INSERT DATA {\n${run.map((g) => block(g, g.ntriples)).join('\n')}\n}`,
    whole: false,
  }));
  for (const run of chunks(blank, (g) => lineCount(g.ntriples), TEMPLATE_TRIPLES)) {
    const blocks = run.map((g, n) =>
      block(
        g,
        g.ntriples
          .split('\n')
          .map((line) => (line ? `${scopeBlankNodes(line, `_${n}`)}\n` : ''))
          .join(''),
      ),
    );
    updates.push({
      text: `INSERT {\n${blocks.join('\n')}\n} WHERE { { SELECT (COUNT(*) AS ?held) WHERE { VALUES ?g { ${run.map((g) => iri(g.graph)).join(' ')} } GRAPH ?g { ?s ?p ?o } } } FILTER(?held = 0) }`,
      whole: true,
    });
  }
  return updates;
};

/** N-Triples text cut into parts of at most `lines` lines (whole lines). */
export const linesOf = (text: string, lines: number): string[] => {
  const out: string[] = [];
  let start = 0;
  let n = 0;
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1))
    if (++n === lines) {
      out.push(text.slice(start, at + 1));
      start = at + 1;
      n = 0;
    }
  if (text.slice(start).trim()) out.push(text.slice(start));
  return out;
};

export const lineCount = (text: string): number => {
  let n = 0;
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) n++;
  return n;
};

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

/** A parsed term as this service writes it: an IRI spelled (`iri`; a lenient parse keeps a space...), the others as Oxigraph writes them. */
const termText = (term: { termType: string; value: string; toString(): string }): string => (term.termType === 'NamedNode' ? iri(term.value) : term.toString());

/** N-Quads text as one `INSERT DATA`, graph by graph. */
export const insertData = (nquads: string): string | undefined => {
  const byGraph = new Map<string, string[]>();
  for (const q of oxigraph.parse(nquads, { format: 'application/n-quads', lenient: true })) {
    const graph = q.graph.termType === 'DefaultGraph' ? '' : q.graph.value;
    let lines = byGraph.get(graph);
    if (!lines) byGraph.set(graph, (lines = []));
    lines.push(`${termText(q.subject)} ${termText(q.predicate)} ${termText(q.object)} .`);
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
  for (const q of oxigraph.parse(body, { format, lenient: true })) out += `${termText(q.subject)} ${termText(q.predicate)} ${termText(q.object)} .\n`;
  return out;
};
