import type { Expression, Ordering, Pattern, SelectQuery, Triple, VariableTerm } from 'sparqljs';
import { CATALOGUE } from '../store/graphNames.js';
import type { Binding } from '../store/GraphStore.js';
import { MISSING_DATATYPE } from './SortValue.js';
import { cursorKey, cursorTie, orderKey, textDatatype, tieKey } from './payloadOrder.js';
import { stringify } from '../store/sparql.js';
import { and, bgp, bool, dateTime, filter, graph, int, n, nxvTerm, op, optional, or, rdfType, str, triple, typed, v, values } from '../store/sparqlTerms.js';

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

/** The catalogue patterns selecting the items of a listing, `?item` (shared by page, count, aggregations and the `q` listings ranked on the store). */
export const selection = (f: ListingFilter, extra: Triple[] = []): Pattern[] => {
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
      // The stored value itself, unbound when the payload has none (the page's reader writes the
      // missing-value marker into the cursor). Not a `BIND(COALESCE(...))` of it: on Virtuoso 7 the
      // cursor FILTER over that computed variable passed every row but the cursor's own with `>`.
      payload.push(optional([graph(v('head'), [bgp(triple(v('id'), n(key.field.predicate), sv))])]));
      return { variable: sv, value: orderKey(sv), tie: tieKey(sv), descending: key.descending, payload: true };
    }
    return { variable: sv, value: sv, descending: key.descending, payload: false };
  });
  extra.push(triple(item, nxvTerm('id'), v('id')));
  const where = [...selection(f, extra), ...payload];
  if (page.after) where.push(filter(afterFilter(keys, page.after)));
  // Items without a payload value come last in both directions: `!BOUND` orders them after the others.
  const order: Ordering[] = [
    ...keys.flatMap((k): Ordering[] => [
      ...(k.payload ? [{ expression: op('!', op('bound', k.variable)) }] : []),
      { expression: k.value, descending: k.descending },
      ...(k.tie ? [{ expression: k.tie, descending: k.descending }] : []),
    ]),
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

/** One sort key of the page query: its variable, unbound for an item without a value when it is a payload field. */
interface Key {
  variable: VariableTerm;
  /** What the listing orders by: the variable, or for a payload field its `orderKey` then its `tieKey`. */
  value: Expression;
  tie?: Expression;
  descending: boolean;
  payload: boolean;
}

const XSD = 'http://www.w3.org/2001/XMLSchema#';
const NUMERIC = new Set(['integer', 'decimal', 'double', 'float'].map((t) => `${XSD}${t}`));

/**
 * `variable <operator> value` for a plain string value, as SPARQL means it (true only for a string
 * variable), on the lexical forms. Virtuoso 7 does not compare a stored string with a string
 * constant in a FILTER by its text (seemingly by the order it stored the strings in): on a store
 * that received the values in descending order, `?v > "heron d"` passed exactly the rows before
 * "heron d"; with a constant the store did not hold, no row at all; `=` with an `xsd:string`-typed
 * constant matched nothing. It compares STR() of both sides as text, as every other store does.
 */
const stringComparison = (operator: '<' | '>' | '=', variable: Expression, value: string, datatype: string, tagged: boolean): Expression =>
  and(
    tagged
      ? or(op('!=', op('lang', variable), str('')), op('sameterm', op('datatype', variable), n(datatype)))
      : op('sameterm', op('datatype', variable), n(datatype)),
    op(operator, op('str', variable), str(value)),
  );

/** Rows strictly after the cursor in the listing's order (the cursor ends with the item node). */
const afterFilter = (keys: Key[], after: Binding[]): Expression => {
  const all: Key[] = [...keys, { variable: item, value: item, descending: false, payload: false }];
  const term = (b: Binding) => (b.type === 'uri' ? n(b.value) : b.datatype ? typed(b.value, b.datatype) : str(b.value));
  // Texts on the variable itself, not its order key (whose text is the same, a tagged string's
  // being a plain string): the order key's DATATYPE per row doubled Virtuoso's page after a cursor.
  const compare = (k: Key, operator: '<' | '>' | '=', b: Binding): Expression => {
    const datatype = textDatatype(b);
    if (b.type === 'uri') return op(operator, op('str', k.variable), str(b.value));
    if (datatype) return stringComparison(operator, k.variable, b.value, datatype, k.payload && datatype === `${XSD}string`);
    return op(operator, k.value, term(b) as Expression);
  };
  const cmp = (k: Key, b: Binding): Expression => {
    const past = compare(k, k.descending ? '<' : '>', b);
    // ORDER BY puts "" (a missing payload value) before every number, but `<`/`>` between them is
    // a type error that drops the row: without these, a cursor crossing that border loses rows.
    if (b.type === 'literal' && !b.datatype && b.value === '' && !k.descending) return or(past, op('isnumeric', k.value));
    if (b.type === 'literal' && b.datatype && NUMERIC.has(b.datatype) && k.descending) return or(past, op('sameterm', k.value, str('')));
    return past;
  };
  const eq = (k: Key, b: Binding): Expression => compare(k, '=', b);
  // A payload key orders items without a value after all others: a cursor on one of them is passed
  // only by the next keys; any other cursor is passed by every item without a value.
  const isMissing = (b: Binding) => b.type === 'literal' && b.datatype === MISSING_DATATYPE;
  // Among equal first keys, the tags decide (see payloadOrder); an IRI has none.
  const tie = (k: Key, operator: string, b: Binding): Expression[] => (b.type === 'literal' ? [op(operator, op('str', k.tie!), str(cursorTie(b)))] : []);
  const past = (k: Key, b: Binding): Expression =>
    !k.payload
      ? cmp(k, b)
      : isMissing(b)
        ? bool(false)
        : or(op('!', op('bound', k.variable)), cmp(k, cursorKey(b)), and(eq(k, cursorKey(b)), ...tie(k, k.descending ? '<' : '>', b)));
  const same = (k: Key, b: Binding): Expression =>
    !k.payload ? eq(k, b) : isMissing(b) ? op('!', op('bound', k.variable)) : and(op('bound', k.variable), eq(k, cursorKey(b)), ...tie(k, '=', b));
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
