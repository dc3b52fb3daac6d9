import type { ItemTarget } from '../../kernel/ItemRef.js';
import type { ProjectRef } from '../../kernel/labels.js';
import type { Rejection } from '../../kernel/Rejection.js';
import { rejections } from '../rejections.js';
import type { ProjectState } from './Project.js';
import { resolveId } from './apiMappings.js';

/** The path segments naming an item: a schema segment (`_`: none) and an id segment, either absent where the path has none. */
export interface ItemSegments {
  schema?: string;
  id?: string;
}

/** How a kind names its items in paths beyond the project's mappings: its rejection of a segment that is no IRI, and its aliases. */
export interface SegmentRules {
  invalidId(segment: string): Rejection;
  /** The id a segment names other than by expansion (the views' `graph`); undefined: none. */
  alias?(segment: string): string | undefined;
}

/** The resources' and schemas' rules: `InvalidResourceId`, no alias. */
const RESOURCE_SEGMENTS: SegmentRules = { invalidId: rejections.invalidResourceId };

/** Resolves the segments against the project's mappings and base; the kind's rejection (`InvalidResourceId` by default) for a segment that is no usable IRI. */
export const resolveItem = (
  project: Pick<ProjectState, 'apiMappings' | 'base'>,
  ref: ProjectRef,
  segments: ItemSegments,
  rules: SegmentRules = RESOURCE_SEGMENTS,
): ItemTarget => {
  const iri = (segment: string) => {
    const resolved = resolveId(segment, project);
    if (resolved === undefined) throw rules.invalidId(segment);
    return resolved;
  };
  const id = segments.id === undefined ? undefined : (rules.alias?.(segments.id) ?? iri(segments.id));
  const schema = segments.schema === undefined || segments.schema === '_' ? undefined : iri(segments.schema);
  return { project: ref, ...(id === undefined ? {} : { id }), ...(schema === undefined ? {} : { schema }) };
};

/** Item references of the projects the service knows (`ProjectNotFound` for another). */
export type ItemRefs = (ref: ProjectRef, segments: ItemSegments, rules?: SegmentRules) => ItemTarget | Promise<ItemTarget>;

export const itemRefs =
  (projects: { fetch(ref: ProjectRef): Pick<ProjectState, 'apiMappings' | 'base'> }): ItemRefs =>
  (ref, segments, rules) =>
    resolveItem(projects.fetch(ref), ref, segments, rules);
