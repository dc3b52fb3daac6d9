import type { ResourceState } from '../../domain/resources/Resource.js';
import type { JsonObject } from '../../domain/resources/ResourceEvent.js';
import { schemaBase } from '../../domain/schemas/schemaRef.js';
import { context } from '../../kernel/vocabulary.js';
import type { Addresses } from '../../kernel/Addresses.js';

const METADATA = context('metadata');

/** A single type reads as a string, several as an array (as clients of the API expect). */
export const typesValue = (types: string[]): { '@type'?: string | string[] } => (types.length === 0 ? {} : { '@type': types.length === 1 ? types[0]! : types });

/** The `_` fields of a resource (spec 2.2, newest description). */
export const resourceMetadataFields = (state: ResourceState, at: Addresses) => ({
  _self: at.resource(state.project, state.id),
  // The schema's plain IRI: which revision validated is kept internally (wire-format.md).
  _constrainedBy: schemaBase(state.schema),
  _project: state.project,
  _rev: state.rev,
  _deprecated: state.deprecated,
  _createdAt: state.createdAt,
  _createdBy: at.subject(state.createdBy),
  _updatedAt: state.updatedAt,
  _updatedBy: at.subject(state.updatedBy),
});

/** The response of writes and listing entries: metadata only. */
export const resourceMetadata = (state: ResourceState, at: Addresses): JsonObject => ({
  '@context': METADATA,
  '@id': state.id,
  ...typesValue(state.types),
  ...resourceMetadataFields(state, at),
});

/** `@context` extended with another context, without repeating it. */
export const withContext = (ctx: unknown, extra: string): unknown => {
  const list = ctx === undefined ? [] : Array.isArray(ctx) ? ctx : [ctx];
  return list.includes(extra) ? (list.length === 1 ? list[0] : list) : list.length === 0 ? extra : [...list, extra];
};

/** Fetch: the payload compacted with its own context, plus the metadata fields and context. */
export const resourceBody = (state: ResourceState, compacted: JsonObject, at: Addresses): JsonObject => ({
  ...compacted,
  '@context': withContext(compacted['@context'], METADATA),
  ...resourceMetadataFields(state, at),
});

/** `/source?annotate=true`: the payload as sent plus metadata; the payload's own fields win. */
export const annotatedSource = (state: ResourceState, source: JsonObject, at: Addresses): JsonObject => ({
  '@id': state.id,
  ...typesValue(state.types),
  ...resourceMetadataFields(state, at),
  ...source,
  '@context': withContext(source['@context'], METADATA),
});
