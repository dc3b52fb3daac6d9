import type { JsonObject } from './ResourceEvent.js';

/** An IRI reached from a resource's root node, and the chain of predicates that reaches it. */
export interface Link {
  target: string;
  paths: string[];
}

/**
 * Links of an expanded JSON-LD document: IRI objects reached from the root node directly or through
 * nested blank nodes. Types are not links. Each target keeps its shortest chain (then the
 * lexicographically first), so results are stable whatever the key order of the payload.
 */
export const extractLinks = (expanded: JsonObject[], rootId: string): Link[] => {
  const root = expanded.find((node) => node['@id'] === rootId) ?? expanded[0];
  if (!root) return [];
  const best = new Map<string, string[]>();
  const visit = (node: JsonObject, path: string[], seen: Set<JsonObject>) => {
    if (seen.has(node)) return;
    seen.add(node);
    for (const [predicate, values] of Object.entries(node)) {
      if (predicate.startsWith('@')) continue;
      for (const value of flatten(values)) {
        if (!isObject(value) || '@value' in value) continue;
        const id = value['@id'];
        const chain = [...path, predicate];
        if (typeof id === 'string' && !id.startsWith('_:')) {
          if (id !== rootId) keep(best, id, chain);
        } else {
          visit(value, chain, seen);
        }
      }
    }
  };
  visit(root, [], new Set());
  return [...best.entries()].map(([target, paths]) => ({ target, paths })).sort((a, b) => (a.target < b.target ? -1 : a.target > b.target ? 1 : 0));
};

const keep = (best: Map<string, string[]>, target: string, chain: string[]) => {
  const current = best.get(target);
  if (!current || chain.length < current.length || (chain.length === current.length && chain.join(' ') < current.join(' '))) best.set(target, chain);
};

const flatten = (values: unknown): unknown[] => {
  const out: unknown[] = [];
  for (const value of Array.isArray(values) ? values : [values]) {
    if (isObject(value) && Array.isArray(value['@list'])) out.push(...flatten(value['@list']));
    else if (isObject(value) && Array.isArray(value['@set'])) out.push(...flatten(value['@set']));
    else out.push(value);
  }
  return out;
};

const isObject = (value: unknown): value is JsonObject => typeof value === 'object' && value !== null && !Array.isArray(value);
