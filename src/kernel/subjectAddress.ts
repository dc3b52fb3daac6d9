import type { SubjectPath } from '../domain/Subject.js';

/** The address of a subject: `{base}/v1/anonymous` or `{base}/v1/realms/{realm}/users/{subject}`. */
export const subjectAddress = (baseUrl: string, subject: SubjectPath): string => `${baseUrl}/v1/${subject}`;
