/**
 * Who did something. Kept as the address path below `/v1/` ("anonymous" or
 * "realms/{realm}/users/{subject}") so stored events do not depend on the configured base URL.
 */
export type SubjectPath = string;

export const anonymous: SubjectPath = 'anonymous';
