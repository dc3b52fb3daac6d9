import type { Caller } from '../kernel/Caller.js';
import type { ProjectRef } from '../kernel/labels.js';
import { rejections } from '../domain/rejections.js';
import type { ImportRef, JsonObject } from '../domain/resources/ResourceEvent.js';
import type { ResolvedSchema, SchemaResolver, ValidationReport } from '../domain/resources/SchemaResolver.js';
import { schemaBase } from '../domain/schemas/schemaRef.js';
import { SHACL_SCHEMA } from '../kernel/vocabulary.js';
import type { JsonLdProcessor } from '../jsonld/JsonLdProcessor.js';
import type { SchemaImports } from './SchemaImports.js';
import { SHACL_SHACL } from './shaclShacl.js';
import type { Executor } from '../workers/Executor.js';
import type { ShaclOperations } from './shaclOperations.js';

/**
 * The resolver of the schemas service: every schema is constrained by the SHACL schema. Validating
 * a schema payload resolves its imports (pinned into the revision) and checks the schema with its
 * imports against the SHACL-for-SHACL shapes.
 */
export class SchemaPayloads implements SchemaResolver {
  constructor(
    private readonly imports: SchemaImports,
    private readonly jsonld: JsonLdProcessor,
    private readonly executor: Executor<ShaclOperations>,
  ) {}

  /** `caller`: whose access the resolvers check for imports kept in other projects. */
  async resolve(project: ProjectRef, schemaIri: string, caller?: Caller): Promise<ResolvedSchema> {
    if (schemaBase(schemaIri) !== SHACL_SCHEMA) throw rejections.schemaNotFound(schemaIri, project);
    return {
      iri: SHACL_SCHEMA,
      project,
      report: async (id, expanded) => (await this.check(project, id, expanded, caller)).report,
      validate: async (id, expanded) => {
        const { report, imports } = await this.check(project, id, expanded, caller);
        if (!report.conforms) throw rejections.invalidSchema(id, report.json);
        return { imports };
      },
    };
  }

  baseOf(schemaIri: string): string {
    return schemaBase(schemaIri);
  }

  private async check(
    project: ProjectRef,
    id: string,
    expanded: JsonObject[],
    caller: Caller | undefined,
  ): Promise<{ report: ValidationReport; imports: ImportRef[] }> {
    const own = await this.jsonld.toNQuads(expanded);
    const { imports, triples } = await this.imports.resolve(project, id, own, caller);
    return { report: await this.executor.run('validate', { shapes: SHACL_SHACL, data: { ntriples: own + triples } }), imports };
  }
}
