import { readFileSync } from 'node:fs';
import oxigraph from 'oxigraph';
import sparqljs from 'sparqljs';
import type { Expression, IriTerm, LiteralTerm, Pattern, SparqlQuery, Triple } from 'sparqljs';
import { assetPath } from '../util/assets.js';
import { filter, op, str, v } from './sparqlTerms.js';

/** Queries as sparqljs syntax trees (built with `sparqlTerms`) written out, and the statements kept in `sparql/*.rq`. */
const generator = new sparqljs.Generator();
export const stringify = (query: SparqlQuery): string => generator.stringify(writable(query) as SparqlQuery);

/** Whether the store's SPARQL parser accepts the IRI (Oxigraph loads invalid ones leniently, e.g. ids with spaces). */
const validIri = (value: string): boolean => {
  try {
    oxigraph.namedNode(value);
    return true;
  } catch {
    return false;
  }
};

/**
 * The query with every IRI Oxigraph's parser refuses once spelled (`%zz`, two `#`...) matched by its
 * string instead: in a triple pattern it becomes a variable filtered with `STR(?v) = "..."`; in an
 * expression an unbound variable (an error, so nothing matches); a literal's unusable datatype is
 * dropped. Such values never make the query unparseable.
 */
const writable = (query: SparqlQuery): unknown => {
  let fresh = 0;
  const bad = (t: unknown): t is IriTerm => (t as { termType?: string })?.termType === 'NamedNode' && !validIri((t as IriTerm).value);
  const literal = (t: unknown): unknown => {
    const l = t as LiteralTerm;
    return l?.termType === 'Literal' && l.datatype && !validIri(l.datatype.value) ? str(l.value) : t;
  };
  const expression = (e: unknown): unknown => {
    if (bad(e)) return v(`unwritable${fresh++}`);
    if (Array.isArray(e)) return e.map(expression);
    if (e && typeof e === 'object' && !(e as { termType?: string }).termType) {
      const out: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(e)) out[k] = expression(x);
      return out;
    }
    return literal(e);
  };
  const group = (patterns: Pattern[]): Pattern[] => {
    const out: Pattern[] = [];
    const filters: Pattern[] = [];
    const term = <T>(t: T): T => {
      if (!bad(t)) return literal(t) as T;
      const variable = v(`unwritable${fresh++}`);
      filters.push(filter(op('=', op('str', variable), str(t.value))));
      return variable as T;
    };
    for (const p of patterns) {
      if (p.type === 'bgp')
        out.push({ ...p, triples: p.triples.map((t) => ({ subject: term(t.subject), predicate: term(t.predicate), object: term(t.object) }) as Triple) });
      else if (p.type === 'filter') out.push({ ...p, expression: expression(p.expression) as Expression });
      else if (p.type === 'bind') out.push({ ...p, expression: expression(p.expression) as Expression });
      else if (p.type === 'graph' || p.type === 'optional' || p.type === 'group' || p.type === 'minus' || p.type === 'service')
        out.push({ ...p, ...(p.type === 'graph' && bad(p.name) ? { name: term(p.name) } : {}), patterns: group(p.patterns) } as Pattern);
      else if (p.type === 'union')
        out.push({ ...p, patterns: p.patterns.map((q) => (q.type === 'group' ? { ...q, patterns: group(q.patterns) } : group([q])[0]!)) } as Pattern);
      else if (p.type === 'values')
        out.push({ ...p, values: p.values.map((row) => Object.fromEntries(Object.entries(row).map(([k, t]) => [k, bad(t) ? undefined : t]))) } as Pattern);
      else out.push(p);
    }
    return [...out, ...filters];
  };
  const q = query as { where?: Pattern[] };
  return q.where ? { ...query, where: group(q.where) } : query;
};

/**
 * A statement kept in `sparql/{name}.rq`, parsed once. `bound` substitutes variables named
 * `?_param` by terms: each parameter is one escaped term, never text spliced into the query.
 */
export class Statement {
  private readonly tree: SparqlQuery;

  constructor(readonly name: string) {
    this.tree = new sparqljs.Parser().parse(readFileSync(assetPath('sparql', `${name}.rq`), 'utf8'));
  }

  bound(params: Record<string, IriTerm | LiteralTerm>, patch: (q: SparqlQuery) => void = () => undefined): string {
    const copy = substitute(this.tree, params) as SparqlQuery;
    patch(copy);
    return stringify(copy);
  }
}

const substitute = (node: unknown, params: Record<string, IriTerm | LiteralTerm>): unknown => {
  if (Array.isArray(node)) return node.map((x) => substitute(x, params));
  if (node && typeof node === 'object') {
    const term = node as { termType?: string; value?: string };
    if (term.termType === 'Variable' && term.value?.startsWith('_')) {
      const bound = params[term.value.slice(1)];
      if (!bound) throw new Error(`statement parameter ?${term.value} is not bound`);
      return bound;
    }
    if (term.termType) return node;
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(node)) out[k] = substitute(x, params);
    return out;
  }
  return node;
};
