import type { ProjectRef } from './labels.js';

/**
 * What a caller may see of a multi-project read (listings, aggregations, org and global streams).
 * It is a required value pushed into the query, so a listing cannot forget it and fail open.
 */
export type ProjectAccess =
  | { mode: 'all' }
  /** `orgs`: organizations where the permission holds on the organization itself (or above). */
  | { mode: 'limited'; orgs: readonly string[]; projects: readonly ProjectRef[] };

/** Whether the caller may read the organization itself (its own record, its org-wide streams). */
export const mayReadOrg = (access: ProjectAccess, org: string): boolean => access.mode === 'all' || access.orgs.includes(org);

/**
 * Whether the caller may read a project: every multi-project read (listings, searches, multi-fetch,
 * the projects listed) narrows its scope with this one predicate. A grant on the organization admits
 * all its projects, including ones created later.
 */
export const mayReadProject = (access: ProjectAccess, project: ProjectRef): boolean =>
  access.mode === 'all' || access.projects.includes(project) || access.orgs.includes(project.split('/')[0]!);
