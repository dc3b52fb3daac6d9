import { Rejection } from '../../kernel/Rejection.js';
import type { RejectionTypes } from '../../kernel/Rejection.js';

/** Graph analytics: what it refuses besides the project and SPARQL rejections it shares (Delta's GraphAnalyticsRejection). */
export const graphAnalyticsRejections = {
  invalidPropertyType: (id: string) => new Rejection('InvalidPropertyType', `Property type '${id}' cannot be expanded to an Iri.`),
};

export const graphAnalyticsStatuses = {
  InvalidPropertyType: 400,
} satisfies Record<RejectionTypes<typeof graphAnalyticsRejections>, number>;
