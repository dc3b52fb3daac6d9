import type { ProjectRef } from '../labels.js';
import { rejections } from '../rejections.js';
import { UNCONSTRAINED } from '../vocabulary.js';
import type { ResolvedSchema, SchemaResolver } from './SchemaResolver.js';

/** Pinned schema references read `iri?rev=n`; the schema itself is the part before. */
export const schemaBase = (iri: string): string => {
  const at = iri.indexOf('?rev=');
  return at === -1 ? iri : iri.slice(0, at);
};

/**
 * The resolver of a registry without schemas: the unconstrained schema accepts everything, any
 * other schema is unknown.
 */
export class UnconstrainedSchemas implements SchemaResolver {
  async resolve(project: ProjectRef, schemaIri: string): Promise<ResolvedSchema> {
    if (schemaBase(schemaIri) !== UNCONSTRAINED) throw rejections.notFound(schemaIri, project);
    return { iri: UNCONSTRAINED, project, validate: async () => undefined };
  }

  baseOf(schemaIri: string): string {
    return schemaBase(schemaIri);
  }
}
