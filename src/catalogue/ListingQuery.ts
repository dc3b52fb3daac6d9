import type { Expression, Ordering, Pattern, SelectQuery, Triple, VariableTerm } from 'sparqljs';
import { CATALOGUE } from '../store/graphNames.js';
import type { Binding } from '../store/GraphStore.js';
import { MISSING_DATATYPE } from './SortValue.js';
import {
  and,
  bgp,
  bind,
  bool,
  dateTime,
  filter,
  graph,
  int,
  n,
  nxvTerm,
  op,
  optional,
  or,
  rdfType,
  str,
  stringify,
  triple,
  typed,
  v,
  values,
} from '../store/sparql.js';

/** The catalogue field a listing sorts on: a metadata field, or a payload property of the current revision. */
export type SortField =
  { metadata: 'createdAt' | 'createdBy' | 'updatedAt' | 'updatedBy' | 'rev' | 'deprecated' | 'id' | 'constrainedBy' | 'project' } | { predicate: string };

export interface SortKey {
  field: SortField;
  descending: boolean;
}

export interface TimeRange {
  from?: string;
  to?: string;
}

/** Conditions on the catalogue fields of an item, as requested and as queried. */
export interface CatalogueConditions {
  deprecated?: boolean;
  rev?: number;
  types: string[];
  typeOperator: 'and' | 'or';
  createdBy?: string;
  updatedBy?: string;
  createdAt?: TimeRange;
  updatedAt?: TimeRange;
  schema?: string;
}

export interface ListingFilter extends CatalogueConditions {
  kind: string;
  /** Projects (`org/project`) to list from; undefined means every project. */
  projects?: string[];
  org?: string;
  id?: string;
  /** Only these item nodes (the matches of a full-text `q` listing sorted otherwise than by score). */
  items?: string[];
}

const item = v('item');
const catalogue = n(CATALOGUE);

/** The catalogue patterns selecting the items of a listing (shared by page, count and aggregations). */
const selection = (f: ListingFilter, extra: Triple[] = []): Pattern[] => {
  const triples: Triple[] = [triple(item, nxvTerm('kind'), str(f.kind))];
  const outside: Pattern[] = [];
  if (f.org !== undefined) triples.push(triple(item, nxvTerm('organization'), str(f.org)));
  if (f.projects !== undefined) {
    if (f.projects.length === 1) triples.push(triple(item, nxvTerm('project'), str(f.projects[0]!)));
    else {
      triples.push(triple(item, nxvTerm('project'), v('scope')));
      outside.push(values('scope', f.projects.map(str)));
    }
  }
  if (f.id !== undefined) triples.push(triple(item, nxvTerm('id'), n(f.id)));
  if (f.items !== undefined) outside.push(values('item', f.items.map(n)));
  if (f.deprecated !== undefined) triples.push(triple(item, nxvTerm('deprecated'), bool(f.deprecated)));
  if (f.rev !== undefined) triples.push(triple(item, nxvTerm('rev'), int(f.rev)));
  if (f.schema !== undefined) triples.push(triple(item, nxvTerm('constrainedBy'), n(f.schema)));
  if (f.createdBy !== undefined) triples.push(triple(item, nxvTerm('createdBy'), n(f.createdBy)));
  if (f.updatedBy !== undefined) triples.push(triple(item, nxvTerm('updatedBy'), n(f.updatedBy)));
  if (f.typeOperator === 'and' || f.types.length === 1) for (const t of f.types) triples.push(triple(item, rdfType, n(t)));
  const filters: Pattern[] = [];
  if (f.typeOperator === 'or' && f.types.length > 1) {
    triples.push(triple(item, rdfType, v('anyType')));
    filters.push(filter(op('in', v('anyType'), f.types.map(n) as unknown as Expression)));
  }
  for (const [name, range] of [
    ['createdAt', f.createdAt],
    ['updatedAt', f.updatedAt],
  ] as const) {
    if (!range) continue;
    const at = v(`${name}Range`);
    triples.push(triple(item, nxvTerm(name), at));
    if (range.from !== undefined) filters.push(filter(op('>=', at, dateTime(range.from))));
    if (range.to !== undefined) filters.push(filter(op('<=', at, dateTime(range.to))));
  }
  triples.push(...extra);
  return [...outside, graph(catalogue, [bgp(...triples), ...filters])];
};

/** SELECT of one page: the item nodes and their sort values, in order. */
export const pageQuery = (f: ListingFilter, sort: SortKey[], page: { offset: number; limit: number; after?: Binding[] }): string => {
  const extra: Triple[] = [];
  const payload: Pattern[] = [];
  const keys = sort.map((key, i) => {
    const sv = v(`s${i}`);
    if ('metadata' in key.field) extra.push(triple(item, nxvTerm(key.field.metadata), sv));
    else {
      if (!extra.some((t) => (t.object as VariableTerm).value === 'head')) extra.push(triple(item, nxvTerm('head'), v('head')));
      const raw = v(`raw${i}`);
      payload.push(optional([graph(v('head'), [bgp(triple(v('id'), n(key.field.predicate), raw))])]));
      payload.push(bind(sv, op('coalesce', raw, typed('', MISSING_DATATYPE)) as Expression));
      return { variable: sv, descending: key.descending, raw };
    }
    return { variable: sv, descending: key.descending };
  });
  extra.push(triple(item, nxvTerm('id'), v('id')));
  const where = [...selection(f, extra), ...payload];
  if (page.after) where.push(filter(afterFilter(keys, page.after)));
  // Items without a payload value come last in both directions: `!BOUND` orders them after the others.
  const order: Ordering[] = [
    ...keys.flatMap((k): Ordering[] => [...(k.raw ? [{ expression: op('!', op('bound', k.raw)) }] : []), { expression: k.variable, descending: k.descending }]),
    { expression: item },
  ];
  const query: SelectQuery = {
    type: 'query',
    queryType: 'SELECT',
    distinct: true,
    prefixes: {},
    variables: [item, ...keys.map((k) => k.variable)],
    where,
    order,
    limit: page.limit,
    ...(page.offset > 0 ? { offset: page.offset } : {}),
  };
  return stringify(query);
};

const NUMERIC = new Set(['integer', 'decimal', 'double', 'float'].map((t) => `http://www.w3.org/2001/XMLSchema#${t}`));

/** Rows strictly after the cursor in the listing's order (the cursor ends with the item node). */
const afterFilter = (keys: { variable: VariableTerm; descending: boolean; raw?: VariableTerm }[], after: Binding[]): Expression => {
  const all: { variable: VariableTerm; descending: boolean; raw?: VariableTerm }[] = [...keys, { variable: item, descending: false }];
  const term = (b: Binding) => (b.type === 'uri' ? n(b.value) : b.datatype ? typed(b.value, b.datatype) : str(b.value));
  const cmp = (k: (typeof all)[number], b: Binding): Expression => {
    const left = b.type === 'uri' ? (op('str', k.variable) as Expression) : (k.variable as Expression);
    const right = b.type === 'uri' ? str(b.value) : term(b);
    const past = op(k.descending ? '<' : '>', left, right as Expression);
    // ORDER BY puts "" (a missing payload value) before every number, but `<`/`>` between them is
    // a type error that drops the row: without these, a cursor crossing that border loses rows.
    if (b.type === 'literal' && !b.datatype && b.value === '' && !k.descending) return or(past, op('isnumeric', k.variable));
    if (b.type === 'literal' && b.datatype && NUMERIC.has(b.datatype) && k.descending) return or(past, op('sameterm', k.variable, str('')));
    return past;
  };
  const eq = (k: (typeof all)[number], b: Binding): Expression =>
    b.type === 'uri' ? op('=', op('str', k.variable), str(b.value)) : op('=', k.variable, term(b) as Expression);
  // A payload key orders items without a value after all others: a cursor on one of them is passed
  // only by the next keys; any other cursor is passed by every item without a value.
  const isMissing = (b: Binding) => b.type === 'literal' && b.datatype === MISSING_DATATYPE;
  const past = (k: (typeof all)[number], b: Binding): Expression =>
    !k.raw ? cmp(k, b) : isMissing(b) ? bool(false) : or(op('!', op('bound', k.raw)), cmp(k, b));
  const same = (k: (typeof all)[number], b: Binding): Expression =>
    !k.raw ? eq(k, b) : isMissing(b) ? op('!', op('bound', k.raw)) : and(op('bound', k.raw), eq(k, b));
  const disjuncts = all.map((k, i) => and(...all.slice(0, i).map((p, j) => same(p, after[j]!)), past(k, after[i]!)));
  return or(...disjuncts);
};

export const countQuery = (f: ListingFilter): string =>
  stringify({
    type: 'query',
    queryType: 'SELECT',
    prefixes: {},
    variables: [{ expression: { type: 'aggregate', aggregation: 'count', distinct: true, expression: item }, variable: v('total') }],
    where: selection(f),
  } as SelectQuery);

/** Bucket counts of the listing's items by project or by type. */
export const aggregationQuery = (f: ListingFilter, by: 'project' | 'type'): string => {
  const key = v('key');
  return stringify({
    type: 'query',
    queryType: 'SELECT',
    prefixes: {},
    variables: [key, { expression: { type: 'aggregate', aggregation: 'count', distinct: true, expression: item }, variable: v('count') }],
    where: selection(f, [triple(item, by === 'project' ? nxvTerm('project') : rdfType, key)]),
    group: [{ expression: key }],
    order: [{ expression: v('count'), descending: true }, { expression: key }],
  } as SelectQuery);
};
