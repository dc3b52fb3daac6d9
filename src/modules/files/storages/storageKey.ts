import type { ProjectRef } from '../../../kernel/labels.js';

/** The log key of a storage (org and project labels cannot contain '/', so the id is everything after them). */
export const storageKey = (ref: ProjectRef, id: string) => `storages/${ref}/${id}`;
