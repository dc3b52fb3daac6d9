import type { Caller } from '../../kernel/Caller.js';
import type { Clock } from '../../kernel/Clock.js';
import type { JsonObject } from '../../kernel/json.js';
import type { ProjectRef } from '../../kernel/labels.js';
import type { Lifecycle } from '../../domain/Lifecycle.js';
import { rejections } from '../../domain/rejections.js';
import type { ProjectService } from '../../domain/projects/ProjectService.js';
import type { ProjectState } from '../../domain/projects/Project.js';
import { expandTerm, resolveId } from '../../domain/projects/apiMappings.js';
import type { Selector } from '../../domain/resources/ResourceService.js';
import { atRevision } from '../../domain/versioned.js';
import type { ViewCommand, ViewFields, ViewState } from './View.js';
import { isAggregate, isSparqlFamily } from './View.js';
import { DEFAULT_ES_VIEW, DEFAULT_SPARQL_VIEW, isDefaultView, viewDefinition, viewKey } from './viewDefinition.js';
import { checkMapping } from './viewMapping.js';
import { viewFields } from './viewPayload.js';
import { viewRejections } from './viewRejections.js';
import { itemId } from '../../domain/itemId.js';

export interface ViewDeps {
  states: ReadonlyMap<string, ViewState>;
  projects: ProjectService;
  lifecycle: Lifecycle;
  clock: Clock;
  /** The permissions a view may require to be queried. */
  permissions(): readonly string[];
}

/** Views' lifecycle (Delta's views API): create, update, tag, deprecate, undeprecate, fetch; the default views of each project. */
export class ViewService {
  constructor(private readonly deps: ViewDeps) {}

  async create(ref: ProjectRef, idSegment: string | undefined, payload: unknown, caller: Caller): Promise<ViewState> {
    const project = this.deps.projects.active(ref);
    const source = objectPayload(payload);
    const id = this.idOf(project, idSegment, source);
    if (this.deps.states.has(viewKey(ref, id))) throw viewRejections.alreadyExists(id, ref);
    const fields = this.checked(project, source);
    return this.run(undefined, { type: 'Create', ...this.target(ref, id, caller), fields, source });
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
      if (this.deps.states.has(viewKey(ref, id))) continue;
      const source: JsonObject = { '@id': id, '@type': fields.type, name: fields.name!, description: fields.description!, ...filters };
      await this.run(undefined, { type: 'Create', ...this.target(ref, id, caller), fields, source });
    }
  }

  async update(ref: ProjectRef, idSegment: string, rev: number, payload: unknown, caller: Caller): Promise<ViewState> {
    const project = this.deps.projects.active(ref);
    const source = objectPayload(payload);
    const id = this.idOf(project, idSegment, source);
    if (isDefaultView(id)) throw viewRejections.isDefaultView();
    const state = this.current(ref, id);
    if (rev !== state.rev) throw rejections.incorrectRev(rev, state.rev);
    if (state.deprecated) throw viewRejections.isDeprecated(id);
    const fields = this.checked(project, source);
    return this.run(state, { type: 'Update', ...this.target(ref, id, caller), rev, fields, source });
  }

  async tag(ref: ProjectRef, idSegment: string, rev: number, tag: string, targetRev: number, caller: Caller): Promise<ViewState> {
    const state = this.located(ref, idSegment, true);
    return this.run(state, { type: 'Tag', ...this.target(ref, state.id, caller), rev, tag, targetRev });
  }

  async deprecate(ref: ProjectRef, idSegment: string, rev: number, caller: Caller): Promise<ViewState> {
    const state = this.located(ref, idSegment, true);
    if (isDefaultView(state.id)) throw viewRejections.isDefaultView();
    return this.run(state, { type: 'Deprecate', ...this.target(ref, state.id, caller), rev });
  }

  async undeprecate(ref: ProjectRef, idSegment: string, rev: number, caller: Caller): Promise<ViewState> {
    const state = this.located(ref, idSegment, true);
    if (isDefaultView(state.id)) throw viewRejections.isDefaultView();
    return this.run(state, { type: 'Undeprecate', ...this.target(ref, state.id, caller), rev });
  }

  fetch(ref: ProjectRef, idSegment: string, selector: Selector = {}): ViewState {
    const state = this.located(ref, idSegment, false);
    const rev = selector.tag === undefined ? (selector.rev ?? state.rev) : state.tags[selector.tag];
    if (rev === undefined) throw rejections.tagNotFound(selector.tag!);
    const at = atRevision(state, rev);
    if (!at) throw rejections.revisionNotFound(rev, state.rev);
    return at;
  }

  /** The view with that id (`graph` naming the default SPARQL view), current state, without the project's checks of a write. */
  find(ref: ProjectRef, id: string): ViewState | undefined {
    return this.deps.states.get(viewKey(ref, id));
  }

  all(): Iterable<ViewState> {
    return this.deps.states.values();
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

  private target(ref: ProjectRef, id: string, caller: Caller) {
    return { id, project: ref, instant: this.deps.clock.now(), subject: caller.subject };
  }

  private idOf(project: ProjectState, segment: string | undefined, source: JsonObject): string {
    return itemId(project, segment, source, viewRejections.invalidViewId, () => this.deps.clock.uuid());
  }

  private current(ref: ProjectRef, id: string): ViewState {
    const state = this.deps.states.get(viewKey(ref, id));
    if (!state) throw viewRejections.notFound(id, ref);
    return state;
  }

  /** The view a path segment names (`graph` is the default SPARQL view's alias). */
  located(ref: ProjectRef, idSegment: string, write: boolean): ViewState {
    const project = write ? this.deps.projects.active(ref) : this.deps.projects.fetch(ref);
    const id = idSegment === 'graph' ? DEFAULT_SPARQL_VIEW : resolveId(idSegment, project);
    if (id === undefined) throw viewRejections.invalidViewId(idSegment);
    return this.current(ref, id);
  }

  private async run(state: ViewState | undefined, cmd: ViewCommand): Promise<ViewState> {
    const [org] = cmd.project.split('/');
    await this.deps.lifecycle.run(viewDefinition, state, cmd, { key: viewKey(cmd.project, cmd.id), org: org!, project: cmd.project });
    return this.current(cmd.project, cmd.id);
  }
}

const objectPayload = (payload: unknown): JsonObject => {
  if (!payload || typeof payload !== 'object' || Array.isArray(payload)) throw rejections.malformedContent('A view payload must be a JSON object.');
  return payload as JsonObject;
};
