import { Rejection } from '../../kernel/Rejection.js';
import type { RejectionTypes } from '../../kernel/Rejection.js';

/** Organizations: the rejections they raise, named as existing clients expect them (wire-format.md). */
export const orgRejections = {
  organizationNotFound: (label: string) => new Rejection('OrganizationNotFound', `Organization '${label}' not found.`),
  organizationAlreadyExists: (label: string) => new Rejection('OrganizationAlreadyExists', `Organization '${label}' already exists.`),
  organizationIsDeprecated: (label: string) => new Rejection('OrganizationIsDeprecated', `Organization '${label}' is deprecated.`),
};

/** Their HTTP statuses: every type of the family has one, or this does not compile. */
export const orgStatuses = {
  OrganizationNotFound: 404,
  OrganizationAlreadyExists: 409,
  OrganizationIsDeprecated: 400,
} satisfies Record<RejectionTypes<typeof orgRejections>, number>;
