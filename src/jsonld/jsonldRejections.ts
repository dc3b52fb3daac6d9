import { Rejection } from '../kernel/Rejection.js';
import type { RejectionTypes } from '../kernel/Rejection.js';

/** Reading a payload as JSON-LD: the rejections it raises, named as existing clients expect them (wire-format.md). */
export const jsonldRejections = {
  unexpectedId: (id: string, payloadId: string) => new Rejection('UnexpectedId', `Id '${id}' does not match the payload id '${payloadId}'.`),
  invalidJsonLd: (details: string) => new Rejection('InvalidJsonLdFormat', `The provided payload could not be read as JSON-LD: ${details}`, { details }),
};

/** Their HTTP statuses: every type of the family has one, or this does not compile. */
export const jsonldStatuses = {
  UnexpectedId: 400,
  InvalidJsonLdFormat: 400,
} satisfies Record<RejectionTypes<typeof jsonldRejections>, number>;
