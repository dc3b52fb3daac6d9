import { Rejection } from '../../kernel/Rejection.js';
import type { RejectionTypes } from '../../kernel/Rejection.js';

/** Projects: the rejections they raise, named as existing clients expect them (wire-format.md). */
export const projectRejections = {
  projectNotFound: (ref: string) => new Rejection('ProjectNotFound', `Project '${ref}' not found.`),
  projectAlreadyExists: (ref: string) => new Rejection('ProjectAlreadyExists', `Project '${ref}' already exists.`),
  projectIsDeprecated: (ref: string) => new Rejection('ProjectIsDeprecated', `Project '${ref}' is deprecated.`),
};

/** Their HTTP statuses: every type of the family has one, or this does not compile. */
export const projectStatuses = {
  ProjectNotFound: 404,
  ProjectAlreadyExists: 409,
  ProjectIsDeprecated: 400,
} satisfies Record<RejectionTypes<typeof projectRejections>, number>;
