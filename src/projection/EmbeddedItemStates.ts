import type { Kind } from '../events/EventLog.js';
import type { ItemStates } from '../events/ItemStates.js';
import type { States } from './States.js';

/** The embedded layout's item states: those this process folds from its own log (the projector's), behind the shared layout's port. */
export class EmbeddedItemStates implements ItemStates {
  constructor(private readonly states: States) {}

  async get<S>(kind: Kind, key: string): Promise<S | undefined> {
    return this.one<S>(kind, key);
  }

  async getMany<S>(kind: Kind, keys: readonly string[]): Promise<(S | undefined)[]> {
    return this.now<S>(kind, keys);
  }

  /** The states as this process's fold holds them now. */
  now<S>(kind: Kind, keys: readonly string[]): (S | undefined)[] {
    return keys.map((key) => this.one<S>(kind, key));
  }

  async keysOf(kind: Kind, project: string): Promise<string[]> {
    const definition = this.states.definitionOf(kind);
    if (!definition) return [];
    const prefix = `${kind}/${project}/`;
    return [...this.states.of(definition).keys()].filter((key) => key.startsWith(prefix));
  }

  held(): number {
    let count = 0;
    for (const map of this.states.all().values()) count += map.size;
    return count;
  }

  private one<S>(kind: Kind, key: string): S | undefined {
    const definition = this.states.definitionOf(kind);
    return definition && (this.states.of(definition).get(key) as S | undefined);
  }
}
