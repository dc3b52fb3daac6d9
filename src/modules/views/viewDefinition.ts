import type { LogEvent } from '../../events/EventLog.js';
import type { CommandDefinition, KindDefinition } from '../../domain/KindDefinition.js';
import type { JsonObject } from '../../kernel/json.js';
import type { ProjectRef } from '../../kernel/labels.js';
import { rejections } from '../../domain/rejections.js';
import { context, NXV, SCHEMAS } from '../../kernel/vocabulary.js';
import { versionedListed, versionedRevision } from '../../domain/versionedParts.js';
import type { VersionedContent } from '../../domain/versionedParts.js';
import type { ViewCommand, ViewEvent, ViewFields, ViewState, ViewType, ViewValue } from './View.js';
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
export const viewTypes = (type: ViewType): string[] => [`${NXV}View`, `${NXV}${type}`];

/** The view as expanded JSON-LD: what its revision graph holds. */
export const viewExpanded = (id: string, f: ViewFields): JsonObject[] => {
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

const eventOf = (logged: LogEvent) => logged.event as unknown as ViewEvent;

const content: VersionedContent<ViewValue> = {
  expanded: (id, value) => viewExpanded(id, value.fields),
  source: (value) => value.source,
  types: (value) => viewTypes(value.fields.type),
  schema: VIEWS_SCHEMA,
};

/** Views: kept whole per revision, a revision graph and a catalogue row each; events rendered as Delta's (sse/*-view-created.json). */
export const viewDefinition: KindDefinition<ViewState> & CommandDefinition<ViewState, ViewCommand, ViewEvent> = {
  kind: 'views',
  stateKey: (logged) => logged.key,
  keyOf: (state) => viewKey(state.project, state.id),
  next: (state, logged) => nextView(state, eventOf(logged)),
  evaluate: evaluateView,
  conflict: (state, cmd, actual) =>
    state ? rejections.incorrectRev('rev' in cmd ? cmd.rev : state.rev, actual) : viewRejections.alreadyExists(cmd.id, cmd.project),
  render: (logged, look) => {
    const e = eventOf(logged);
    const uuids = look.projectUuids(e.project);
    return {
      '@context': [context('metadata'), context(isSparqlFamily(e.viewType) ? 'sparql' : 'elasticsearch')],
      '@type': deltaEventName(e),
      _viewId: e.id,
      _resourceId: e.id,
      ...('source' in e ? { _source: e.source } : {}),
      _types: viewTypes(e.viewType),
      _constrainedBy: VIEWS_SCHEMA,
      _project: e.project,
      _instant: e.instant,
      ...(uuids ? { _projectUuid: uuids.uuid, _organizationUuid: uuids.orgUuid } : {}),
      _rev: e.rev,
      _subject: look.addresses.subject(e.subject),
      ...(e.type === 'ViewTagAdded' ? { tag: e.tag, targetRev: e.targetRev } : {}),
    };
  },
  revision: versionedRevision(content),
  listed: versionedListed(content),
};
