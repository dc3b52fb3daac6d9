import type { ProjectRef } from '../kernel/labels.js';
import type { SearchResponse } from './dsl/executeSearch.js';
import type { SearchDoc } from './dsl/fields.js';
import type { Turn } from '../workers/CpuTurns.js';

/**
 * What runs a search body over the current documents of some projects: in process over the text
 * index's documents (the embedded default), or translated into SPARQL on the external store.
 */
export interface SearchEngine {
  /** The response, and each hit's document (its project and `@id`), in the same order. */
  search(body: unknown, projects: readonly ProjectRef[], turn?: Turn): Promise<{ response: SearchResponse; hitDocuments: SearchDoc[] }>;
  /** Whether it runs on the event loop (then in the turns searches share). */
  readonly inProcess: boolean;
}
