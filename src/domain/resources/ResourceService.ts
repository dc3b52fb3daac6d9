import type { Caller } from '../../kernel/Caller.js';
import type { EventWriter } from '../EventWriter.js';
import type { CommandDefinition } from '../KindDefinition.js';
import type { Lifecycle } from '../Lifecycle.js';
import type { Clock } from '../../kernel/Clock.js';
import type { ProjectRef } from '../../kernel/labels.js';
import type { ItemRef, ItemTarget } from '../../kernel/ItemRef.js';
import { rejections } from '../rejections.js';
import type { ProjectService } from '../projects/ProjectService.js';
import type { ProjectState } from '../projects/Project.js';
import { resolveId } from '../projects/apiMappings.js';
import type { ExpandOptions, Expansion, JsonLdProcessor } from '../../jsonld/JsonLdProcessor.js';
import type { ProjectContexts } from './ProjectContexts.js';
import type { ItemKind } from './ItemKind.js';
import type { ResourceCommand, ResourceState } from './Resource.js';
import type { JsonObject, ResourceEvent } from './ResourceEvent.js';
import { isContentEvent } from './ResourceEvent.js';
import type { Revision, RevisionReader } from './RevisionReader.js';
import type { Pins, SchemaResolver, ValidationReport } from './SchemaResolver.js';
import { addressableId, checkSource } from './sourceChecks.js';
import { Lru } from '../../util/Lru.js';
import { Rejection } from '../../kernel/Rejection.js';
import type { Committed, PreparedWrite, ReplayedRevision } from './bulkWrites.js';
import { CONTENT_EVENTS, replayedCommand } from './bulkWrites.js';

/** The latest states of one kind (resources, or schemas), wherever they are kept: in process, or shared by the log. */
export interface ResourceStates {
  get(key: string): Promise<ResourceState | undefined>;
  getMany(keys: readonly string[]): Promise<(ResourceState | undefined)[]>;
}

/** Fetch selectors: at most one of `rev` and `tag`. */
export interface Selector {
  rev?: number;
  tag?: string;
}

/** Refuses writes before the embedded store reaches its capacity. */
export type CapacityGuard = () => Promise<void>;

/** Checks a write must pass before its event is appended, so that whatever the log holds can be projected. */
export interface WriteGuards {
  /** Rejects an expanded payload the triple store could not keep as a revision graph. */
  storable(expanded: JsonObject[]): Promise<void>;
  /** Whether an item of another kind (or a reserved one) has this id in the project: ids are unique across kinds. */
  takenElsewhere(project: ProjectRef, id: string): Promise<boolean>;
}

/**
 * Orchestrates the resource operations: resolves project, ids and schema, expands JSON-LD, evaluates
 * the command against the current state and writes the event; reads revisions back from the log.
 * Schemas share this lifecycle: `kind` names what differs; `contexts` finds the contexts kept as resources.
 */
export class ResourceService {
  private readonly compacted = new Lru<number, JsonObject>(20_000);

  constructor(
    private readonly states: ResourceStates,
    private readonly projects: ProjectService,
    private readonly schemas: SchemaResolver,
    private readonly jsonld: JsonLdProcessor,
    private readonly lifecycle: Lifecycle,
    private readonly writer: EventWriter,
    private readonly reader: RevisionReader,
    private readonly clock: Clock,
    private readonly capacity: CapacityGuard,
    private readonly guards: WriteGuards,
    private readonly definition: CommandDefinition<ResourceState, ResourceCommand, ResourceEvent>,
    private readonly kind: ItemKind,
    private readonly contexts: ProjectContexts,
  ) {}

  /** Create (POST, or PUT without `rev`). The target has no `id` for POST; no `schema`: the kind's default. */
  async create(target: ItemTarget, payload: unknown, tag: string | undefined, caller: Caller) {
    const ref = target.project;
    const project = this.projects.active(ref);
    const source = checkSource(payload);
    const expansion = await this.expand(project, source, target.id, caller);
    const schema = await this.schemas.resolve(ref, target.schema ?? this.kind.defaultSchema, caller);
    const pins = await schema.validate(expansion.id, expansion.expanded);
    if (await this.guards.takenElsewhere(ref, expansion.id)) throw rejections.alreadyExists(expansion.id, ref);
    return this.run(
      undefined,
      {
        type: 'Create',
        ...this.target(ref, expansion.id, caller, project),
        ...this.content(source, expansion, schema.iri, schema.project, pins),
        ...(tag === undefined ? {} : { tag }),
      },
      expansion,
    );
  }

  /** A bulk line: a create, or with `upsert` an update of the item at its revision when the batch is written, if it exists then. */
  async prepareWrite(
    ref: ProjectRef,
    schemaSegment: string,
    payload: unknown,
    tag: string | undefined,
    caller: Caller,
    upsert: boolean,
  ): Promise<PreparedWrite> {
    const project = this.projects.active(ref);
    const source = checkSource(payload);
    const expansion = await this.expand(project, source, undefined, caller);
    const existing = upsert ? await this.states.get(this.kind.key(ref, expansion.id)) : undefined;
    const schema = existing
      ? await this.schemaForUpdate(project, schemaSegment === '_' ? undefined : this.schemaIri(project, schemaSegment), existing, caller)
      : await this.schemas.resolve(ref, this.schemaIri(project, schemaSegment), caller);
    const pins = await schema.validate(expansion.id, expansion.expanded);
    if (await this.guards.takenElsewhere(ref, expansion.id)) throw rejections.alreadyExists(expansion.id, ref);
    const target = this.target(ref, expansion.id, caller, project);
    const content = this.content(source, expansion, schema.iri, schema.project, pins);
    const tagged = tag === undefined ? {} : { tag };
    return {
      key: this.kind.key(ref, expansion.id),
      id: expansion.id,
      expansion,
      decide: (state) =>
        state && upsert ? { type: 'Update', rev: state.rev, ...target, ...content, ...tagged } : { type: 'Create', ...target, ...content, ...tagged },
    };
  }

  /** A revision of an export, replayed: content revisions are expanded and validated as a create or update would be. */
  async prepareReplay(ref: ProjectRef, revision: ReplayedRevision, caller: Caller): Promise<PreparedWrite> {
    const project = this.projects.active(ref);
    const id = this.id(project, revision.id);
    const target = this.target(ref, id, caller, project);
    const schema = await this.schemas.resolve(ref, this.schemaIri(project, revision.schema), caller);
    if (!CONTENT_EVENTS.has(revision.event))
      return { key: this.kind.key(ref, id), id, decide: (state) => replayedCommand(revision, state, target, undefined, schema.project) };
    const source = checkSource(revision.source);
    const expansion = await this.expand(project, source, id, caller);
    const pins = await schema.validate(id, expansion.expanded);
    if (await this.guards.takenElsewhere(ref, id)) throw rejections.alreadyExists(id, ref);
    const content = this.content(source, expansion, schema.iri, schema.project, pins);
    return { key: this.kind.key(ref, id), id, expansion, decide: (state) => replayedCommand(revision, state, target, content, schema.project) };
  }

  /**
   * Writes prepared writes (distinct items) in one append: each answers with the item's state after
   * it (unchanged when it changed nothing) or its own rejection.
   */
  async commitBatch(writes: readonly PreparedWrite[]): Promise<(Committed | Rejection)[]> {
    try {
      await this.capacity();
    } catch (error) {
      if (error instanceof Rejection) return writes.map(() => error);
      throw error;
    }
    const states = await this.states.getMany(writes.map((write) => write.key));
    const decided = writes.map((write, at) => {
      const state = states[at];
      return { state, cmd: write.decide(state), write };
    });
    const runnable = decided.filter((d): d is typeof d & { cmd: ResourceCommand } => !(d.cmd instanceof Rejection));
    const outcomes = await this.lifecycle.runBatch(
      this.definition,
      runnable.map(({ state, cmd }) => ({
        state,
        cmd,
        placement: { key: this.kind.key(cmd.project, cmd.id), org: cmd.project.split('/')[0]!, project: cmd.project, projectSeen: cmd.projectSeen },
      })),
    );
    const byWrite = new Map(runnable.map((d, i) => [d.write, outcomes[i]]));
    const after = await this.states.getMany(decided.map(({ write }) => write.key));
    return decided.map(({ cmd, write }, at) => {
      if (cmd instanceof Rejection) return cmd;
      const outcome = byWrite.get(write);
      if (outcome instanceof Rejection) return outcome;
      const compacted = write.expansion && this.jsonld.takeCompacted(write.expansion.expanded);
      if (compacted && outcome !== undefined && !this.compacted.get(outcome.seq)) this.compacted.set(outcome.seq, compacted);
      const state = after[at];
      if (!state) return rejections.notFound(cmd.id, cmd.project);
      return { state, created: cmd.type === 'Create' };
    });
  }

  async update(item: ItemRef, payload: unknown, rev: number, tag: string | undefined, caller: Caller) {
    const { project: ref, id } = item;
    const project = this.projects.active(ref);
    const source = checkSource(payload);
    const state = await this.current(ref, id);
    const expansion = await this.expand(project, source, id, caller);
    const schema = await this.schemaForUpdate(project, item.schema, state, caller);
    const pins = await schema.validate(id, expansion.expanded);
    return this.run(
      state,
      {
        type: 'Update',
        rev,
        ...this.target(ref, id, caller, project),
        ...this.content(source, expansion, schema.iri, schema.project, pins),
        ...(tag === undefined ? {} : { tag }),
      },
      expansion,
    );
  }

  /** Re-reads the last source: picks up changed remote contexts and the latest revision of the schema. */
  async refresh(item: ItemRef, caller: Caller) {
    const { project: ref, id } = item;
    const project = this.projects.active(ref);
    const state = await this.current(ref, id);
    if (state.deprecated) throw rejections.isDeprecated(id);
    const { content } = await this.reader.at(state, state.rev);
    const expansion = await this.expand(project, content.source, id, caller);
    const schema = await this.schemaForUpdate(project, item.schema, state, caller);
    const pins = await schema.validate(id, expansion.expanded);
    return this.run(state, {
      type: 'Refresh',
      ...this.target(ref, id, caller, project),
      ...this.content(content.source, expansion, schema.iri, schema.project, pins),
    });
  }

  async tag(item: ItemRef, rev: number, tag: string, targetRev: number, caller: Caller) {
    const { state, id, ref } = await this.writable(item);
    return this.run(state, { type: 'Tag', ...this.target(ref, id, caller), rev, tag, targetRev });
  }

  async deleteTag(item: ItemRef, rev: number, tag: string, caller: Caller) {
    const { state, id, ref } = await this.writable(item);
    return this.run(state, { type: 'DeleteTag', ...this.target(ref, id, caller), rev, tag });
  }

  async deprecate(item: ItemRef, rev: number, caller: Caller) {
    const { state, id, ref } = await this.writable(item);
    return this.run(state, { type: 'Deprecate', ...this.target(ref, id, caller), rev });
  }

  async undeprecate(item: ItemRef, rev: number, caller: Caller) {
    const { state, id, ref } = await this.writable(item);
    return this.run(state, { type: 'Undeprecate', ...this.target(ref, id, caller), rev });
  }

  /** Validates the current payload against the schema of the path, then changes only the schema. */
  async updateSchema(item: ItemRef, caller: Caller) {
    const { project: ref, id } = item;
    const project = this.projects.active(ref);
    const state = await this.current(ref, id);
    if (state.deprecated) throw rejections.isDeprecated(id);
    const schema = await this.schemas.resolve(ref, item.schema ?? this.kind.defaultSchema, caller);
    const { content } = await this.reader.at(state, state.rev);
    await schema.validate(id, content.expanded);
    return this.run(state, { type: 'UpdateSchema', ...this.target(ref, id, caller, project), schema: schema.iri, schemaProject: schema.project });
  }

  /** The report of validating the current payload against the schema of the path (`_`: the resource's own, latest); changes nothing. */
  async validate(item: ItemRef): Promise<ValidationReport> {
    const ref = item.project;
    this.projects.fetch(ref);
    const state = await this.current(ref, item.id);
    const iri = item.schema ?? this.schemas.baseOf(state.schema);
    const schema = await this.schemas.resolve(ref, iri);
    const { content } = await this.reader.at(state, state.rev);
    return schema.report(state.id, content.expanded);
  }

  /** Permanent deletion: the resource's events are pruned from the log once the deletion marker is durable. */
  async delete(item: ItemRef, caller: Caller): Promise<void> {
    const { state, id, ref } = await this.located(item, false);
    const seq = await this.append(state, { type: 'Delete', ...this.target(ref, id, caller) });
    if (seq !== undefined) await this.writer.prune(this.kind.key(ref, id), seq);
  }

  /** The revision selected by `rev` or `tag` (the current one by default). */
  async fetch(item: ItemRef, selector: Selector): Promise<Revision> {
    const { state, rev } = await this.selected(item, selector);
    return this.reader.at(state, rev);
  }

  /** The selected revision compacted; the log is read only when the compacted form is not kept. */
  async fetchCompacted(item: ItemRef, selector: Selector): Promise<{ state: ResourceState; compacted: JsonObject }> {
    const { state: current, rev } = await this.selected(item, selector);
    const state = await this.reader.stateAt(current, rev);
    const cached = this.compacted.get(state.contentSeq);
    if (cached) return { state, compacted: cached };
    return { state, compacted: await this.compact({ state, content: await this.reader.content(state.contentSeq) }) };
  }

  private async selected(item: ItemRef, selector: Selector) {
    const { state } = await this.located(item, true);
    if (selector.tag === undefined) return { state, rev: selector.rev ?? state.rev };
    const tagged = state.tags[selector.tag];
    if (tagged === undefined) throw rejections.tagNotFound(selector.tag);
    return { state, rev: tagged };
  }

  /** The revision's payload compacted with its own context (computed once per revision, then kept). */
  async compact(revision: Revision): Promise<JsonObject> {
    const seq = revision.state.contentSeq;
    const cached = this.compacted.get(seq);
    if (cached) return cached;
    const project = this.projects.fetch(revision.state.project);
    const context = this.jsonld.contextOf(revision.content.source, project.base, project.vocab, this.kind.contexts);
    const compacted = await this.jsonld.compact(
      revision.content.expanded,
      context,
      revision.content.remoteContexts,
      (pinned) => this.contexts.pinned(pinned),
      project.base,
    );
    this.compacted.set(seq, compacted);
    return compacted;
  }

  /** The current state of the item a path names (no content is read), for link queries. */
  async locate(item: ItemRef): Promise<ResourceState> {
    return (await this.located(item, true)).state;
  }

  private async expand(project: ProjectState, source: JsonObject, pathId: string | undefined, caller: Caller): Promise<Expansion> {
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

  /** On update the path names no schema (`_`: keep the current one) or the current one. */
  private async schemaForUpdate(project: ProjectState, named: string | undefined, state: ResourceState, caller: Caller) {
    const ref = `${project.org}/${project.label}`;
    if (named === undefined) return this.schemas.resolve(ref, this.schemas.baseOf(state.schema), caller);
    if (this.schemas.baseOf(named) !== this.schemas.baseOf(state.schema)) throw rejections.unexpectedSchema(state.id, named, state.schema);
    return this.schemas.resolve(ref, named, caller);
  }

  private schemaIri(project: ProjectState, segment: string): string {
    if (segment === '_') return this.kind.defaultSchema;
    const iri = resolveId(segment, project);
    if (iri === undefined) throw rejections.invalidResourceId(segment);
    return iri;
  }

  private id(project: ProjectState, segment: string): string {
    const id = resolveId(segment, project);
    if (id === undefined) throw rejections.invalidResourceId(segment);
    return id;
  }

  private async current(ref: ProjectRef, id: string): Promise<ResourceState> {
    const state = await this.states.get(this.kind.key(ref, id));
    if (!state) throw rejections.notFound(id, ref);
    return state;
  }

  /** The resource named by the path; a schema it names must be the resource's schema. */
  private async located(item: ItemRef, read: boolean) {
    const { project: ref, id } = item;
    if (read) this.projects.fetch(ref);
    else this.projects.active(ref);
    const state = await this.current(ref, id);
    if (item.schema !== undefined && this.schemas.baseOf(item.schema) !== this.schemas.baseOf(state.schema)) throw rejections.notFound(id, ref);
    return { state, id, ref };
  }

  private async writable(item: ItemRef) {
    return this.located(item, false);
  }

  /** The command's target; `seen` is the project as the write saw it when it started (a slow expansion may follow). */
  private target(project: ProjectRef, id: string, caller: Caller, seen: ProjectState = this.projects.fetch(project)) {
    return { id, project, instant: this.clock.now(), subject: caller.subject, projectSeen: seen.createdSeq };
  }

  private content(source: JsonObject, expansion: Expansion, schema: string, schemaProject: ProjectRef, pins: Pins) {
    return { schema, schemaProject, types: expansion.types, source, expanded: expansion.expanded, remoteContexts: expansion.remoteContexts, ...pins };
  }

  /** Appends; a content write keeps the compacted form its expansion brought, under its own event's position. */
  private async run(state: ResourceState | undefined, cmd: ResourceCommand, expansion?: Expansion): Promise<ResourceState> {
    const seq = await this.append(state, cmd);
    const compacted = expansion && this.jsonld.takeCompacted(expansion.expanded);
    if (compacted && seq !== undefined && !this.compacted.get(seq)) this.compacted.set(seq, compacted);
    return this.current(cmd.project, cmd.id);
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
