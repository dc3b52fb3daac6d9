import type { ProjectRef } from '../../../kernel/labels.js';

/** The log key of a file (org and project labels cannot contain '/', so the id is everything after them). */
export const fileKey = (ref: ProjectRef, id: string) => `files/${ref}/${id}`;
