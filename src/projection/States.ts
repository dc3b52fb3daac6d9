import type { KindDefinition } from '../domain/KindDefinition.js';
import type { ProjectRef } from '../kernel/labels.js';
import type { OrgState } from '../domain/orgs/Org.js';
import type { ProjectState } from '../domain/projects/Project.js';
import type { ResourceState } from '../domain/resources/Resource.js';

/**
 * The current state of every item, folded from the log, one map per registered kind held in
 * process; the write path evaluates commands against it. Kinds that grow with the data are not held
 * where the log keeps the states for every replica (`shared`): they are read through the
 * `ItemStates` port, and no replica holds a map of them.
 */
export class States {
  private readonly maps = new Map<KindDefinition, Map<string, unknown>>();

  constructor(
    readonly definitions: readonly KindDefinition[],
    /** Kinds whose states this process does not hold (read where the log keeps them). */
    readonly shared: ReadonlySet<string> = new Set(),
  ) {
    for (const definition of definitions) if (!shared.has(definition.kind)) this.maps.set(definition, new Map());
  }

  /** Whether this process holds the kind's states (else they are read through the `ItemStates` port). */
  holds(definition: KindDefinition): boolean {
    return this.maps.has(definition);
  }

  /** The states of one kind held here; a shared kind has none here, and asking for them is a fault. */
  of<S>(definition: KindDefinition<S>): Map<string, S> {
    const map = this.maps.get(definition as KindDefinition);
    if (!map) throw new Error(`kind '${definition.kind}' is ${this.shared.has(definition.kind) ? 'not held in process' : 'not registered'}`);
    return map as Map<string, S>;
  }

  /** How many states this process holds in its maps. */
  get size(): number {
    let count = 0;
    for (const map of this.maps.values()) count += map.size;
    return count;
  }

  /** The definition of a logged kind, when registered. */
  definitionOf(kind: string): KindDefinition | undefined {
    return this.definitions.find((d) => d.kind === kind);
  }

  /** Forgets every state (a restart that falls back to a full replay). */
  clear(): void {
    for (const map of this.maps.values()) map.clear();
  }

  /** The states held here, by kind (the shared kinds are not among them). */
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
