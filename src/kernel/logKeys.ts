import type { ProjectRef } from './labels.js';

/** Log keys: org and project labels cannot contain '/', so the id is everything after the project. */
export const orgKey = (org: string) => `orgs/${org}`;
export const projectKey = (ref: ProjectRef) => `projects/${ref}`;
export const resourceKey = (ref: ProjectRef, id: string) => `resources/${ref}/${id}`;
export const schemaKey = (ref: ProjectRef, id: string) => `schemas/${ref}/${id}`;
export const realmKey = (label: string) => `realms/${label}`;
export const aclKey = (path: string) => `acls${path === '/' ? '' : path}`;
export const PERMISSIONS_KEY = 'permissions';
