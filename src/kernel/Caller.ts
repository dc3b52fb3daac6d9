import type { SubjectPath } from './Subject.js';
import { anonymous } from './Subject.js';

/** An identity a caller holds; ACLs grant permissions to identities (wire-iam.md, "Identities"). */
export type Identity =
  | { type: 'Anonymous' }
  | { type: 'Authenticated'; realm: string }
  | { type: 'User'; realm: string; subject: string }
  | { type: 'Group'; realm: string; group: string };

/** Who is calling: resolved once per request, before any route runs, and handed to every service. */
export interface Caller {
  /** Recorded as `_createdBy`/`_updatedBy`/`_subject`. */
  subject: SubjectPath;
  identities: readonly Identity[];
}

export const anonymousCaller: Caller = { subject: anonymous, identities: [{ type: 'Anonymous' }] };
