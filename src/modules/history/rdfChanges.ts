import { tripleOf } from './canonicalTriples.js';

/** Triples added and removed, as N-Triples lines (blank nodes labelled by structure). */
export interface TripleChanges {
  added: readonly string[];
  removed: readonly string[];
}

/** Jena's RDF Patch: one transaction, the removals (`D`) then the additions (`A`). */
export const rdfPatch = ({ added, removed }: TripleChanges): string =>
  ['TX .', ...removed.map((l) => `D ${l}`), ...added.map((l) => `A ${l}`), 'TC .'].map((l) => `${l}\n`).join('');

/**
 * The change as SPARQL 1.1 Update, runnable on a store holding the first revision's triples in its
 * default graph. `DELETE DATA` takes no blank nodes, so removed triples with blank nodes are
 * removed by pattern (`DELETE WHERE`, each blank node a variable); `INSERT DATA` adds the rest.
 */
export const sparqlUpdate = ({ added, removed }: TripleChanges): string => {
  const ground = removed.filter((l) => !hasBlank(l));
  const withBlanks = removed.filter(hasBlank);
  const steps: string[] = [];
  if (ground.length) steps.push(`DELETE DATA {\n${ground.map((l) => `  ${l}\n`).join('')}}`);
  if (withBlanks.length) steps.push(`DELETE WHERE {\n${withBlanks.map((l) => `  ${asPattern(l)}\n`).join('')}}`);
  if (added.length) steps.push(`INSERT DATA {\n${added.map((l) => `  ${l}\n`).join('')}}`);
  return steps.length ? `${steps.join(' ;\n')}\n` : '';
};

const hasBlank = (line: string): boolean => {
  const t = tripleOf(line);
  return !!t && (t.s.startsWith('_:') || t.o.startsWith('_:'));
};

const asPattern = (line: string): string => {
  const t = tripleOf(line)!;
  const term = (x: string) => (x.startsWith('_:') ? `?${x.slice(2)}` : x);
  return `${term(t.s)} ${t.p} ${term(t.o)} .`;
};
