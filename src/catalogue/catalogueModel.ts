import type { ProjectRef } from '../kernel/labels.js';
import type { Binding } from '../store/GraphStore.js';

/** The read model's rows: what listings and link queries answer with. */
export interface ItemRef {
  project: ProjectRef;
  id: string;
}

export interface ListedItem extends ItemRef {
  /** The sort values of this row followed by its item node: the `after` cursor of the next page. */
  cursor: Binding[];
}

export interface Bucket {
  key: string;
  count: number;
}

export interface LinkRow extends ItemRef {
  paths: string[];
}

export interface OutgoingRow {
  target: string;
  paths: string[];
}
