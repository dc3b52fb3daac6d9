import type { Caller } from '../kernel/Caller.js';
import type { ItemRef, ItemTarget } from '../kernel/ItemRef.js';
import type { JsonObject } from '../kernel/json.js';
import type { ProjectRef } from '../kernel/labels.js';
import type { ProjectState } from '../domain/projects/Project.js';
import { expandTerm } from '../domain/projects/apiMappings.js';
import type { Selector } from '../domain/resources/resourcePorts.js';
import type { VersionedDeps } from '../domain/VersionedItems.js';
import { VersionedItems } from '../domain/VersionedItems.js';
import { identityKey } from '../kernel/Identity.js';
import type { ResolverCommand, ResolverFields, ResolverState, ResolverValue } from './Resolver.js';
import { DEFAULT_RESOLVER, resolverDefinition } from './resolverDefinition.js';
import { resolverFields } from './resolverPayload.js';
import { resolverRejections } from './resolverRejections.js';

export type ResolverDeps = VersionedDeps<ResolverValue>;

/** Resolvers' lifecycle (Delta's resolvers API): create, update, tag, deprecate, fetch; the default one of each project. */
export class ResolverService {
  private readonly items: VersionedItems<ResolverValue, ResolverCommand>;

  constructor(private readonly deps: ResolverDeps) {
    this.items = new VersionedItems(resolverDefinition, deps);
  }

  async create(item: ItemTarget, payload: unknown, caller: Caller): Promise<ResolverState> {
    const ref = item.project;
    const { project, source, id } = this.items.incoming(item, payload);
    this.items.checkNew(ref, id);
    const fields = this.checked(project, id, source, caller);
    return this.items.run(undefined, { type: 'Create', ...this.items.target(ref, id, caller), fields, source });
  }

  /** Delta's `ResolverScopeInitialization`: `nxv:defaultInProject`, priority 1, with its configured name and description. */
  async createDefault(ref: ProjectRef, caller: Caller): Promise<void> {
    if (this.items.exists(ref, DEFAULT_RESOLVER)) return;
    const fields: ResolverFields = { type: 'InProject', priority: 1, name: 'Default resolver', description: 'Resolver created with the project' };
    const source = { '@id': DEFAULT_RESOLVER, '@type': 'InProject', priority: 1, name: fields.name, description: fields.description };
    await this.items.run(undefined, { type: 'Create', ...this.items.target(ref, DEFAULT_RESOLVER, caller), fields, source });
  }

  async update(item: ItemRef, rev: number, payload: unknown, caller: Caller): Promise<ResolverState> {
    const ref = item.project;
    const { project, source, id } = this.items.incoming(item, payload);
    const state = this.items.updatable(ref, id, rev);
    const fields = this.checked(project, id, source, caller);
    return this.items.run(state, { type: 'Update', ...this.items.target(ref, id, caller), rev, fields, source });
  }

  tag(item: ItemRef, rev: number, tag: string, targetRev: number, caller: Caller): Promise<ResolverState> {
    return this.items.tag(item, rev, tag, targetRev, caller);
  }

  deprecate(item: ItemRef, rev: number, caller: Caller): Promise<ResolverState> {
    return this.items.deprecate(item, rev, caller);
  }

  fetch(item: ItemRef, selector: Selector = {}): ResolverState {
    return this.items.fetch(item, selector);
  }

  /** The resolver a segment names where the path's item is another (a resolution through one resolver). */
  named(ref: ProjectRef, segment: string): ItemRef {
    return { project: ref, id: this.items.resolve(this.deps.projects.fetch(ref), segment) };
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
}
