import type { ProjectRef } from '../../kernel/labels.js';
import type { ResourceState } from './Resource.js';
import type { JsonObject } from './ResourceEvent.js';

/** Fetch selectors: at most one of `rev` and `tag`. */
export interface Selector {
  rev?: number;
  tag?: string;
}

/** The latest states of one kind (resources, or schemas), wherever they are kept: in process, or shared by the log. */
export interface ResourceStates {
  get(key: string): Promise<ResourceState | undefined>;
  getMany(keys: readonly string[]): Promise<(ResourceState | undefined)[]>;
}

/** Refuses writes before the embedded store reaches its capacity. */
export type CapacityGuard = () => Promise<void>;

/** Checks a write must pass before its event is appended, so that whatever the log holds can be projected. */
export interface WriteGuards {
  /** Rejects an expanded payload the triple store could not keep as a revision graph. */
  storable(expanded: JsonObject[]): Promise<void>;
  /** Whether an item of another kind (or a reserved one) has this id in the project: ids are unique across kinds. */
  takenElsewhere(project: ProjectRef, id: string): Promise<boolean>;
}
