import type { JsonObject } from '../../kernel/json.js';
import type { ProjectRef } from '../../kernel/labels.js';
import { NXV, SCHEMAS } from '../../kernel/vocabulary.js';
import { versionedDefinition } from '../../domain/versionedDefinition.js';
import { fieldsContent } from '../../domain/versionedParts.js';
import type { ViewCommand, ViewEvent, ViewFields, ViewType, ViewValue } from './View.js';
import { deltaEventName, evaluateView, isSparqlFamily, nextView } from './View.js';
import { viewRejections } from './viewRejections.js';

declare module '../../events/EventLog.js' {
  interface KindNames {
    views: true;
  }
}

export const VIEWS_SCHEMA = `${SCHEMAS}views.json`;
export const DEFAULT_ES_VIEW = `${NXV}defaultElasticSearchIndex`;
export const DEFAULT_SPARQL_VIEW = `${NXV}defaultSparqlIndex`;
export const isDefaultView = (id: string): boolean => id === DEFAULT_ES_VIEW || id === DEFAULT_SPARQL_VIEW;

export const viewKey = (project: ProjectRef, id: string): string => `views/${project}/${id}`;
const viewTypes = (type: ViewType): string[] => [`${NXV}View`, `${NXV}${type}`];

/** The view as expanded JSON-LD: what its revision graph holds. */
const viewExpanded = (id: string, f: ViewFields): JsonObject[] => {
  const node: JsonObject = { '@id': id, '@type': viewTypes(f.type) };
  if (f.name !== undefined) node[`${NXV}name`] = [{ '@value': f.name }];
  if (f.description !== undefined) node[`${NXV}description`] = [{ '@value': f.description }];
  if (f.filters) {
    node[`${NXV}resourceSchemas`] = f.filters.resourceSchemas.map((s) => ({ '@id': s }));
    node[`${NXV}resourceTypes`] = f.filters.resourceTypes.map((s) => ({ '@id': s }));
    if (f.filters.resourceTag !== undefined) node[`${NXV}resourceTag`] = [{ '@value': f.filters.resourceTag }];
    node[`${NXV}includeMetadata`] = [{ '@value': f.filters.includeMetadata }];
    node[`${NXV}includeDeprecated`] = [{ '@value': f.filters.includeDeprecated }];
    node[`${NXV}permission`] = [{ '@value': f.filters.permission }];
  }
  if (f.views) node[`${NXV}views`] = f.views.map((v) => ({ '@value': `${v.project} ${v.viewId}` }));
  return [node];
};

/** Views: kept whole per revision, a revision graph and a catalogue row each; events rendered as Delta's (sse/*-view-created.json). */
export const viewDefinition = versionedDefinition<ViewValue, ViewCommand, ViewEvent>({
  kind: 'views',
  key: viewKey,
  noun: 'view',
  rejections: viewRejections,
  evaluate: evaluateView,
  fold: nextView,
  streamed: {
    context: (e) => (isSparqlFamily(e.viewType) ? 'sparql' : 'elasticsearch'),
    idField: '_viewId',
    type: deltaEventName,
    types: (e) => viewTypes(e.viewType),
  },
  content: fieldsContent({ expanded: viewExpanded, types: (f) => viewTypes(f.type), schema: VIEWS_SCHEMA }),
});
