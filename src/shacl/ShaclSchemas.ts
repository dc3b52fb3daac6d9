import type { ProjectRef } from '../kernel/labels.js';
import { rejections } from '../domain/rejections.js';
import type { ResourceState } from '../domain/resources/Resource.js';
import type { JsonObject } from '../domain/resources/ResourceEvent.js';
import type { ResourceStates } from '../domain/resources/resourcePorts.js';
import type { RevisionReader } from '../domain/resources/RevisionReader.js';
import type { ResolvedSchema, SchemaResolver } from '../domain/resources/SchemaResolver.js';
import { parseSchemaRef, pinnedSchema, schemaBase } from '../domain/schemas/schemaRef.js';
import { UNCONSTRAINED } from '../kernel/vocabulary.js';
import type { Executor } from '../workers/Executor.js';
import type { ShaclOperations } from './shaclOperations.js';
import { schemaKey } from '../kernel/logKeys.js';
import { Lru } from '../util/Lru.js';
import type { RevisionTriples, SchemaImports } from './SchemaImports.js';

const unconstrained = (project: ProjectRef): ResolvedSchema => ({
  iri: UNCONSTRAINED,
  project,
  report: async () => ({ conforms: true, targetedNodes: 0, json: { '@type': 'sh:ValidationReport', conforms: true, targetedNodes: 0 } }),
  validate: async () => ({}),
});

/**
 * The resolver of resources: the unconstrained schema validates nothing; any other IRI names a
 * schema of the project, at its latest revision or at the revision or tag the reference pins.
 * A revision's shapes (its own triples and its pinned imports) never change, so each is compiled
 * once, keyed by the log position of its content, and reused by every validation against it.
 */
export class ShaclSchemas implements SchemaResolver {
  private readonly shapes = new Lru<number, Promise<string>>(500);

  constructor(
    private readonly schemas: ResourceStates,
    private readonly reader: RevisionReader,
    private readonly triples: RevisionTriples,
    private readonly imports: SchemaImports,
    private readonly executor: Executor<ShaclOperations>,
  ) {}

  async resolve(project: ProjectRef, schemaIri: string): Promise<ResolvedSchema> {
    const ref = parseSchemaRef(schemaIri);
    if (ref.iri === UNCONSTRAINED) return unconstrained(project);
    const current = await this.schemas.get(schemaKey(project, ref.iri));
    if (!current) throw rejections.schemaNotFound(ref.iri, project);
    const state = await this.revision(current, ref.rev ?? (ref.tag === undefined ? current.rev : this.tagged(current, ref.tag)));
    if (state.deprecated) throw rejections.schemaIsDeprecated(ref.iri);
    const iri = pinnedSchema(ref.iri, state.rev);
    const text = await this.shapesOf(state);
    // Compiled once per schema revision where validation runs: the text travels only to an executor that has not seen it.
    const shapes = { key: `schema/${state.contentSeq}`, text, format: 'N-Triples' as const };
    const report = (_id: string, expanded: JsonObject[]) => this.executor.run('validate', { shapes, data: { expanded } });
    return {
      iri,
      project,
      report,
      validate: async (id, expanded) => {
        const result = await report(id, expanded);
        if (!result.conforms) throw rejections.invalidResource(id, iri, result.json);
        if (result.targetedNodes === 0) throw rejections.noTargetedNode(id, iri);
        return {};
      },
    };
  }

  baseOf(schemaIri: string): string {
    return schemaBase(schemaIri);
  }

  private tagged(state: ResourceState, tag: string): number {
    const rev = state.tags[tag];
    if (rev === undefined) throw rejections.tagNotFound(tag);
    return rev;
  }

  private async revision(current: ResourceState, rev: number): Promise<ResourceState> {
    return rev === current.rev ? current : (await this.reader.at(current, rev)).state;
  }

  /** The shapes of a schema revision (its triples and its pinned imports'); concurrent first uses share one read. */
  private shapesOf(state: ResourceState): Promise<string> {
    const cached = this.shapes.get(state.contentSeq);
    if (cached) return cached;
    const reading = this.read(state);
    this.shapes.set(state.contentSeq, reading);
    reading.catch(() => this.shapes.delete(state.contentSeq));
    return reading;
  }

  private async read(state: ResourceState): Promise<string> {
    const { content } = await this.reader.at(state, state.rev);
    const own = await this.triples('schemas', state.project, state.id, state.rev);
    return own + (await this.imports.pinned(content.imports ?? []));
  }
}
