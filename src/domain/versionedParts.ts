import type { Listed, RevisionContent } from './KindDefinition.js';
import type { JsonObject } from './resources/ResourceEvent.js';
import { extractLinks } from './resources/links.js';
import type { Versioned } from './versioned.js';

/** How a kind kept whole per revision (storages, files) shows a revision in the triple store. */
export interface VersionedContent<V> {
  expanded(id: string, value: V): JsonObject[];
  source(value: V): JsonObject;
  types(value: V): string[];
  schema: string;
}

/** A value kept as its checked fields beside the payload as sent (storages, resolvers, views). */
interface FieldsValue<F> {
  fields: F;
  source: JsonObject;
}

/**
 * The content of a kind whose value is its fields and the payload as sent: the revision graph
 * holds the fields expanded, its source is the payload, its types are read from the fields.
 */
export const fieldsContent = <F>(own: {
  expanded(id: string, fields: F): JsonObject[];
  types(fields: F): string[];
  schema: string;
}): VersionedContent<FieldsValue<F>> => ({
  expanded: (id, value) => own.expanded(id, value.fields),
  source: (value) => value.source,
  types: (value) => own.types(value.fields),
  schema: own.schema,
});

/** A new revision graph when the value changed; the previous one again when only the revision moved (a tag, a deprecation). */
export const versionedRevision =
  <V>(content: VersionedContent<V>) =>
  (previous: Versioned<V> | undefined, next: Versioned<V>): RevisionContent | undefined => {
    if (previous && previous.value === next.value) return next.rev !== previous.rev ? 'unchanged' : undefined;
    return { expanded: content.expanded(next.id, next.value), source: content.source(next.value) };
  };

/** The catalogue row of such an item, its links read from its expanded value. */
export const versionedListed =
  <V>(content: VersionedContent<V>) =>
  (s: Versioned<V>): Listed => ({
    project: s.project,
    id: s.id,
    rev: s.rev,
    deprecated: s.deprecated,
    types: content.types(s.value),
    schema: content.schema,
    createdAt: s.createdAt,
    createdBy: s.createdBy,
    updatedAt: s.updatedAt,
    updatedBy: s.updatedBy,
    links: extractLinks(content.expanded(s.id, s.value), s.id),
  });
