import type { ProjectRef } from './labels.js';

/**
 * What a caller may see of a multi-project read (listings, aggregations, org and global streams).
 * It is a required value pushed into the query, so a listing cannot forget it and fail open.
 */
export type ProjectAccess =
  | { mode: 'all' }
  /** `orgs`: organizations where the permission holds on the organization itself (or above). */
  | { mode: 'limited'; orgs: readonly string[]; projects: readonly ProjectRef[] };
