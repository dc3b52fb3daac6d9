import type { Caller } from '../../kernel/Caller.js';
import type { ProjectRef } from '../../kernel/labels.js';
import type { ImportRef, JsonObject } from './ResourceEvent.js';

/** The outcome of validating a payload against a schema: the `sh:ValidationReport` of spec 2.8. */
export interface ValidationReport {
  conforms: boolean;
  /** How many nodes of the payload some shape targeted: none means the schema says nothing about it. */
  targetedNodes: number;
  /** The report as JSON-LD (`@context`, `@type`, `conforms`, `targetedNodes`, `result`). */
  json: JsonObject;
}

/** What a validated revision must pin besides its payload: a schema's resolved imports. */
export interface Pins {
  imports?: ImportRef[];
}

/** The schema a resource is validated against, as resolved from a `{schema_id}` segment. */
export interface ResolvedSchema {
  /** `_constrainedBy`: the schema IRI (pinned to a revision when one was named). */
  iri: string;
  project: ProjectRef;
  /** The report of validating the expanded payload, whatever its outcome. */
  report(id: string, expanded: JsonObject[]): Promise<ValidationReport>;
  /** Throws the typed rejection (`InvalidResource`, `NoTargetedNode`, `InvalidSchema`...) when the payload does not conform. */
  validate(id: string, expanded: JsonObject[]): Promise<Pins>;
}

/**
 * Resolves schema IRIs within a project. The unconstrained schema validates nothing; other schemas
 * come from the schemas module.
 */
export interface SchemaResolver {
  /** `caller`: whose identities a resolver with `useCurrentCaller` checks when the schema is in another project. */
  resolve(project: ProjectRef, schemaIri: string, caller?: Caller): Promise<ResolvedSchema>;
  /** The base IRI of a possibly pinned schema reference (`iri?rev=n` → `iri`). */
  baseOf(schemaIri: string): string;
}
