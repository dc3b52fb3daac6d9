import type { ResourceState } from '../../domain/resources/Resource.js';
import type { JsonObject } from '../../domain/resources/ResourceEvent.js';
import { SCHEMA_KIND, SCHEMA_TYPE } from '../../domain/schemas/schemaKind.js';
import { context } from '../../kernel/vocabulary.js';
import type { Addresses } from '../../kernel/Addresses.js';
import { resourceMetadataFields, withContext } from './resources.js';

const METADATA = context('metadata');
const SHACL = context('shacl-20170720');

/** `Schema` (the metadata context's term) for the schema type; other types as they are. */
const schemaTypes = (state: ResourceState) => {
  const types = state.types.map((t) => (t === SCHEMA_TYPE ? 'Schema' : t));
  return { '@type': types.length === 1 ? types[0]! : types };
};

/** The `_` fields of a schema: those of resources, addressed under `/v1/schemas`, with the link listings. */
const schemaMetadataFields = (state: ResourceState, at: Addresses) => {
  const self = at.schema(state.project, state.id);
  return { ...resourceMetadataFields(state, at), _self: self, _incoming: `${self}/incoming`, _outgoing: `${self}/outgoing` };
};

/** Write responses and listing entries. */
export const schemaMetadata = (state: ResourceState, at: Addresses): JsonObject => ({
  '@context': [METADATA, context('schemas-metadata')],
  '@id': state.id,
  ...schemaTypes(state),
  ...schemaMetadataFields(state, at),
});

/** The payload's own context, without the contexts every schema is read with, then metadata and SHACL. */
const fetchedContext = (ctx: unknown): unknown => {
  const own = (Array.isArray(ctx) ? ctx : ctx === undefined ? [] : [ctx]).filter((c) => !SCHEMA_KIND.contexts.includes(c as string));
  return withContext(withContext(own, METADATA), SHACL);
};

/** Fetch: the schema compacted (with the SHACL context), the metadata fields, the SHACL context appended. */
export const schemaBody = (state: ResourceState, compacted: JsonObject, at: Addresses): JsonObject => ({
  ...compacted,
  '@context': fetchedContext(compacted['@context']),
  ...schemaMetadataFields(state, at),
});

/** `/source?annotate=true`: the payload as sent plus metadata; the payload's own fields win. */
export const annotatedSchema = (state: ResourceState, source: JsonObject, at: Addresses): JsonObject => ({
  '@id': state.id,
  ...schemaTypes(state),
  ...schemaMetadataFields(state, at),
  ...source,
  '@context': withContext(source['@context'], METADATA),
});
