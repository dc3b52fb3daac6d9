import type { Caller } from '../../kernel/Caller.js';
import type { ItemRef, ItemTarget } from '../../kernel/ItemRef.js';
import type { SegmentRules } from '../../domain/projects/itemRefs.js';
import type { JsonObject } from '../../kernel/json.js';
import type { ProjectRef } from '../../kernel/labels.js';
import type { ProjectState } from '../../domain/projects/Project.js';
import { expandTerm, resolveId } from '../../domain/projects/apiMappings.js';
import type { Selector } from '../../domain/resources/resourcePorts.js';
import type { VersionedDeps, VersionedKind } from '../../domain/VersionedItems.js';
import { VersionedItems } from '../../domain/VersionedItems.js';
import type { ViewCommand, ViewFields, ViewState, ViewValue } from './View.js';
import { isAggregate, isSparqlFamily } from './View.js';
import { DEFAULT_ES_VIEW, DEFAULT_SPARQL_VIEW, isDefaultView, viewDefinition, viewKey } from './viewDefinition.js';
import { checkMapping } from './viewMapping.js';
import { viewFields } from './viewPayload.js';
import { viewRejections } from './viewRejections.js';

export interface ViewDeps extends VersionedDeps<ViewValue> {
  /** The permissions a view may require to be queried. */
  permissions(): readonly string[];
  /** Most SparqlViews (user-defined, not deprecated) one project may have; unbounded if absent. */
  sparqlViewsPerProject?: number;
}

/** How views are named in paths: `graph` is the default SPARQL view. */
export const VIEW_SEGMENTS: SegmentRules = {
  invalidId: viewDefinition.invalidId,
  alias: (segment) => (segment === 'graph' ? DEFAULT_SPARQL_VIEW : undefined),
};
const viewKind: VersionedKind<ViewValue, ViewCommand> = { ...viewDefinition, alias: VIEW_SEGMENTS.alias! };

const notDefault = ({ id }: { id: string }): void => {
  if (isDefaultView(id)) throw viewRejections.isDefaultView();
};

/** Views' lifecycle (Delta's views API): create, update, tag, deprecate, undeprecate, fetch; the default views of each project. */
export class ViewService {
  private readonly items: VersionedItems<ViewValue, ViewCommand>;

  constructor(private readonly deps: ViewDeps) {
    this.items = new VersionedItems(viewKind, deps);
  }

  async create(item: ItemTarget, payload: unknown, caller: Caller): Promise<ViewState> {
    const ref = item.project;
    const { project, source, id } = this.items.incoming(item, payload);
    this.items.checkNew(ref, id);
    const fields = this.checked(project, source);
    if (fields.type === 'SparqlView') this.roomForSparqlView(ref);
    return this.items.run(undefined, { type: 'Create', ...this.items.target(ref, id, caller), fields, source });
  }

  /** Delta's scope initialisations: the default Elasticsearch view and the default SPARQL view, everything but deprecated items, with metadata. */
  async createDefaults(ref: ProjectRef, caller: Caller): Promise<void> {
    const filters = { resourceSchemas: [], resourceTypes: [], includeMetadata: true, includeDeprecated: true, permission: 'views/query' };
    const defaults: [string, ViewFields][] = [
      [
        DEFAULT_ES_VIEW,
        { type: 'ElasticSearchView', name: 'Default Elasticsearch view', description: 'An Elasticsearch view of all resources in the project.', filters },
      ],
      [DEFAULT_SPARQL_VIEW, { type: 'SparqlView', name: 'Default Sparql view', description: 'A Sparql view of all resources in the project.', filters }],
    ];
    for (const [id, fields] of defaults) {
      if (this.items.exists(ref, id)) continue;
      const source: JsonObject = { '@id': id, '@type': fields.type, name: fields.name!, description: fields.description!, ...filters };
      await this.items.run(undefined, { type: 'Create', ...this.items.target(ref, id, caller), fields, source });
    }
  }

  async update(item: ItemRef, rev: number, payload: unknown, caller: Caller): Promise<ViewState> {
    const ref = item.project;
    const { project, source, id } = this.items.incoming(item, payload);
    notDefault({ id });
    const state = this.items.updatable(ref, id, rev);
    const fields = this.checked(project, source);
    return this.items.run(state, { type: 'Update', ...this.items.target(ref, id, caller), rev, fields, source });
  }

  /** The default views may be tagged, never deprecated nor undeprecated. */
  tag(item: ItemRef, rev: number, tag: string, targetRev: number, caller: Caller): Promise<ViewState> {
    return this.items.tag(item, rev, tag, targetRev, caller);
  }

  deprecate(item: ItemRef, rev: number, caller: Caller): Promise<ViewState> {
    return this.items.change(item, caller, (target) => ({ type: 'Deprecate', ...target, rev }), notDefault);
  }

  undeprecate(item: ItemRef, rev: number, caller: Caller): Promise<ViewState> {
    const ref = item.project;
    return this.items.change(
      item,
      caller,
      (target) => ({ type: 'Undeprecate', ...target, rev }),
      (state) => {
        notDefault(state);
        if (state.deprecated && state.value.fields.type === 'SparqlView') this.roomForSparqlView(ref);
      },
    );
  }

  fetch(item: ItemRef, selector: Selector = {}): ViewState {
    return this.items.fetch(item, selector);
  }

  /** The view with that id (`graph` naming the default SPARQL view), current state, without the project's checks of a write. */
  find(ref: ProjectRef, id: string): ViewState | undefined {
    return this.deps.states.get(viewKey(ref, id));
  }

  all(): Iterable<ViewState> {
    return this.deps.states.values();
  }

  /** Refuses a SparqlView more in a project that has its share (the embedded store copies each into every query worker). */
  private roomForSparqlView(ref: ProjectRef): void {
    const limit = this.deps.sparqlViewsPerProject;
    if (limit === undefined) return;
    let count = 0;
    for (const view of this.deps.states.values())
      if (view.project === ref && !view.deprecated && view.value.fields.type === 'SparqlView' && !isDefaultView(view.id)) count++;
    if (count >= limit) throw viewRejections.tooManySparqlViews(ref, limit);
  }

  private checked(project: ProjectState, source: JsonObject): ViewFields {
    const fields = viewFields(source, (value) => expandTerm(value, project));
    if (fields.filters && !this.deps.permissions().includes(fields.filters.permission)) throw viewRejections.permissionIsNotDefined(fields.filters.permission);
    checkMapping(fields.mapping);
    if (fields.views) {
      const missing = fields.views.filter((v) => {
        const target = this.deps.states.get(viewKey(v.project, this.memberId(v.project, v.viewId)));
        return !target || target.deprecated || isSparqlFamily(target.value.fields.type) !== isSparqlFamily(fields.type);
      });
      if (missing.length) throw viewRejections.invalidViewReferences(missing);
    }
    return fields;
  }

  /** An aggregate's member id, expanded with its own project's mappings. */
  memberId(project: ProjectRef, viewId: string): string {
    try {
      return resolveId(viewId, this.deps.projects.fetch(project)) ?? viewId;
    } catch {
      // A project that does not exist (any more): the reference names nothing.
      return viewId;
    }
  }

  /** Whether the view is queried through its members. */
  static aggregate(s: ViewState): boolean {
    return isAggregate(s.value.fields.type);
  }

  /** The view named; a write needs its project active. */
  located(item: ItemRef, write: boolean): ViewState {
    return this.items.located(item, write);
  }

  /** The view a segment names where no route resolved it (the SPARQL endpoint's, the indexing status'): `graph` is the default SPARQL view. */
  named(ref: ProjectRef, segment: string): ItemRef {
    return { project: ref, id: this.items.resolve(this.deps.projects.fetch(ref), segment) };
  }
}
