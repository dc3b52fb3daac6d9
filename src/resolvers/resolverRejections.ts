import { Rejection } from '../kernel/Rejection.js';
import type { RejectionTypes } from '../kernel/Rejection.js';

/** Resolvers: the rejections they raise, with Delta 1.10's names, reasons and statuses (ResolverRejection.scala). */
export const resolverRejections = {
  /** Delta renders `ResolverNotFound` with the type `ResourceNotFound`. */
  notFound: (id: string, project: string) => new Rejection('ResourceNotFound', `Resolver '${id}' not found in project '${project}'.`),
  alreadyExists: (id: string, project: string) => new Rejection('ResourceAlreadyExists', `Resource '${id}' already exists in project '${project}'.`),
  isDeprecated: (id: string) => new Rejection('ResolverIsDeprecated', `Resolver '${id}' is deprecated.`),
  differentType: (id: string, found: string, expected: string) =>
    new Rejection('DifferentResolverType', `Resolver '${id}' is of type '${expected}' and can't be updated to be a '${found}' .`),
  priorityAlreadyExists: (project: string, id: string, priority: number) =>
    new Rejection('PriorityAlreadyExists', `Resolver '${id}' in project '${project}' already has the provided priority '${priority}'.`),
  noIdentities: () => new Rejection('NoIdentities', 'At least one identity of the caller must be provided.'),
  invalidIdentities: (missing: string[]) => new Rejection('InvalidIdentities', `The caller doesn't have some of the provided identities: ${missing.join(',')}`),
  invalidId: (id: string) => new Rejection('InvalidResolverId', `Resolver identifier '${id}' cannot be expanded to an Iri.`),
  invalidResolvedResourceId: (id: string) => new Rejection('InvalidResolvedResourceId', `Resource identifier '${id}' cannot be expanded to an Iri.`),
  decodingFailed: (reason: string) => new Rejection('DecodingFailed', reason),
  tooManyProjects: (provided: number, max: number) =>
    new Rejection('TooManyResolverProjects', `${provided} exceeds the maximum allowed number of projects of a resolver (${max}).`, { provided, max }),
  invalidResolution: (ref: string, project: string, report: unknown) =>
    new Rejection('InvalidResolution', `Failed to resolve ${ref} using resolvers of project '${project}'.`, { report }),
  invalidResolverResolution: (ref: string, resolver: string, project: string, report: unknown) =>
    new Rejection('InvalidResolverResolution', `Failed to resolve ${ref} using resolver '${resolver}' of project '${project}'.`, { report }),
};

/** Their HTTP statuses (Delta's): every type of the family has one, or this does not compile. */
export const resolverStatuses = {
  ResourceNotFound: 404,
  ResourceAlreadyExists: 409,
  ResolverIsDeprecated: 400,
  DifferentResolverType: 400,
  PriorityAlreadyExists: 400,
  NoIdentities: 400,
  InvalidIdentities: 400,
  InvalidResolverId: 400,
  InvalidResolvedResourceId: 400,
  DecodingFailed: 400,
  TooManyResolverProjects: 400,
  InvalidResolution: 404,
  InvalidResolverResolution: 404,
} satisfies Record<RejectionTypes<typeof resolverRejections>, number>;
