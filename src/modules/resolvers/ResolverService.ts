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
import { identityKey } from '../../auth/Identity.js';
import type { ResolverCommand, ResolverFields, ResolverState } from './Resolver.js';
import { DEFAULT_RESOLVER, resolverDefinition, resolverKey } from './resolverDefinition.js';
import { resolverFields } from './resolverPayload.js';
import { resolverRejections } from './resolverRejections.js';
import { itemId } from '../../domain/itemId.js';

export interface ResolverDeps {
  states: ReadonlyMap<string, ResolverState>;
  projects: ProjectService;
  lifecycle: Lifecycle;
  clock: Clock;
}

/** Resolvers' lifecycle (Delta's resolvers API): create, update, tag, deprecate, fetch; the default one of each project. */
export class ResolverService {
  constructor(private readonly deps: ResolverDeps) {}

  async create(ref: ProjectRef, idSegment: string | undefined, payload: unknown, caller: Caller): Promise<ResolverState> {
    const project = this.deps.projects.active(ref);
    const source = objectPayload(payload);
    const id = this.idOf(project, idSegment, source);
    if (this.deps.states.has(resolverKey(ref, id))) throw resolverRejections.alreadyExists(id, ref);
    const fields = this.checked(project, id, source, caller);
    return this.run(undefined, { type: 'Create', ...this.target(ref, id, caller), fields, source });
  }

  /** Delta's `ResolverScopeInitialization`: `nxv:defaultInProject`, priority 1, with its configured name and description. */
  async createDefault(ref: ProjectRef, caller: Caller): Promise<void> {
    if (this.deps.states.has(resolverKey(ref, DEFAULT_RESOLVER))) return;
    const fields: ResolverFields = { type: 'InProject', priority: 1, name: 'Default resolver', description: 'Resolver created with the project' };
    const source = { '@id': DEFAULT_RESOLVER, '@type': 'InProject', priority: 1, name: fields.name, description: fields.description };
    await this.run(undefined, { type: 'Create', ...this.target(ref, DEFAULT_RESOLVER, caller), fields, source });
  }

  async update(ref: ProjectRef, idSegment: string, rev: number, payload: unknown, caller: Caller): Promise<ResolverState> {
    const project = this.deps.projects.active(ref);
    const source = objectPayload(payload);
    const id = this.idOf(project, idSegment, source);
    const state = this.current(ref, id);
    if (rev !== state.rev) throw rejections.incorrectRev(rev, state.rev);
    if (state.deprecated) throw resolverRejections.isDeprecated(id);
    const fields = this.checked(project, id, source, caller);
    return this.run(state, { type: 'Update', ...this.target(ref, id, caller), rev, fields, source });
  }

  async tag(ref: ProjectRef, idSegment: string, rev: number, tag: string, targetRev: number, caller: Caller): Promise<ResolverState> {
    const state = this.located(ref, idSegment, true);
    return this.run(state, { type: 'Tag', ...this.target(ref, state.id, caller), rev, tag, targetRev });
  }

  async deprecate(ref: ProjectRef, idSegment: string, rev: number, caller: Caller): Promise<ResolverState> {
    const state = this.located(ref, idSegment, true);
    return this.run(state, { type: 'Deprecate', ...this.target(ref, state.id, caller), rev });
  }

  fetch(ref: ProjectRef, idSegment: string, selector: Selector = {}): ResolverState {
    const state = this.located(ref, idSegment, false);
    const rev = selector.tag === undefined ? (selector.rev ?? state.rev) : state.tags[selector.tag];
    if (rev === undefined) throw rejections.tagNotFound(selector.tag!);
    const at = atRevision(state, rev);
    if (!at) throw rejections.revisionNotFound(rev, state.rev);
    return at;
  }

  /** The project's resolvers that take part in resolution: not deprecated, by priority. */
  active(ref: ProjectRef): ResolverState[] {
    return [...this.deps.states.values()].filter((s) => s.project === ref && !s.deprecated).sort((a, b) => a.value.fields.priority - b.value.fields.priority);
  }

  /** The payload's checks beyond its shape: unique priority, identities the caller holds (Delta's `validateResolverValue`). */
  private checked(project: ProjectState, id: string, source: JsonObject, caller: Caller): ResolverFields {
    const fields = resolverFields(source, (value) => expandTerm(value, project));
    const ref = `${project.org}/${project.label}`;
    const taken = this.active(ref).find((s) => s.id !== id && s.value.fields.priority === fields.priority);
    if (taken) throw resolverRejections.priorityAlreadyExists(ref, taken.id, fields.priority);
    const resolution = fields.identityResolution;
    if (resolution && 'identities' in resolution) {
      if (resolution.identities.length === 0) throw resolverRejections.noIdentities();
      const held = new Set(caller.identities.map(identityKey));
      const missing = resolution.identities.filter((i) => !held.has(identityKey(i)));
      if (missing.length) throw resolverRejections.invalidIdentities(missing.map(identityKey));
    }
    return fields;
  }

  private target(ref: ProjectRef, id: string, caller: Caller) {
    return { id, project: ref, instant: this.deps.clock.now(), subject: caller.subject };
  }

  private idOf(project: ProjectState, segment: string | undefined, source: JsonObject): string {
    return itemId(project, segment, source, resolverRejections.invalidResolverId, () => this.deps.clock.uuid());
  }

  private current(ref: ProjectRef, id: string): ResolverState {
    const state = this.deps.states.get(resolverKey(ref, id));
    if (!state) throw resolverRejections.notFound(id, ref);
    return state;
  }

  private located(ref: ProjectRef, idSegment: string, write: boolean): ResolverState {
    const project = write ? this.deps.projects.active(ref) : this.deps.projects.fetch(ref);
    const id = resolveId(idSegment, project);
    if (id === undefined) throw resolverRejections.invalidResolverId(idSegment);
    return this.current(ref, id);
  }

  private async run(state: ResolverState | undefined, cmd: ResolverCommand): Promise<ResolverState> {
    const [org] = cmd.project.split('/');
    await this.deps.lifecycle.run(resolverDefinition, state, cmd, { key: resolverKey(cmd.project, cmd.id), org: org!, project: cmd.project });
    return this.current(cmd.project, cmd.id);
  }
}

const objectPayload = (payload: unknown): JsonObject => {
  if (!payload || typeof payload !== 'object' || Array.isArray(payload)) throw rejections.malformedContent('A resolver payload must be a JSON object.');
  return payload as JsonObject;
};
