import type { ItemTarget } from '../../kernel/ItemRef.js';
import type { ProjectRef } from '../../kernel/labels.js';
import { rejections } from '../rejections.js';
import type { ProjectState } from './Project.js';
import { resolveId } from './apiMappings.js';

/** The path segments naming an item: a schema segment (`_`: none) and an id segment, either absent where the path has none. */
export interface ItemSegments {
  schema?: string;
  id?: string;
}

/** Resolves the segments against the project's mappings and base; `InvalidResourceId` for a segment that is no usable IRI. */
export const resolveItem = (project: Pick<ProjectState, 'apiMappings' | 'base'>, ref: ProjectRef, segments: ItemSegments): ItemTarget => {
  const iri = (segment: string) => {
    const resolved = resolveId(segment, project);
    if (resolved === undefined) throw rejections.invalidResourceId(segment);
    return resolved;
  };
  const id = segments.id === undefined ? undefined : iri(segments.id);
  const schema = segments.schema === undefined || segments.schema === '_' ? undefined : iri(segments.schema);
  return { project: ref, ...(id === undefined ? {} : { id }), ...(schema === undefined ? {} : { schema }) };
};

/** Item references of the projects the service knows (`ProjectNotFound` for another). */
export type ItemRefs = (ref: ProjectRef, segments: ItemSegments) => ItemTarget | Promise<ItemTarget>;

export const itemRefs =
  (projects: { fetch(ref: ProjectRef): Pick<ProjectState, 'apiMappings' | 'base'> }): ItemRefs =>
  (ref, segments) =>
    resolveItem(projects.fetch(ref), ref, segments);
