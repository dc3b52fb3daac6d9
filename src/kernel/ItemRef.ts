import type { ProjectRef } from './labels.js';

/**
 * An item as a request names it, resolved at the edge: its `@id` as an IRI (aliases and CURIEs of
 * the project's mappings expanded) and, where the path names one, its schema's IRI. A path's `_`
 * schema segment is no schema at all: the service decides what it means (the kind's default on
 * create, the item's own otherwise).
 */
export interface ItemRef {
  project: ProjectRef;
  id: string;
  schema?: string;
}

/** What a create names: an `@id` only where the path has one (POST has none: the payload or a new id gives it). */
export type ItemTarget = Omit<ItemRef, 'id'> & { id?: string };
