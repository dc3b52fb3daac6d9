import type { Caller } from '../../kernel/Caller.js';
import type { EventWriter } from '../EventWriter.js';
import type { CommandDefinition } from '../KindDefinition.js';
import type { Lifecycle } from '../Lifecycle.js';
import type { Clock } from '../../kernel/Clock.js';
import type { ProjectRef } from '../../kernel/labels.js';
import type { ItemRef, ItemTarget } from '../../kernel/ItemRef.js';
import { rejections } from '../rejections.js';
import type { ProjectService } from '../projects/ProjectService.js';
import type { Expansion, JsonLdProcessor } from '../../jsonld/JsonLdProcessor.js';
import type { ProjectContexts } from './ProjectContexts.js';
import type { ItemKind } from './ItemKind.js';
import type { ResourceCommand, ResourceState } from './Resource.js';
import type { JsonObject, ResourceEvent } from './ResourceEvent.js';
import { isContentEvent } from './ResourceEvent.js';
import type { Revision, RevisionReader } from './RevisionReader.js';
import type { SchemaResolver, ValidationReport } from './SchemaResolver.js';
import { checkSource } from './sourceChecks.js';
import type { Rejection } from '../../kernel/Rejection.js';
import type { Committed, PreparedWrite, ReplayedRevision } from './bulkWrites.js';
import { CompactedRevisions } from './CompactedRevisions.js';
import { ResourceBatches } from './ResourceBatches.js';
import { ResourceCommandParts } from './ResourceCommandParts.js';
import type { CapacityGuard, ResourceStates, Selector, WriteGuards } from './resourcePorts.js';
import { ResourceReads } from './ResourceReads.js';

/**
 * Orchestrates the resource operations: resolves project, ids and schema, expands JSON-LD, evaluates
 * the command against the current state and writes the event; reads revisions back from the log.
 * Schemas share this lifecycle: `kind` names what differs; `contexts` finds the contexts kept as resources.
 * Here the single-item writes; the reads (`ResourceReads`), bulk writes (`ResourceBatches`), a
 * command's parts (`ResourceCommandParts`) and compacted payloads (`CompactedRevisions`) are their own.
 */
export class ResourceService {
  private readonly compacted: CompactedRevisions;
  private readonly parts: ResourceCommandParts;
  private readonly batches: ResourceBatches;
  private readonly reads: ResourceReads;

  constructor(
    states: ResourceStates,
    private readonly projects: ProjectService,
    private readonly schemas: SchemaResolver,
    jsonld: JsonLdProcessor,
    private readonly lifecycle: Lifecycle,
    private readonly writer: EventWriter,
    private readonly reader: RevisionReader,
    clock: Clock,
    private readonly capacity: CapacityGuard,
    guards: WriteGuards,
    private readonly definition: CommandDefinition<ResourceState, ResourceCommand, ResourceEvent>,
    private readonly kind: ItemKind,
    contexts: ProjectContexts,
  ) {
    this.compacted = new CompactedRevisions(projects, jsonld, kind, contexts);
    this.parts = new ResourceCommandParts(projects, schemas, jsonld, clock, guards, kind, contexts);
    this.reads = new ResourceReads(states, projects, schemas, reader, kind, this.compacted);
    this.batches = new ResourceBatches(states, projects, schemas, this.parts, this.compacted, lifecycle, capacity, definition, kind);
  }

  /** Create (POST, or PUT without `rev`). The target has no `id` for POST; no `schema`: the kind's default. */
  async create(target: ItemTarget, payload: unknown, tag: string | undefined, caller: Caller) {
    const ref = target.project;
    const project = this.projects.active(ref);
    const source = checkSource(payload);
    const expansion = await this.parts.expand(project, source, target.id, caller);
    const schema = await this.schemas.resolve(ref, target.schema ?? this.kind.defaultSchema, caller);
    const pins = await schema.validate(expansion.id, expansion.expanded);
    await this.parts.unique(ref, expansion.id);
    return this.run(
      undefined,
      {
        type: 'Create',
        ...this.parts.target(ref, expansion.id, caller, project),
        ...this.parts.content(source, expansion, schema.iri, schema.project, pins),
        ...(tag === undefined ? {} : { tag }),
      },
      expansion,
    );
  }

  /** A bulk line (`ResourceBatches.prepareWrite`). */
  prepareWrite(ref: ProjectRef, schemaSegment: string, payload: unknown, tag: string | undefined, caller: Caller, upsert: boolean): Promise<PreparedWrite> {
    return this.batches.prepareWrite(ref, schemaSegment, payload, tag, caller, upsert);
  }

  /** A revision of an export, replayed (`ResourceBatches.prepareReplay`). */
  prepareReplay(ref: ProjectRef, revision: ReplayedRevision, caller: Caller): Promise<PreparedWrite> {
    return this.batches.prepareReplay(ref, revision, caller);
  }

  /** Prepared writes of distinct items in one append (`ResourceBatches.commitBatch`). */
  commitBatch(writes: readonly PreparedWrite[]): Promise<(Committed | Rejection)[]> {
    return this.batches.commitBatch(writes);
  }

  async update(item: ItemRef, payload: unknown, rev: number, tag: string | undefined, caller: Caller) {
    const { project: ref, id } = item;
    const project = this.projects.active(ref);
    const source = checkSource(payload);
    const state = await this.reads.current(ref, id);
    const expansion = await this.parts.expand(project, source, id, caller);
    const schema = await this.parts.schemaForUpdate(project, item.schema, state, caller);
    const pins = await schema.validate(id, expansion.expanded);
    return this.run(
      state,
      {
        type: 'Update',
        rev,
        ...this.parts.target(ref, id, caller, project),
        ...this.parts.content(source, expansion, schema.iri, schema.project, pins),
        ...(tag === undefined ? {} : { tag }),
      },
      expansion,
    );
  }

  /** Re-reads the last source: picks up changed remote contexts and the latest revision of the schema. */
  async refresh(item: ItemRef, caller: Caller) {
    const { project: ref, id } = item;
    const project = this.projects.active(ref);
    const state = await this.reads.current(ref, id);
    if (state.deprecated) throw rejections.isDeprecated(id);
    const { content } = await this.reader.at(state, state.rev);
    const expansion = await this.parts.expand(project, content.source, id, caller);
    const schema = await this.parts.schemaForUpdate(project, item.schema, state, caller);
    const pins = await schema.validate(id, expansion.expanded);
    return this.run(state, {
      type: 'Refresh',
      ...this.parts.target(ref, id, caller, project),
      ...this.parts.content(content.source, expansion, schema.iri, schema.project, pins),
    });
  }

  async tag(item: ItemRef, rev: number, tag: string, targetRev: number, caller: Caller) {
    const { state, id, ref } = await this.reads.located(item, false);
    return this.run(state, { type: 'Tag', ...this.parts.target(ref, id, caller), rev, tag, targetRev });
  }

  async deleteTag(item: ItemRef, rev: number, tag: string, caller: Caller) {
    const { state, id, ref } = await this.reads.located(item, false);
    return this.run(state, { type: 'DeleteTag', ...this.parts.target(ref, id, caller), rev, tag });
  }

  async deprecate(item: ItemRef, rev: number, caller: Caller) {
    const { state, id, ref } = await this.reads.located(item, false);
    return this.run(state, { type: 'Deprecate', ...this.parts.target(ref, id, caller), rev });
  }

  async undeprecate(item: ItemRef, rev: number, caller: Caller) {
    const { state, id, ref } = await this.reads.located(item, false);
    return this.run(state, { type: 'Undeprecate', ...this.parts.target(ref, id, caller), rev });
  }

  /** Validates the current payload against the schema of the path, then changes only the schema. */
  async updateSchema(item: ItemRef, caller: Caller) {
    const { project: ref, id } = item;
    const project = this.projects.active(ref);
    const state = await this.reads.current(ref, id);
    if (state.deprecated) throw rejections.isDeprecated(id);
    const schema = await this.schemas.resolve(ref, item.schema ?? this.kind.defaultSchema, caller);
    const { content } = await this.reader.at(state, state.rev);
    await schema.validate(id, content.expanded);
    return this.run(state, { type: 'UpdateSchema', ...this.parts.target(ref, id, caller, project), schema: schema.iri, schemaProject: schema.project });
  }

  /** Permanent deletion: the resource's events are pruned from the log once the deletion marker is durable. */
  async delete(item: ItemRef, caller: Caller): Promise<void> {
    const { state, id, ref } = await this.reads.located(item, false);
    const seq = await this.append(state, { type: 'Delete', ...this.parts.target(ref, id, caller) });
    if (seq !== undefined) await this.writer.prune(this.kind.key(ref, id), seq);
  }

  /** The revision selected by `rev` or `tag` (the current one by default). */
  fetch(item: ItemRef, selector: Selector): Promise<Revision> {
    return this.reads.fetch(item, selector);
  }

  /** The selected revision compacted; the log is read only when the compacted form is not kept. */
  fetchCompacted(item: ItemRef, selector: Selector): Promise<{ state: ResourceState; compacted: JsonObject }> {
    return this.reads.fetchCompacted(item, selector);
  }

  /** The revision's payload compacted with its own context (computed once per revision, then kept). */
  compact(revision: Revision): Promise<JsonObject> {
    return this.compacted.compact(revision);
  }

  /** The current state of the item a path names (no content is read), for link queries. */
  async locate(item: ItemRef): Promise<ResourceState> {
    return (await this.reads.located(item, true)).state;
  }

  /** The report of validating the current payload against the schema of the path (`_`: the resource's own, latest); changes nothing. */
  validate(item: ItemRef): Promise<ValidationReport> {
    return this.reads.validate(item);
  }

  /** Appends; a content write keeps the compacted form its expansion brought, under its own event's position. */
  private async run(state: ResourceState | undefined, cmd: ResourceCommand, expansion?: Expansion): Promise<ResourceState> {
    this.compacted.keep(await this.append(state, cmd), expansion);
    return this.reads.current(cmd.project, cmd.id);
  }

  /** Evaluates and appends; returns the event's log position, or undefined when nothing changed. */
  private async append(state: ResourceState | undefined, cmd: ResourceCommand): Promise<number | undefined> {
    const [org] = cmd.project.split('/');
    const logged = await this.lifecycle.run(
      this.definition,
      state,
      cmd,
      { key: this.kind.key(cmd.project, cmd.id), org: org!, project: cmd.project, projectSeen: cmd.projectSeen },
      async (event) => {
        if (isContentEvent(event)) await this.capacity();
      },
    );
    return logged?.seq;
  }
}
