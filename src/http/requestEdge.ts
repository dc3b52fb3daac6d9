import type { Request } from 'express';
import type { Indexing } from '../domain/EventWriter.js';
import type { ItemRefs, SegmentRules } from '../domain/projects/itemRefs.js';
import { rejections } from '../domain/rejections.js';
import { single } from './params.js';

/**
 * What the route table parses once at the edge, as each route declares it, so that handlers and
 * services see resolved values: the item a path names, and the write's `indexing`.
 */
export interface RequestEdge {
  /** Resolves a path's item segments against its project's mappings. */
  items?: ItemRefs;
  /** Runs a write under the request's `indexing` (what `EventWriter` waits for before it answers). */
  indexing?: <T>(mode: Indexing, write: () => Promise<T>) => Promise<T>;
}

/** Which path parameters name the item: its schema segment (none: `_`, the schema routes) and its id segment (none: a POST). */
export interface ItemPath {
  schema?: string;
  id?: string;
  /** The kind's own rejection of a segment that is no IRI, and its aliases; none: the resources' (`InvalidResourceId`). */
  rules?: SegmentRules;
}

/** `indexing=async|sync`, `sync` by default: `async` acknowledges a write once its state is readable, the projections follow. */
export const parseIndexing = (query: Request['query']): Indexing => {
  const value = single(query, 'indexing');
  if (value === undefined) return 'sync';
  if (value !== 'async' && value !== 'sync') throw rejections.malformedQueryParam(`Query parameter 'indexing' must be 'async' or 'sync', got '${value}'.`);
  return value;
};
