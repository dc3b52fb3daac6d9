import type { ProjectRef } from '../../domain/labels.js';

/** An id as ONE path segment: `/` becomes `%2F`, `%` becomes `%25` (what clients' encodeURIComponent sends). */
export const idSegment = (id: string): string => encodeURIComponent(id);

export const resourceSelf = (base: string, project: ProjectRef, id: string): string => `${base}/v1/resources/${project}/_/${idSegment(id)}`;
export const schemaSelf = (base: string, project: ProjectRef, id: string): string => `${base}/v1/schemas/${project}/${idSegment(id)}`;
export const orgSelf = (base: string, org: string): string => `${base}/v1/orgs/${org}`;
export const projectSelf = (base: string, project: ProjectRef): string => `${base}/v1/projects/${project}`;
export const subjectIri = (base: string, subjectPath: string): string => `${base}/v1/${subjectPath}`;
