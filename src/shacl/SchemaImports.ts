import { Parser } from 'n3';
import type { Caller } from '../kernel/Caller.js';
import type { ProjectRef } from '../kernel/labels.js';
import { rejections } from '../domain/rejections.js';
import type { ImportRef } from '../domain/resources/ResourceEvent.js';
import type { ResolveElsewhere } from '../domain/resources/ResolveElsewhere.js';
import type { ResourceStates } from '../domain/resources/resourcePorts.js';
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
 * ontology triples; what the project does not hold is looked for, schemas first again, through the
 * project's resolvers with the caller's access checked (Delta's `SchemaImports`; deprecated
 * items are not found there). Transitive (through the current revision of each import, every one
 * looked for from the importing schema's project) and cycle-safe (an IRI is visited once, the
 * importing schema included).
 */
export class SchemaImports {
  constructor(
    private readonly schemas: ResourceStates,
    private readonly resources: ResourceStates,
    private readonly triples: RevisionTriples,
    private readonly elsewhere: ResolveElsewhere,
  ) {}

  /** Every import reached from `own` (the schema's triples), pinned to its current revision, with all their triples. */
  async resolve(project: ProjectRef, schemaId: string, own: string, caller?: Caller): Promise<{ imports: ImportRef[]; triples: string }> {
    const seen = new Set([schemaId]);
    const imports: ImportRef[] = [];
    const texts: string[] = [];
    const queue = importsIn(own);
    for (let iri = queue.shift(); iri !== undefined; iri = queue.shift()) {
      if (seen.has(iri)) continue;
      seen.add(iri);
      const found = (await this.find(project, iri)) ?? (await this.resolved(project, iri, caller));
      if (!found) throw rejections.invalidSchemaResolution(schemaId, iri, 'missing');
      if (found.state.deprecated) throw rejections.invalidSchemaResolution(schemaId, iri, 'deprecated');
      const text = await this.triples(found.kind, found.project, iri, found.state.rev);
      imports.push({ kind: found.kind, id: iri, project: found.project, rev: found.state.rev });
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

  private async find(project: ProjectRef, iri: string) {
    const schema = await this.schemas.get(schemaKey(project, iri));
    if (schema) return { kind: 'schemas' as const, project, state: schema };
    const resource = await this.resources.get(resourceKey(project, iri));
    return resource && { kind: 'resources' as const, project, state: resource };
  }

  private async resolved(project: ProjectRef, iri: string, caller: Caller | undefined) {
    for (const kind of ['schemas', 'resources'] as const) {
      const found = await this.elsewhere({ project, id: iri, kind, caller, excludeDeprecated: true });
      if (found) return { kind, ...found };
    }
    return undefined;
  }
}
