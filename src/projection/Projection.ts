import type { KindDefinition } from '../domain/KindDefinition.js';
import type { LogEvent } from '../events/EventLog.js';

/** One logged event as the projector folded it: the item's state before and after. */
export interface Change {
  readonly definition: KindDefinition;
  readonly logged: LogEvent;
  readonly previous: unknown;
  /** Undefined: the item was permanently deleted. */
  readonly next: unknown;
  /** N-Triples of the revision the event made, derived by the revision projection before the change is handed on. */
  readonly triples?: string;
}

/**
 * A read model kept up to date in log order by a runner of its own (`ProjectionRuntime`), from the
 * changes the states' fold hands on with what the revision projection derived.
 */
export interface Projection {
  apply(change: Change): Promise<void>;
  /** Restart: rebuild what is not persisted from the states restored at `position`. */
  restore?(states: ReadonlyMap<KindDefinition, ReadonlyMap<string, unknown>>, position: number): Promise<void>;
}
