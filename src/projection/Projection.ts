import type { KindDefinition } from '../domain/KindDefinition.js';
import type { LogEvent } from '../events/EventLog.js';

/** One logged event as the projector folded it: the item's state before and after. */
export interface Change {
  definition: KindDefinition;
  logged: LogEvent;
  previous: unknown;
  /** Undefined: the item was permanently deleted. */
  next: unknown;
  /** N-Triples of the revision the event made, once the revision projection has written it. */
  triples?: string;
}

/**
 * A read model the projector keeps up to date, in log order. The projector calls every projection
 * for every change, in the order they were given (the revision projection first: later ones read
 * the triples it derives).
 */
export interface Projection {
  apply(change: Change): Promise<void>;
  /** Restart: rebuild what is not persisted from the restored states. */
  restore?(states: ReadonlyMap<KindDefinition, ReadonlyMap<string, unknown>>): Promise<void>;
}
