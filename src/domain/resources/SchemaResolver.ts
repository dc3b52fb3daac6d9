import type { ProjectRef } from '../labels.js';
import type { JsonObject } from './ResourceEvent.js';

/** The schema a resource is validated against, as resolved from a `{schema_id}` segment. */
export interface ResolvedSchema {
  /** `_constrainedBy`: the schema IRI (pinned to a revision when one was named). */
  iri: string;
  project: ProjectRef;
  /** Throws the typed rejection (`InvalidResource`, `NoTargetedNode`) when the resource does not conform. */
  validate(id: string, expanded: JsonObject[]): Promise<void>;
}

/**
 * Resolves schema IRIs within a project. The unconstrained schema validates nothing; other schemas
 * come from the schemas module.
 */
export interface SchemaResolver {
  resolve(project: ProjectRef, schemaIri: string): Promise<ResolvedSchema>;
  /** The base IRI of a possibly pinned schema reference (`iri?rev=n` → `iri`). */
  baseOf(schemaIri: string): string;
}
