import sparqljs from 'sparqljs';
import type { ProjectRef } from '../kernel/labels.js';
import { XSD } from '../rdf/terms.js';
import { currentGraphOf, HEAD, viewHeadsOf } from './graphNames.js';
import { parseItemNode } from './graphNames.js';
import type { ProjectQuery } from './ProjectSparqlStore.js';
import { QueryFailed } from './ProjectSparqlStore.js';

type Term = { termType: string; value: string };
type Node = Record<string, unknown>;

const named = (value: string) => ({ termType: 'NamedNode', value }) as sparqljs.IriTerm;
const variable = (value: string) => ({ termType: 'Variable', value }) as sparqljs.VariableTerm;
const plain = (value: string) => ({ termType: 'Literal', value, language: '', datatype: named(`${XSD}string`) }) as unknown as sparqljs.LiteralTerm;
const NOTHING: sparqljs.FilterPattern = {
  type: 'filter',
  expression: { termType: 'Literal', value: 'false', language: '', datatype: named(`${XSD}boolean`) } as unknown as sparqljs.LiteralTerm,
};

/** Functions a query may call beyond SPARQL's own operators: the XSD casts only (Virtuoso's `bif:` and `sql:` reach its SQL). */
const allowedFunction = (iri: string) => iri.startsWith(XSD);

const invalid = (message: string): QueryFailed => new QueryFailed({ failure: 'invalid', message });

const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Whether `graph` is a revision graph of `project` (`urn:registry:{kind}/{org}/{project}/{id}/rev/{n}`). */
const isRevisionOf = (graph: string, project: ProjectRef): boolean => parseItemNode(graph)?.project === project && /\/rev\/[0-9]+$/.test(graph);

interface Scope {
  /** The one graph that is the default graph; undefined: an empty default graph. */
  defaultGraph: string | undefined;
  /** Several graphs merged as the default graph: sent as the query's FROM, the patterns outside a GRAPH left as they are. */
  merged?: string[];
  /** The named graphs a `GRAPH` may reach: a list, every revision graph of the project, or those a view's heads graph names. */
  named: string[] | 'project' | { heads: string };
  project: ProjectRef;
}

/**
 * A caller's query rewritten so that it can only see its project's dataset on a server that holds
 * every project (an external store), whatever the query says: the server's own handling of dataset
 * descriptions cannot be trusted for this (Virtuoso, verified: `default-graph-uri` and `FROM` leave
 * `GRAPH ?g` reaching every graph of the server; only `named-graph-uri` restricts it). So the parsed
 * tree is rewritten and regenerated, and the server gets no FROM / FROM NAMED at all:
 * - every basic graph pattern and property path outside a `GRAPH` is put inside `GRAPH <default>`;
 * - `GRAPH ?g` is followed by a filter keeping ?g among the dataset's named graphs;
 * - `GRAPH <iri>` naming a graph outside the dataset matches nothing;
 * - `SERVICE`, functions outside the XSD casts and Virtuoso's `bif:` / `sql:` IRIs are refused;
 * - subqueries and EXISTS / NOT EXISTS are rewritten the same way, at any depth;
 * - DESCRIBE becomes the CONSTRUCT of the described resources' triples in the default graph;
 * - a SELECT is limited to one row more than the cap, so the server never computes more.
 * The dataset: the protocol's graph parameters when given, else the query's FROM / FROM NAMED, else
 * the project's (default graph: its current graph; named: its revision graphs), always cut down to
 * the project's revision graphs.
 */
export const confinedQuery = (q: ProjectQuery, maxResults: number): string => {
  let parsed: sparqljs.SparqlQuery;
  try {
    parsed = new sparqljs.Parser().parse(q.query);
  } catch (error) {
    throw invalid(String((error as Error).message ?? error));
  }
  if (parsed.type !== 'query') throw invalid('only queries are answered');
  refuseForeignIris(parsed);
  const scope = scopeOf(q, parsed);
  let query: sparqljs.Query = parsed;
  delete query.from;
  if (query.queryType === 'DESCRIBE') query = describedAsConstruct(query);
  const rewritten = { ...query, where: patterns(query.where ?? [], false, scope) } as sparqljs.Query;
  if (scope.merged) rewritten.from = { default: scope.merged.map(named), named: [] };
  if (rewritten.queryType === 'SELECT') {
    rewriteSelectExpressions(rewritten, scope);
    if (rewritten.limit === undefined || rewritten.limit > maxResults) rewritten.limit = maxResults + 1;
  }
  return new sparqljs.Generator().stringify(rewritten);
};

const scopeOf = (q: ProjectQuery, parsed: sparqljs.Query): Scope => {
  // A view's dataset is fixed: its graph, and its members' graphs as named graphs.
  if (q.view !== undefined) return { defaultGraph: q.view, named: { heads: viewHeadsOf(q.view) }, project: q.project };
  const inProject = (graphs: string[]) => graphs.filter((g) => isRevisionOf(g, q.project));
  let defaults: string[] | undefined;
  let named: string[] | 'project';
  if (q.asOf) {
    defaults = inProject(q.asOf);
    named = 'project';
  } else if (q.defaultGraphs || q.namedGraphs) {
    defaults = inProject(q.defaultGraphs ?? []);
    named = inProject(q.namedGraphs ?? []);
  } else if (parsed.from && (parsed.from.default.length || parsed.from.named.length)) {
    defaults = inProject(parsed.from.default.map((t) => t.value));
    named = inProject(parsed.from.named.map((t) => t.value));
  } else {
    defaults = [currentGraphOf(q.project)];
    named = 'project';
  }
  // The merge of several graphs as one default graph has no rewriting into GRAPH patterns that keeps
  // joins across them and property paths exact: the server merges them itself, from FROM clauses
  // naming only graphs checked above (FROM restricts what the patterns outside a GRAPH reach; a
  // `GRAPH` is confined by the rewriting as ever).
  if (defaults.length > 1) return { defaultGraph: undefined, merged: defaults, named, project: q.project };
  return { defaultGraph: defaults[0], named, project: q.project };
};

const patterns = (list: sparqljs.Pattern[], inGraph: boolean, scope: Scope): sparqljs.Pattern[] => list.map((p) => pattern(p, inGraph, scope));

const pattern = (p: sparqljs.Pattern, inGraph: boolean, scope: Scope): sparqljs.Pattern => {
  switch (p.type) {
    case 'bgp':
      if (inGraph || !p.triples.length || scope.merged) return p;
      return scope.defaultGraph === undefined ? { type: 'group', patterns: [p, NOTHING] } : { type: 'graph', name: named(scope.defaultGraph), patterns: [p] };
    case 'graph': {
      const inner = patterns(p.patterns, true, scope);
      if (p.name.termType === 'NamedNode' && typeof scope.named !== 'object')
        return reachable(p.name.value, scope) ? { ...p, patterns: inner } : { type: 'group', patterns: [NOTHING] };
      return {
        type: 'group',
        patterns: [
          { ...p, patterns: inner },
          { type: 'filter', expression: namedCheck(p.name, scope) },
        ],
      };
    }
    case 'group':
    case 'optional':
    case 'union':
    case 'minus':
      return { ...p, patterns: patterns(p.patterns, inGraph, scope) };
    case 'service':
      throw invalid('SERVICE is not allowed');
    case 'filter':
      return { ...p, expression: expression(p.expression, inGraph, scope) };
    case 'bind':
      return { ...p, expression: expression(p.expression, inGraph, scope) };
    case 'values':
      return p;
    case 'query': {
      const sub = { ...p, where: patterns(p.where ?? [], inGraph, scope) };
      rewriteSelectExpressions(sub, scope, inGraph);
      return sub;
    }
    default:
      throw invalid(`unsupported pattern ${(p as { type: string }).type}`);
  }
};

const reachable = (graph: string, scope: Scope) =>
  scope.named === 'project' ? isRevisionOf(graph, scope.project) : Array.isArray(scope.named) && scope.named.includes(graph);

const namedCheck = (g: sparqljs.VariableTerm | sparqljs.IriTerm, scope: Scope): sparqljs.Expression => {
  if (typeof scope.named === 'object' && !Array.isArray(scope.named)) {
    // A view: the graph must be one its heads graph names (a list of thousands would be sent with every query).
    // The variable is bound only inside the EXISTS, each its own.
    const item = variable('confined_member');
    const heads: sparqljs.Pattern = {
      type: 'graph',
      name: named(scope.named.heads),
      patterns: [{ type: 'bgp', triples: [{ subject: item, predicate: named(HEAD), object: g }] }],
    };
    const member: sparqljs.Expression = { type: 'operation', operator: 'exists', args: [heads] } as unknown as sparqljs.Expression;
    // A member's metadata graph is part of the view's graph, not one of its items' graphs.
    const metadata = {
      type: 'operation',
      operator: 'strstarts',
      args: [{ type: 'operation', operator: 'str', args: [g] }, plain(`${scope.defaultGraph}/meta/`)],
    };
    return { type: 'operation', operator: '&&', args: [member, { type: 'operation', operator: '!', args: [metadata] }] } as sparqljs.Expression;
  }
  if (scope.named !== 'project') {
    if (!scope.named.length) return NOTHING.expression;
    return { type: 'operation', operator: 'in', args: [g, scope.named.map(named)] };
  }
  const [org, project] = scope.project.split('/') as [string, string];
  const shape = `^urn:registry:[^/]+/${escapeRegex(org)}/${escapeRegex(project)}/[^/]+/rev/[0-9]+$`;
  return { type: 'operation', operator: 'regex', args: [{ type: 'operation', operator: 'str', args: [g] }, plain(shape)] };
};

const expression = (e: sparqljs.Expression, inGraph: boolean, scope: Scope): sparqljs.Expression => {
  if (Array.isArray(e)) return e.map((x) => expression(x, inGraph, scope));
  const node = e as unknown as Node;
  switch (node.type) {
    case 'operation': {
      const op = e as sparqljs.OperationExpression;
      if (op.operator === 'exists' || op.operator === 'notexists') return { ...op, args: op.args.map((a) => pattern(a as sparqljs.Pattern, inGraph, scope)) };
      return { ...op, args: op.args.map((a) => expression(a as sparqljs.Expression, inGraph, scope)) };
    }
    case 'functionCall': {
      const call = e as sparqljs.FunctionCallExpression;
      const name = typeof call.function === 'string' ? call.function : call.function.value;
      if (!allowedFunction(name)) throw invalid(`the function <${name}> is not available`);
      return { ...call, args: call.args.map((a) => expression(a, inGraph, scope)) };
    }
    case 'aggregate': {
      const agg = e as sparqljs.AggregateExpression;
      const inner = agg.expression as unknown as Node;
      return inner.termType === 'Wildcard' ? agg : { ...agg, expression: expression(agg.expression as sparqljs.Expression, inGraph, scope) };
    }
    default:
      return e;
  }
};

/** Projections, GROUP BY, HAVING and ORDER BY may hold EXISTS too. */
const rewriteSelectExpressions = (q: sparqljs.SelectQuery, scope: Scope, inGraph = false): void => {
  const variables = q.variables as unknown as Node[];
  if (!(variables.length === 1 && variables[0]!.termType === 'Wildcard'))
    q.variables = variables.map((v) =>
      'expression' in v ? { ...v, expression: expression(v.expression as sparqljs.Expression, inGraph, scope) } : v,
    ) as unknown as sparqljs.Variable[];
  if (q.group) q.group = q.group.map((g) => ({ ...g, expression: expression(g.expression, inGraph, scope) }));
  if (q.having) q.having = q.having.map((h) => expression(h, inGraph, scope));
  if (q.order) q.order = q.order.map((o) => ({ ...o, expression: expression(o.expression, inGraph, scope) }));
};

/** DESCRIBE as the CONSTRUCT of each described resource's triples as subject (in the default graph, once rewritten). */
const describedAsConstruct = (q: sparqljs.DescribeQuery): sparqljs.ConstructQuery => {
  const described = q.variables as unknown as Term[];
  if (described.some((t) => t.termType === 'Wildcard')) throw invalid('DESCRIBE * is not supported: name the described variables');
  const template: sparqljs.Triple[] = [];
  const alternatives: sparqljs.Pattern[] = [];
  described.forEach((term, i) => {
    const triple = { subject: term as sparqljs.IriTerm, predicate: variable(`describe_p${i}`), object: variable(`describe_o${i}`) };
    template.push(triple);
    alternatives.push({ type: 'group', patterns: [{ type: 'bgp', triples: [triple] }] });
  });
  const union: sparqljs.Pattern = alternatives.length === 1 ? alternatives[0]! : { type: 'union', patterns: alternatives };
  return { type: 'query', queryType: 'CONSTRUCT', prefixes: q.prefixes, ...(q.base ? { base: q.base } : {}), template, where: [...(q.where ?? []), union] };
};

/** Virtuoso reads `bif:` and `sql:` IRIs as calls into its SQL engine, and a query can name them anywhere. */
const refuseForeignIris = (tree: unknown): void => {
  const pending: unknown[] = [tree];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    if (!next || typeof next !== 'object') continue;
    const node = next as Node;
    if (node.termType === 'NamedNode' && /^(bif|sql):/i.test(String(node.value))) throw invalid(`<${String(node.value)}> is not available`);
    if (node.type === 'service') throw invalid('SERVICE is not allowed');
    pending.push(...(Array.isArray(next) ? next : Object.values(next)));
  }
};
