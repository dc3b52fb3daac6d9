import { createHash } from 'node:crypto';

/** A triple of an N-Triples line, its terms as written. */
interface Triple {
  s: string;
  p: string;
  o: string;
}

/** Work allowed to label one graph's blank nodes (calls); past it, a graph's own labels are kept. */
const MAX_WORK = 200_000;

const isBlank = (term: string) => term.startsWith('_:');

/** One N-Triples (or graph-less N-Quads) line as its three terms; undefined for a blank or comment line. */
export const tripleOf = (line: string): Triple | undefined => {
  const text = line.trim();
  if (text === '' || text.startsWith('#')) return undefined;
  const s = text.slice(0, text.indexOf(' '));
  const rest = text.slice(s.length + 1).trimStart();
  const p = rest.slice(0, rest.indexOf('>') + 1);
  const o = rest
    .slice(p.length)
    .trim()
    .replace(/\s*\.$/, '');
  return { s, p, o };
};

/**
 * The triples of a graph (N-Triples text) as sorted, distinct lines whose blank nodes are named by
 * their structure: a blank node's label is a digest of its own triples, the blank nodes they reach
 * named the same way in turn (a cycle back to a node on the way is named by how far back it goes).
 * So a blank node with the same triples has the same label in two revisions whatever labels the
 * store or the converter gave it, and two graphs are compared line by line. Unlike RDF Dataset
 * Canonicalization (RDFC-1.0, `rdf-canonize`), which numbers the blank nodes in order (`c14n0`,
 * `c14n1`...), a label does not change when another blank node is added or removed elsewhere.
 * Blank nodes with the same triples get the same label (their lines then appear once).
 */
export const canonicalLines = (ntriples: string): string[] => {
  const triples = ntriples
    .split('\n')
    .map(tripleOf)
    .filter((t): t is Triple => t !== undefined);
  if (!triples.some((t) => isBlank(t.s) || isBlank(t.o))) return [...new Set(triples.map(lineOf))].sort();
  const out = new Map<string, Triple[]>();
  for (const t of triples)
    if (isBlank(t.s)) {
      let list = out.get(t.s);
      if (!list) out.set(t.s, (list = []));
      list.push(t);
    }
  const labels = structuralLabels(out);
  const relabel = (term: string) => (isBlank(term) ? (labels?.get(term) ?? term) : term);
  return [...new Set(triples.map((t) => lineOf({ s: relabel(t.s), p: t.p, o: relabel(t.o) })))].sort();
};

const lineOf = (t: Triple): string => `${t.s} ${t.p} ${t.o} .`;

/** Each blank node's structural label; undefined when the graph is too tangled to label within the work allowed. */
const structuralLabels = (out: Map<string, Triple[]>): Map<string, string> | undefined => {
  const done = new Map<string, string>();
  const stack: string[] = [];
  let work = 0;
  let cycles = 0;
  const label = (node: string): string => {
    const known = done.get(node);
    if (known) return known;
    const on = stack.indexOf(node);
    if (on >= 0) {
      cycles++;
      return `^${stack.length - on}`;
    }
    if (++work > MAX_WORK) throw new TooTangled();
    stack.push(node);
    const cyclesBefore = cycles;
    const parts = (out.get(node) ?? []).map((t) => `${t.p} ${isBlank(t.o) ? `[${label(t.o)}]` : t.o}`).sort();
    stack.pop();
    const digest = `_:b${createHash('sha1').update(parts.join('\n')).digest('hex').slice(0, 20)}`;
    // A label computed through a cycle depends on where the walk entered it: kept only for this walk.
    if (cycles === cyclesBefore) done.set(node, digest);
    return digest;
  };
  try {
    const labels = new Map<string, string>();
    for (const node of allBlankNodes(out)) labels.set(node, label(node));
    return labels;
  } catch (error) {
    if (error instanceof TooTangled) return undefined;
    throw error;
  }
};

const allBlankNodes = (out: Map<string, Triple[]>): string[] => {
  const nodes = new Set(out.keys());
  for (const list of out.values()) for (const t of list) if (isBlank(t.o)) nodes.add(t.o);
  return [...nodes];
};

class TooTangled extends Error {}

/** What is in `to` and not in `from`, and the other way round (both sorted, distinct lines). */
export const lineChanges = (from: readonly string[], to: readonly string[]): { added: string[]; removed: string[] } => {
  const before = new Set(from);
  const after = new Set(to);
  return { added: to.filter((l) => !before.has(l)), removed: from.filter((l) => !after.has(l)) };
};
