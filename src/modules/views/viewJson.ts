import type { JsonObject } from '../../kernel/json.js';
import { idSegment } from '../../kernel/Addresses.js';
import type { Addresses } from '../../kernel/Addresses.js';
import { context } from '../../kernel/vocabulary.js';
import { auditFields } from '../../http/render/auditFields.js';
import type { ViewState } from './View.js';
import { isSparqlFamily } from './View.js';
import { VIEWS_SCHEMA } from './viewDefinition.js';

const viewSelf = (at: Addresses, s: Pick<ViewState, 'project' | 'id'>) => `${at.base}/v1/views/${s.project}/${idSegment(s.id)}`;

/** Delta lists the view's own type first, then `View`. */
const types = (s: ViewState) => [s.value.fields.type, 'View'];
const family = (s: ViewState) => (isSparqlFamily(s.value.fields.type) ? 'sparql' : 'elasticsearch');

const metadataFields = (s: ViewState, at: Addresses) => {
  const self = viewSelf(at, s);
  return {
    _self: self,
    _constrainedBy: VIEWS_SCHEMA,
    _incoming: `${self}/incoming`,
    _outgoing: `${self}/outgoing`,
    _project: s.project,
    ...auditFields(s, at),
  };
};

/** Write responses and listing entries (Delta's created.json): metadata only. */
export const viewMetadata = (s: ViewState, at: Addresses): JsonObject => ({
  '@context': [context(`${family(s)}-metadata`), context('metadata')],
  '@id': s.id,
  '@type': types(s),
  ...metadataFields(s, at),
});

/** Fetch (Delta's fetched.json): the view's fields with their defaults, then the metadata. */
export const viewBody = (s: ViewState, at: Addresses): JsonObject => {
  const f = s.value.fields;
  return {
    '@context': [context(family(s)), context('metadata')],
    '@id': s.id,
    '@type': types(s),
    ...(f.name !== undefined ? { name: f.name } : {}),
    ...(f.description !== undefined ? { description: f.description } : {}),
    ...(f.filters
      ? {
          resourceSchemas: f.filters.resourceSchemas,
          resourceTypes: f.filters.resourceTypes,
          ...(f.filters.resourceTag !== undefined ? { resourceTag: f.filters.resourceTag } : {}),
          includeMetadata: f.filters.includeMetadata,
          includeDeprecated: f.filters.includeDeprecated,
          permission: f.filters.permission,
        }
      : {}),
    ...(f.type === 'ElasticSearchView'
      ? { mapping: f.mapping ?? {}, ...(f.settings ? { settings: f.settings } : {}), sourceAsText: f.sourceAsText ?? false, pipeline: [] }
      : {}),
    ...(f.views ? { views: f.views } : {}),
    ...metadataFields(s, at),
  };
};
