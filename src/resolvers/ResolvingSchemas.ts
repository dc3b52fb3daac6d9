import type { Caller } from '../kernel/Caller.js';
import type { ProjectRef } from '../kernel/labels.js';
import { Rejection } from '../kernel/Rejection.js';
import type { ResolvedSchema, SchemaResolver } from '../domain/resources/SchemaResolver.js';
import { parseSchemaRef } from '../domain/schemas/schemaRef.js';
import type { Resolution } from './Resolution.js';

/**
 * Schemas found through the project's resolvers (Delta resolves `{schema_id}` this way): the
 * project's own schema first, else the first resolver that finds a schema of that `@id` elsewhere,
 * with that resolver's permission checks; the resource then records the schema's project.
 */
export class ResolvingSchemas implements SchemaResolver {
  constructor(
    private readonly local: SchemaResolver,
    /** Late-bound: the resolvers module is wired after the services that validate. */
    private readonly resolution: () => Resolution,
  ) {}

  async resolve(project: ProjectRef, schemaIri: string, caller?: Caller): Promise<ResolvedSchema> {
    try {
      return await this.local.resolve(project, schemaIri, caller);
    } catch (error) {
      if (!(error instanceof Rejection) || error.type !== 'ResourceNotFound') throw error;
      const ref = parseSchemaRef(schemaIri);
      const { found } = await this.resolution().resolve(project, ref.iri, {}, caller, { kind: 'schemas' });
      if (!found || found.project === project) throw error;
      return this.local.resolve(found.project, schemaIri, caller);
    }
  }

  baseOf(schemaIri: string): string {
    return this.local.baseOf(schemaIri);
  }
}
