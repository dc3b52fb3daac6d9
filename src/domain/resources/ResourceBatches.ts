import type { Caller } from '../../kernel/Caller.js';
import type { ProjectRef } from '../../kernel/labels.js';
import { Rejection } from '../../kernel/Rejection.js';
import type { CommandDefinition } from '../KindDefinition.js';
import type { Lifecycle } from '../Lifecycle.js';
import { rejections } from '../rejections.js';
import type { ProjectService } from '../projects/ProjectService.js';
import type { Committed, PreparedWrite, ReplayedRevision } from './bulkWrites.js';
import { CONTENT_EVENTS, replayedCommand } from './bulkWrites.js';
import type { CompactedRevisions } from './CompactedRevisions.js';
import type { ItemKind } from './ItemKind.js';
import type { ResourceCommand, ResourceState } from './Resource.js';
import type { ResourceCommandParts } from './ResourceCommandParts.js';
import type { ResourceEvent } from './ResourceEvent.js';
import type { CapacityGuard, ResourceStates } from './resourcePorts.js';
import type { SchemaResolver } from './SchemaResolver.js';
import { checkSource } from './sourceChecks.js';

/**
 * Bulk writes of resources or schemas (imports, replays of an export): each line prepared on its
 * own (expansion, schema, validation), then a batch of distinct items decided against their states
 * and written in one append.
 */
export class ResourceBatches {
  constructor(
    private readonly states: ResourceStates,
    private readonly projects: ProjectService,
    private readonly schemas: SchemaResolver,
    private readonly parts: ResourceCommandParts,
    private readonly compacted: CompactedRevisions,
    private readonly lifecycle: Lifecycle,
    private readonly capacity: CapacityGuard,
    private readonly definition: CommandDefinition<ResourceState, ResourceCommand, ResourceEvent>,
    private readonly kind: ItemKind,
  ) {}

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
    const expansion = await this.parts.expand(project, source, undefined, caller);
    const existing = upsert ? await this.states.get(this.kind.key(ref, expansion.id)) : undefined;
    const schema = existing
      ? await this.parts.schemaForUpdate(project, schemaSegment === '_' ? undefined : this.parts.schemaIri(project, schemaSegment), existing, caller)
      : await this.schemas.resolve(ref, this.parts.schemaIri(project, schemaSegment), caller);
    const pins = await schema.validate(expansion.id, expansion.expanded);
    await this.parts.unique(ref, expansion.id);
    const target = this.parts.target(ref, expansion.id, caller, project);
    const content = this.parts.content(source, expansion, schema.iri, schema.project, pins);
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
    const id = this.parts.id(project, revision.id);
    const target = this.parts.target(ref, id, caller, project);
    const schema = await this.schemas.resolve(ref, this.parts.schemaIri(project, revision.schema), caller);
    if (!CONTENT_EVENTS.has(revision.event))
      return { key: this.kind.key(ref, id), id, decide: (state) => replayedCommand(revision, state, target, undefined, schema.project) };
    const source = checkSource(revision.source);
    const expansion = await this.parts.expand(project, source, id, caller);
    const pins = await schema.validate(id, expansion.expanded);
    await this.parts.unique(ref, id);
    const content = this.parts.content(source, expansion, schema.iri, schema.project, pins);
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
      this.compacted.keep(outcome?.seq, write.expansion);
      const state = after[at];
      if (!state) return rejections.notFound(cmd.id, cmd.project);
      return { state, created: cmd.type === 'Create' };
    });
  }
}
