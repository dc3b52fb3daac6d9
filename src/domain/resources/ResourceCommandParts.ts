import type { Caller } from '../../kernel/Caller.js';
import type { Clock } from '../../kernel/Clock.js';
import type { ProjectRef } from '../../kernel/labels.js';
import type { ExpandOptions, Expansion, JsonLdProcessor } from '../../jsonld/JsonLdProcessor.js';
import { rejections } from '../rejections.js';
import type { ProjectService } from '../projects/ProjectService.js';
import type { ProjectState } from '../projects/Project.js';
import { resolveId } from '../projects/apiMappings.js';
import type { ProjectContexts } from './ProjectContexts.js';
import type { ItemKind } from './ItemKind.js';
import type { ResourceState } from './Resource.js';
import type { JsonObject } from './ResourceEvent.js';
import type { WriteGuards } from './resourcePorts.js';
import type { Pins, SchemaResolver } from './SchemaResolver.js';
import { addressableId } from './sourceChecks.js';

/**
 * What a resource or schema command is made of, from a request's payload and path: the expansion
 * (checked storable), the ids and schema the path names, the command's target and content. Shared by
 * single writes and bulk ones.
 */
export class ResourceCommandParts {
  constructor(
    private readonly projects: ProjectService,
    private readonly schemas: SchemaResolver,
    private readonly jsonld: JsonLdProcessor,
    private readonly clock: Clock,
    private readonly guards: WriteGuards,
    private readonly kind: ItemKind,
    private readonly contexts: ProjectContexts,
  ) {}

  async expand(project: ProjectState, source: JsonObject, pathId: string | undefined, caller: Caller): Promise<Expansion> {
    const options: ExpandOptions = {
      base: project.base,
      vocab: project.vocab,
      generateId: () => `${project.base}${this.clock.uuid()}`,
      contexts: this.contexts.source(`${project.org}/${project.label}`, caller),
      injected: this.kind.contexts,
      withTriples: true,
      ...(pathId === undefined ? {} : { pathId }),
    };
    const expansion = await this.jsonld.expand(source, options);
    const admitted = { ...expansion, types: this.kind.admitTypes(expansion) };
    // A kind that adds a type rewrites the root (a new array of types): its triples are converted again.
    if (admitted.types !== expansion.types) this.jsonld.changed(admitted.expanded);
    if (!addressableId(admitted.id)) throw rejections.invalidResourceId(admitted.id);
    await this.guards.storable(admitted.expanded);
    return admitted;
  }

  /** Refuses an id an item of another kind (or a reserved one) has in the project. */
  async unique(ref: ProjectRef, id: string): Promise<void> {
    if (await this.guards.takenElsewhere(ref, id)) throw rejections.alreadyExists(id, ref);
  }

  /** On update the path names no schema (`_`: keep the current one) or the current one. */
  async schemaForUpdate(project: ProjectState, named: string | undefined, state: ResourceState, caller: Caller) {
    const ref = `${project.org}/${project.label}`;
    if (named === undefined) return this.schemas.resolve(ref, this.schemas.baseOf(state.schema), caller);
    if (this.schemas.baseOf(named) !== this.schemas.baseOf(state.schema)) throw rejections.unexpectedSchema(state.id, named, state.schema);
    return this.schemas.resolve(ref, named, caller);
  }

  /** The schema a path segment names (`_`: the kind's default). */
  schemaIri(project: ProjectState, segment: string): string {
    return segment === '_' ? this.kind.defaultSchema : this.id(project, segment);
  }

  /** The id a path segment names, resolved against the project's mappings. */
  id(project: ProjectState, segment: string): string {
    const id = resolveId(segment, project);
    if (id === undefined) throw rejections.invalidResourceId(segment);
    return id;
  }

  /** The command's target; `seen` is the project as the write saw it when it started (a slow expansion may follow). */
  target(project: ProjectRef, id: string, caller: Caller, seen: ProjectState = this.projects.fetch(project)) {
    return { id, project, instant: this.clock.now(), subject: caller.subject, projectSeen: seen.createdSeq };
  }

  content(source: JsonObject, expansion: Expansion, schema: string, schemaProject: ProjectRef, pins: Pins) {
    return { schema, schemaProject, types: expansion.types, source, expanded: expansion.expanded, remoteContexts: expansion.remoteContexts, ...pins };
  }
}
