import type { KindDefinition } from '../domain/KindDefinition.js';
import type { ProjectRef } from '../kernel/labels.js';
import type { OrgState } from '../domain/orgs/Org.js';
import type { ProjectState } from '../domain/projects/Project.js';
import type { ResourceState } from '../domain/resources/Resource.js';

/**
 * The current state of every item, folded from the log, one map per registered kind; the write
 * path evaluates commands against it.
 */
export class States {
  private readonly maps = new Map<KindDefinition, Map<string, unknown>>();

  constructor(readonly definitions: readonly KindDefinition[]) {
    for (const definition of definitions) this.maps.set(definition, new Map());
  }

  /** The states of one kind. */
  of<S>(definition: KindDefinition<S>): Map<string, S> {
    const map = this.maps.get(definition as KindDefinition);
    if (!map) throw new Error(`kind '${definition.kind}' is not registered`);
    return map as Map<string, S>;
  }

  /** The definition of a logged kind, when registered. */
  definitionOf(kind: string): KindDefinition | undefined {
    return this.definitions.find((d) => d.kind === kind);
  }

  /** Forgets every state (a restart that falls back to a full replay). */
  clear(): void {
    for (const map of this.maps.values()) map.clear();
  }

  all(): ReadonlyMap<KindDefinition, ReadonlyMap<string, unknown>> {
    return this.maps;
  }
}

/** The states of the kinds the services use, by name. */
export interface KindStates {
  orgs: Map<string, OrgState>;
  projects: Map<ProjectRef, ProjectState>;
  resources: Map<string, ResourceState>;
  /** Schemas share the resource lifecycle, hence its state. */
  schemas: Map<string, ResourceState>;
}
