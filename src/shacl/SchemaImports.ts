import { Parser } from 'n3';
import type { ProjectRef } from '../kernel/labels.js';
import { rejections } from '../domain/rejections.js';
import type { ImportRef } from '../domain/resources/ResourceEvent.js';
import type { ResourceStates } from '../domain/resources/ResourceService.js';
import { resourceKey, schemaKey } from '../kernel/logKeys.js';

/** The triples of one revision of a schema or resource as N-Triples text (its revision graph). */
export type RevisionTriples = (kind: ImportRef['kind'], project: ProjectRef, id: string, rev: number) => Promise<string>;

const OWL_IMPORTS = 'http://www.w3.org/2002/07/owl#imports';

/** The IRIs named by `owl:imports` anywhere in N-Triples text. */
export const importsIn = (triples: string): string[] => {
  if (!triples.includes(OWL_IMPORTS)) return [];
  return new Parser({ format: 'N-Triples' })
    .parse(triples)
    .filter((q) => q.predicate.value === OWL_IMPORTS && q.object.termType === 'NamedNode')
    .map((q) => q.object.value);
};

/**
 * Resolves a schema's `owl:imports` from its project: schemas first, else resources holding
 * ontology triples. Transitive (through the current revision of each import) and cycle-safe
 * (an IRI is visited once, the importing schema included).
 */
export class SchemaImports {
  constructor(
    private readonly schemas: ResourceStates,
    private readonly resources: ResourceStates,
    private readonly triples: RevisionTriples,
  ) {}

  /** Every import reached from `own` (the schema's triples), pinned to its current revision, with all their triples. */
  async resolve(project: ProjectRef, schemaId: string, own: string): Promise<{ imports: ImportRef[]; triples: string }> {
    const seen = new Set([schemaId]);
    const imports: ImportRef[] = [];
    const texts: string[] = [];
    const queue = importsIn(own);
    for (let iri = queue.shift(); iri !== undefined; iri = queue.shift()) {
      if (seen.has(iri)) continue;
      seen.add(iri);
      const found = this.find(project, iri);
      if (!found) throw rejections.invalidSchemaResolution(schemaId, iri, 'missing');
      if (found.state.deprecated) throw rejections.invalidSchemaResolution(schemaId, iri, 'deprecated');
      const text = await this.triples(found.kind, project, iri, found.state.rev);
      imports.push({ kind: found.kind, id: iri, project, rev: found.state.rev });
      texts.push(text);
      queue.push(...importsIn(text));
    }
    return { imports, triples: texts.join('') };
  }

  /** The triples of pinned imports, as they were at the pinned revisions. */
  async pinned(imports: ImportRef[]): Promise<string> {
    const texts = await Promise.all(imports.map((i) => this.triples(i.kind, i.project, i.id, i.rev)));
    return texts.join('');
  }

  private find(project: ProjectRef, iri: string) {
    const schema = this.schemas.get(schemaKey(project, iri));
    if (schema) return { kind: 'schemas' as const, state: schema };
    const resource = this.resources.get(resourceKey(project, iri));
    return resource && { kind: 'resources' as const, state: resource };
  }
}
