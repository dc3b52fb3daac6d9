import type { Request } from 'express';
import type { ProjectAccess } from '../kernel/ProjectAccess.js';
import { rejections } from '../domain/rejections.js';
import type { Addresses } from '../kernel/Addresses.js';
import type { ListingRequest } from '../catalogue/Listings.js';
import type { Binding } from '../store/GraphStore.js';
import type { TimeRange } from '../catalogue/ListingQuery.js';
import { LANGUAGE_TAG } from '../catalogue/payloadOrder.js';
import { bool, integer, many, single } from './params.js';

const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,3})?Z$/;

/** `<from>..<to>`, each side an ISO instant or `*`. */
const timeRange = (query: Request['query'], name: string): TimeRange | undefined => {
  const value = single(query, name);
  if (value === undefined) return undefined;
  const parts = value.split('..');
  const side = (s: string | undefined) => (s === '*' ? undefined : s !== undefined && INSTANT.test(s) && !Number.isNaN(Date.parse(s)) ? s : null);
  const [from, to] = [side(parts[0]), side(parts[1])];
  if (parts.length !== 2 || from === null || to === null)
    throw rejections.malformedQueryParam(
      `Query parameter '${name}' must be a time range '<from>..<to>' of instants like 2024-01-01T00:00:00Z or '*', got '${value}'.`,
    );
  if (from !== undefined && to !== undefined && from > to) throw rejections.malformedQueryParam(`Query parameter '${name}' has its start after its end.`);
  return { ...(from !== undefined ? { from } : {}), ...(to !== undefined ? { to } : {}) };
};

/** The `after` cursor of `_next`: a JSON array of sort values. */
const cursor = (query: Request['query']): Binding[] | undefined => {
  const value = single(query, 'after');
  if (value === undefined) return undefined;
  try {
    const parsed = JSON.parse(value) as unknown;
    if (
      Array.isArray(parsed) &&
      parsed.length > 0 &&
      parsed.every(
        (b) =>
          b &&
          typeof b === 'object' &&
          ['uri', 'literal'].includes(b.type) &&
          typeof b.value === 'string' &&
          (b.datatype === undefined || typeof b.datatype === 'string') &&
          // A tagged string keeps its tag (the order of equal texts depends on it); a bad one is no cursor of ours.
          (b['xml:lang'] === undefined || (b.type === 'literal' && typeof b['xml:lang'] === 'string' && LANGUAGE_TAG.test(b['xml:lang']))),
      )
    )
      return parsed as Binding[];
  } catch {
    /* reported below */
  }
  throw rejections.malformedQueryParam("Query parameter 'after' must be the cursor given in '_next'.");
};

export interface Scope {
  kind: string;
  project?: string;
  org?: string;
  /** The listing filtered by schema has no `createdAt`, `updatedAt` or `schema` parameters. */
  schemaSegment?: string;
}

/** Query parameters of a listing (spec 4.2). */
export const listingRequest = (req: Request, scope: Scope, access: ProjectAccess): ListingRequest => {
  const q = req.query;
  const after = cursor(q);
  const fromParam = integer(q, 'from', 0, 10_000);
  if (after && fromParam !== undefined) throw rejections.malformedQueryParam("Query parameters 'from' and 'after' cannot be used together.");
  const typeOperator = single(q, 'typeOperator') ?? 'or';
  if (typeOperator !== 'and' && typeOperator !== 'or')
    throw rejections.malformedQueryParam(`Query parameter 'typeOperator' must be 'and' or 'or', got '${typeOperator}'.`);
  if (scope.schemaSegment !== undefined) {
    for (const name of ['createdAt', 'updatedAt', 'schema', 'locate', 'typeOperator'])
      if (q[name] !== undefined) throw rejections.malformedQueryParam(`Query parameter '${name}' is not available on the listing filtered by schema.`);
  }
  const optional = <T>(name: string, value: T | undefined) => (value === undefined ? {} : { [name]: value });
  return {
    kind: scope.kind,
    access,
    ...optional('project', scope.project),
    ...optional('org', scope.org),
    from: fromParam ?? 0,
    size: integer(q, 'size', 1, 1000) ?? 20,
    ...optional('after', after),
    ...optional('locate', single(q, 'locate')),
    ...optional('q', single(q, 'q')),
    ...optional('deprecated', bool(q, 'deprecated')),
    ...optional('rev', integer(q, 'rev', 1)),
    types: many(q, 'type'),
    typeOperator,
    ...optional('createdBy', single(q, 'createdBy')),
    ...optional('updatedBy', single(q, 'updatedBy')),
    ...optional('createdAt', timeRange(q, 'createdAt')),
    ...optional('updatedAt', timeRange(q, 'updatedAt')),
    ...optional('schema', scope.schemaSegment ?? single(q, 'schema')),
    sort: many(q, 'sort'),
  } as ListingRequest;
};

/** The address of the next page: the same request with `after` instead of `from`. */
export const nextAddress = (at: Addresses, req: Request, after: Binding[]): string => {
  const url = new URL(req.originalUrl, 'http://placeholder');
  url.searchParams.delete('from');
  url.searchParams.set('after', JSON.stringify(after));
  return at.local(`${url.pathname}${url.search}`);
};
