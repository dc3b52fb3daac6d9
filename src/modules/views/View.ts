import type { DeprecateCommand, ItemTarget, TagCommand, UndeprecateCommand } from '../../domain/itemCommands.js';
import { targetOf } from '../../domain/itemCommands.js';
import type { EventBase } from '../../domain/Metadata.js';
import type { JsonObject } from '../../kernel/json.js';
import type { ProjectRef } from '../../kernel/labels.js';
import type { Rejection } from '../../kernel/Rejection.js';
import { rejections } from '../../domain/rejections.js';
import type { Versioned } from '../../domain/versioned.js';
import { firstRevision, missingTargetRev, nextRevision, tagged } from '../../domain/versioned.js';
import { viewRejections } from './viewRejections.js';

export type ViewType = 'ElasticSearchView' | 'SparqlView' | 'AggregateElasticSearchView' | 'AggregateSparqlView';

/** What an indexing view (ElasticSearchView, SparqlView) selects and how it is queried. */
export interface ViewFilters {
  resourceSchemas: string[];
  resourceTypes: string[];
  resourceTag?: string;
  includeMetadata: boolean;
  includeDeprecated: boolean;
  /** Needed on the view's project to query it. */
  permission: string;
}

/** A member of an aggregate view. */
export interface ViewRef {
  project: ProjectRef;
  viewId: string;
}

export interface ViewFields {
  type: ViewType;
  name?: string;
  description?: string;
  /** Indexing views only. */
  filters?: ViewFilters;
  /** ElasticSearchView only: the index mapping and settings as given. */
  mapping?: JsonObject;
  settings?: JsonObject;
  sourceAsText?: boolean;
  /** Aggregate views only. */
  views?: ViewRef[];
}

export interface ViewValue {
  fields: ViewFields;
  /** The payload as sent. */
  source: JsonObject;
  /** Changes at each update and restart: an indexing view's index is rebuilt under a new one. */
  indexingRev: number;
}

export type ViewState = Versioned<ViewValue>;

export type ViewCommand =
  | (ItemTarget & { type: 'Create'; fields: ViewFields; source: JsonObject })
  | (ItemTarget & { type: 'Update'; rev: number; fields: ViewFields; source: JsonObject })
  | TagCommand
  | DeprecateCommand
  | UndeprecateCommand;

type Base = EventBase & { id: string; project: ProjectRef; viewType: ViewType };

export type ViewEvent =
  | (Base & { type: 'ViewCreated'; fields: ViewFields; source: JsonObject })
  | (Base & { type: 'ViewUpdated'; fields: ViewFields; source: JsonObject })
  | (Base & { type: 'ViewTagAdded'; tag: string; targetRev: number })
  | (Base & { type: 'ViewDeprecated' })
  | (Base & { type: 'ViewUndeprecated' });

export const isSparqlFamily = (type: ViewType): boolean => type === 'SparqlView' || type === 'AggregateSparqlView';
export const isAggregate = (type: ViewType): boolean => type === 'AggregateElasticSearchView' || type === 'AggregateSparqlView';

/** The name Delta gives the event on the streams. */
export const deltaEventName = (e: ViewEvent): string => `${isSparqlFamily(e.viewType) ? 'BlazegraphView' : 'ElasticSearchView'}${e.type.slice('View'.length)}`;

/** Delta's order: existence, revision, deprecation, then the type may not change. */
export const evaluateView = (state: ViewState | undefined, cmd: ViewCommand): ViewEvent | Rejection => {
  const base = targetOf(cmd);
  if (cmd.type === 'Create') {
    if (state) return viewRejections.alreadyExists(cmd.id, cmd.project);
    return { ...base, type: 'ViewCreated', rev: 1, viewType: cmd.fields.type, fields: cmd.fields, source: cmd.source };
  }
  if (!state) return viewRejections.notFound(cmd.id, cmd.project);
  if (cmd.rev !== state.rev) return rejections.incorrectRev(cmd.rev, state.rev);
  const rev = state.rev + 1;
  const viewType = state.value.fields.type;
  if (cmd.type === 'Undeprecate') {
    if (!state.deprecated) return viewRejections.isNotDeprecated(cmd.id);
    return { ...base, type: 'ViewUndeprecated', rev, viewType };
  }
  if (state.deprecated) return viewRejections.isDeprecated(cmd.id);
  switch (cmd.type) {
    case 'Update':
      if (cmd.fields.type !== viewType) return viewRejections.differentType(cmd.id, cmd.fields.type, viewType);
      return { ...base, type: 'ViewUpdated', rev, viewType, fields: cmd.fields, source: cmd.source };
    case 'Tag':
      return missingTargetRev(state, cmd.targetRev) ?? { ...base, type: 'ViewTagAdded', rev, viewType, tag: cmd.tag, targetRev: cmd.targetRev };
    case 'Deprecate':
      return { ...base, type: 'ViewDeprecated', rev, viewType };
  }
};

export const nextView = (state: ViewState | undefined, event: ViewEvent): ViewState | undefined => {
  if (event.type === 'ViewCreated') return firstRevision(event, { fields: event.fields, source: event.source, indexingRev: 1 });
  if (!state) return undefined;
  switch (event.type) {
    case 'ViewUpdated':
      return nextRevision(state, event, { value: { fields: event.fields, source: event.source, indexingRev: event.rev } });
    case 'ViewTagAdded':
      return tagged(state, event);
    case 'ViewDeprecated':
      return nextRevision(state, event, { deprecated: true });
    case 'ViewUndeprecated':
      return nextRevision(state, event, { deprecated: false });
  }
};
