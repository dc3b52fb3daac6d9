import { Rejection } from '../../kernel/Rejection.js';
import type { RejectionTypes } from '../../kernel/Rejection.js';

/** History and diffs: what they refuse besides the item rejections they share with fetches. */
export const historyRejections = {
  /** `left`/`right` of `/v1/diff` must be a resource's or a schema's `_self` of this service. */
  invalidSelf: (name: string, value: string) =>
    new Rejection('InvalidResourceSelf', `Query parameter '${name}' must be the '_self' of a resource or a schema of this service, got '${value}'.`),
};

export const historyStatuses = {
  InvalidResourceSelf: 400,
} satisfies Record<RejectionTypes<typeof historyRejections>, number>;
