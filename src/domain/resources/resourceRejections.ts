import { Rejection } from '../../kernel/Rejection.js';
import type { RejectionTypes } from '../../kernel/Rejection.js';

/** Resources and schemas: the rejections they raise, named as existing clients expect them (wire-format.md). */
export const resourceRejections = {
  alreadyExists: (id: string, project: string) => new Rejection('ResourceAlreadyExists', `Resource '${id}' already exists in project '${project}'.`),
  notFound: (id: string, project: string) => new Rejection('ResourceNotFound', `Resource '${id}' not found in project '${project}'.`),
  revisionNotFound: (provided: number, current: number) =>
    new Rejection('RevisionNotFound', `Revision requested '${provided}' not found, last known revision is '${current}'.`, {
      provided,
      current,
    }),
  tagNotFound: (tag: string) => new Rejection('TagNotFound', `Tag requested '${tag}' not found.`),
  isDeprecated: (id: string) => new Rejection('ResourceIsDeprecated', `Resource '${id}' is deprecated.`),
  isNotDeprecated: (id: string) => new Rejection('ResourceIsNotDeprecated', `Resource '${id}' is not deprecated.`),
  unexpectedSchema: (id: string, named: string, current: string) =>
    new Rejection(
      'UnexpectedResourceSchema',
      `Resource '${id}' is constrained by '${current}', not by '${named}'; an update cannot change the schema (use update-schema).`,
    ),
  schemaNotFound: (iri: string, project: string) => new Rejection('ResourceNotFound', `Schema '${iri}' not found in project '${project}'.`),
  schemaIsDeprecated: (iri: string) => new Rejection('SchemaIsDeprecated', `Schema '${iri}' is deprecated.`),
  invalidResource: (id: string, schema: string, report: unknown) =>
    new Rejection('InvalidResource', `Resource '${id}' failed to validate against the constraints defined in schema '${schema}'.`, { details: report }),
  noTargetedNode: (id: string, schema: string) =>
    new Rejection('NoTargetedNode', `Resource '${id}' was not validated: no shape of schema '${schema}' targets any of its nodes.`),
  invalidSchema: (id: string, report: unknown) => new Rejection('InvalidSchema', `Schema '${id}' is not valid SHACL.`, { details: report }),
  invalidSchemaResolution: (id: string, importIri: string, why: 'missing' | 'deprecated') =>
    new Rejection(
      'InvalidSchemaResolution',
      `Schema '${id}' imports '${importIri}', which ${why === 'missing' ? 'is neither a schema nor a resource of the project, nor found through its resolvers' : 'is deprecated'}.`,
      { imports: [importIri] },
    ),
  invalidResourceId: (id: string) =>
    new Rejection(
      'InvalidResourceId',
      `Resource identifier '${id}' cannot be expanded to an Iri that can be addressed: use an absolute IRI (or a name the project's base, vocab or api mappings expand) of well-formed Unicode, without control characters or any of <>"{}|\\^\`, and without '.' or '..' path segments`,
    ),
  reservedTypes: (types: string[]) =>
    new Rejection('ReservedResourceTypes', `Resource types '${types.join(', ')}' belong to the service vocabulary and cannot be used on a resource.`),
};

/** Their HTTP statuses: every type of the family has one, or this does not compile. */
export const resourceStatuses = {
  ResourceAlreadyExists: 409,
  ResourceNotFound: 404,
  RevisionNotFound: 404,
  TagNotFound: 404,
  ResourceIsDeprecated: 400,
  ResourceIsNotDeprecated: 400,
  UnexpectedResourceSchema: 400,
  SchemaIsDeprecated: 400,
  InvalidResource: 400,
  NoTargetedNode: 400,
  InvalidSchema: 400,
  InvalidSchemaResolution: 400,
  InvalidResourceId: 400,
  ReservedResourceTypes: 400,
} satisfies Record<RejectionTypes<typeof resourceRejections>, number>;
