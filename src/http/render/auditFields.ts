import type { Addresses } from '../../kernel/Addresses.js';
import type { Audit } from '../../domain/Metadata.js';

/** The revision and audit metadata every kind renders (spec 2.3): `_rev`, `_deprecated`, who and when. */
export const auditFields = (s: Audit, at: Addresses) => ({
  _rev: s.rev,
  _deprecated: s.deprecated,
  _createdAt: s.createdAt,
  _createdBy: at.subject(s.createdBy),
  _updatedAt: s.updatedAt,
  _updatedBy: at.subject(s.updatedBy),
});
