import { Rejection } from '../../kernel/Rejection.js';
import type { RejectionTypes } from '../../kernel/Rejection.js';

/** Views: the rejections they raise, with Delta 1.10's names and statuses (ElasticSearchViewRejection, BlazegraphViewRejection). */
export const viewRejections = {
  notFound: (id: string, project: string) => new Rejection('ViewNotFound', `View '${id}' not found in project '${project}'.`),
  alreadyExists: (id: string, project: string) => new Rejection('ResourceAlreadyExists', `Resource '${id}' already exists in project '${project}'.`),
  isDeprecated: (id: string) => new Rejection('ViewIsDeprecated', `View '${id}' is deprecated.`),
  isNotDeprecated: (id: string) => new Rejection('ViewIsNotDeprecated', `View '${id}' is not deprecated.`),
  isDefaultView: () => new Rejection('ViewIsDefaultView', 'Cannot perform write operations on the default views.'),
  differentType: (id: string, provided: string, expected: string) =>
    new Rejection('DifferentViewType', `Incorrect view '${id}' type: '${provided}' provided, expected '${expected}'.`, { provided, expected }),
  permissionIsNotDefined: (permission: string) =>
    new Rejection('PermissionIsNotDefined', `The provided permission '${permission}' is not defined in the collection of allowed permissions.`),
  invalidMapping: (details: string) =>
    new Rejection('InvalidElasticSearchIndexPayload', `The provided ElasticSearch mapping value is invalid: ${details}`, { details }),
  invalidViewReferences: (views: { project: string; viewId: string }[]) =>
    new Rejection('InvalidViewReferences', 'At least one view reference does not exist or is deprecated.', { views }),
  tooManyViewReferences: (provided: number, max: number) =>
    new Rejection('TooManyViewReferences', `${provided} exceeds the maximum allowed number of view references (${max}).`),
  /** Each query worker holds a copy of every SPARQL view (the embedded store): a project has at most so many (issue 32). */
  tooManySparqlViews: (project: string, limit: number) =>
    new Rejection(
      'TooManySparqlViews',
      `Project '${project}' already has ${limit} SparqlViews, the most a project may have: deprecate one, or select more with one view's filters.`,
      { limit },
    ),
  invalidId: (id: string) => new Rejection('InvalidViewId', `View identifier '${id}' cannot be expanded to an Iri.`),
  decodingFailed: (reason: string) => new Rejection('DecodingFailed', reason),
  resourceNotFound: (id: string, project: string) => new Rejection('ResourceNotFound', `Resource '${id}' not found in project '${project}'.`),
  wrongViewType: (id: string, expected: string) => new Rejection('ViewNotFound', `View '${id}' is not a view of type ${expected}.`),
};

/** Their HTTP statuses (Delta's): every type of the family has one, or this does not compile. */
export const viewStatuses = {
  ViewNotFound: 404,
  ResourceNotFound: 404,
  ResourceAlreadyExists: 409,
  ViewIsDeprecated: 400,
  ViewIsNotDeprecated: 400,
  ViewIsDefaultView: 403,
  DifferentViewType: 400,
  PermissionIsNotDefined: 400,
  InvalidElasticSearchIndexPayload: 400,
  InvalidViewReferences: 400,
  TooManyViewReferences: 400,
  TooManySparqlViews: 400,
  InvalidViewId: 400,
  DecodingFailed: 400,
} satisfies Record<RejectionTypes<typeof viewRejections>, number>;
