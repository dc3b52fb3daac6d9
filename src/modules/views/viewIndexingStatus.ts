import type { KindDefinition, Listed } from '../../domain/KindDefinition.js';
import type { ProjectService } from '../../domain/projects/ProjectService.js';
import { resolveId } from '../../domain/projects/apiMappings.js';
import type { ProjectRef } from '../../kernel/labels.js';
import type { ChangeFeed } from '../../projection/ChangeFeed.js';
import type { Change } from '../../projection/Projection.js';
import type { ProjectItemStates } from '../../projection/ProjectItemStates.js';
import type { ViewState } from './View.js';
import { isAggregate, isSparqlFamily } from './View.js';
import { DEFAULT_ES_VIEW, DEFAULT_SPARQL_VIEW } from './viewDefinition.js';
import { viewRejections } from './viewRejections.js';
import { selectedRev } from './viewSelection.js';

/** Delta 1.12's `IndexingStatus` of one item in one view. */
export type IndexingStatus = 'Pending' | 'Completed' | 'Discarded';

/**
 * Delta's rule (`Projections.indexingStatus`): an item the view does not select is `Discarded`; one
 * it selects is `Pending` while a change of it lies after the position the view's projection
 * reached, else `Completed`.
 */
export const statusOf = (selected: boolean, pendingChanges: readonly Change[], isItem: (change: Change) => boolean): IndexingStatus =>
  !selected ? 'Discarded' : pendingChanges.some(isItem) ? 'Pending' : 'Completed';

/** Where the projections behind the default views are: the project's search (text index) and its SPARQL endpoint's store. */
export interface DefaultViewPositions {
  search(): number;
  sparql(): number;
}

interface Deps {
  items: ProjectItemStates;
  feed: ChangeFeed;
  projects: ProjectService;
  located(project: ProjectRef, idSegment: string): ViewState;
  /** A user-defined view's projection position (undefined: not started yet). */
  position(project: ProjectRef, id: string): number | undefined;
  defaults: DefaultViewPositions;
}

/**
 * `GET /v1/views/{org}/{project}/{view}/status/{resourceId}`: whether the view holds the item's
 * latest change. The item is any item of the project (resource, schema, file, storage, view,
 * resolver), as Delta looks in every entity type.
 */
export class ViewIndexingStatus {
  constructor(private readonly deps: Deps) {}

  async status(project: ProjectRef, viewSegment: string, idSegment: string): Promise<IndexingStatus> {
    const view = this.deps.located(project, viewSegment);
    // Delta answers for indexing views only: an aggregate has no projection, a deprecated view is stopped.
    if (isAggregate(view.value.fields.type))
      throw viewRejections.differentType(view.id, view.value.fields.type, isSparqlFamily(view.value.fields.type) ? 'SparqlView' : 'ElasticSearchView');
    if (view.deprecated) throw viewRejections.isDeprecated(view.id);
    const id = resolveId(idSegment, this.deps.projects.fetch(project));
    const item = id === undefined ? undefined : await this.item(project, id);
    if (!item || id === undefined) throw viewRejections.resourceNotFound(idSegment, project);
    const { definition, listed, tags } = item;
    const isDefault = view.id === DEFAULT_ES_VIEW || view.id === DEFAULT_SPARQL_VIEW;
    // The default views index every item of the project; a user-defined one what its filters select.
    const selected = isDefault || selectedRev(view.value.fields.filters!, listed, tags) !== undefined;
    const position =
      view.id === DEFAULT_ES_VIEW
        ? this.deps.defaults.search()
        : view.id === DEFAULT_SPARQL_VIEW
          ? this.deps.defaults.sparql()
          : (this.deps.position(project, view.id) ?? 0);
    return statusOf(selected, this.deps.feed.after(position, Number.MAX_SAFE_INTEGER), (change) => {
      const state = change.next ?? change.previous;
      if (change.definition !== definition || state === undefined) return false;
      const of = definition.listed!(state);
      return of.project === project && of.id === id;
    });
  }

  /** The item of that `@id` in the project, of whichever kind holds it. */
  private async item(project: ProjectRef, id: string): Promise<{ definition: KindDefinition; listed: Listed; tags: Record<string, number> } | undefined> {
    const found = await this.deps.items.find(project, id);
    if (!found) return undefined;
    const { definition, state } = found;
    return { definition, listed: definition.listed!(state), tags: (state as { tags?: Record<string, number> }).tags ?? {} };
  }
}
