import type { Caller } from '../kernel/Caller.js';
import type { LogEvent } from '../events/EventLog.js';
import type { Clock } from '../kernel/Clock.js';
import type { JsonObject } from '../kernel/json.js';
import type { ProjectRef } from '../kernel/labels.js';
import type { DeprecateCommand, ItemTarget as CommandTarget, TagCommand } from './itemCommands.js';
import type { ItemRef, ItemTarget } from '../kernel/ItemRef.js';
import { itemId } from './itemId.js';
import type { CommandDefinition, DomainEvent } from './KindDefinition.js';
import type { Lifecycle } from './Lifecycle.js';
import type { ItemRules } from './versionedDefinition.js';
import type { ProjectState } from './projects/Project.js';
import type { ProjectService } from './projects/ProjectService.js';
import { resolveId } from './projects/apiMappings.js';
import { rejections } from './rejections.js';
import type { Selector } from './resources/resourcePorts.js';
import type { Versioned } from './versioned.js';
import { atRevision } from './versioned.js';

/** What the shared steps need to know of a kind kept whole per revision: how it evaluates commands, where its items are kept, how it rejects. */
export type VersionedKind<V, C> = CommandDefinition<Versioned<V>, C, DomainEvent & { rev: number }> &
  ItemRules & {
    /** The id a path segment names other than by expansion (the views' `graph`); undefined: none. */
    alias?(segment: string): string | undefined;
  };

/** The collaborators every such service is built with. */
export interface VersionedDeps<V> {
  states: ReadonlyMap<string, Versioned<V>>;
  projects: ProjectService;
  lifecycle: Lifecycle;
  clock: Clock;
}

/**
 * The steps of a kind kept whole per revision that read no state (DESIGN.md: their own services,
 * built from shared collaborators): a command's target, what a create starts from, a revision a
 * selector names in a state already read, a command run through the lifecycle. Files read their
 * states through the item states port (shared on Redis) and build on these alone.
 */
export class VersionedCommands<V, C extends CommandTarget> {
  constructor(
    protected readonly kind: VersionedKind<V, C | TagCommand | DeprecateCommand>,
    protected readonly deps: Omit<VersionedDeps<V>, 'states'>,
  ) {}

  /** The command's target: the item, now, the caller, and the project as the write sees it as it starts. */
  target(ref: ProjectRef, id: string, caller: Caller): CommandTarget {
    return { id, project: ref, instant: this.deps.clock.now(), subject: caller.subject, projectSeen: this.deps.projects.fetch(ref).createdSeq };
  }

  /**
   * What a create or an update starts from: the project (which must be active), the payload (which
   * must be a JSON object) and the item's id from the path's (resolved at the edge) and the payload's `@id`.
   */
  incoming(item: ItemTarget, payload: unknown): { project: ProjectState; source: JsonObject; id: string } {
    const project = this.deps.projects.active(item.project);
    const source = objectPayload(payload, this.kind.noun);
    return { project, source, id: itemId(project, item.id, source, this.kind.invalidId, () => this.deps.clock.uuid()) };
  }

  /** The id a segment that is not the path's names (a query parameter, a payload's reference), expanded by the project's mappings and base. */
  resolve(project: ProjectState, segment: string): string {
    const id = this.kind.alias?.(segment) ?? resolveId(segment, project);
    if (id === undefined) throw this.kind.invalidId(segment);
    return id;
  }

  /** The project of an item named: a write needs it active, a read only existing. */
  opened(item: ItemRef, write: boolean): void {
    if (write) this.deps.projects.active(item.project);
    else this.deps.projects.fetch(item.project);
  }

  /** The item's state, or the kind's not-found rejection. */
  found(item: ItemRef, state: Versioned<V> | undefined): Versioned<V> {
    if (!state) throw this.kind.notFound(item.id, item.project);
    return state;
  }

  /** The revision of a state a selector names (the current one by default). */
  selected(state: Versioned<V>, selector: Selector = {}): Versioned<V> {
    const rev = selector.tag === undefined ? (selector.rev ?? state.rev) : state.tags[selector.tag];
    if (rev === undefined) throw rejections.tagNotFound(selector.tag!);
    const at = atRevision(state, rev);
    if (!at) throw rejections.revisionNotFound(rev, state.rev);
    return at;
  }

  /** Runs a command through the lifecycle (the item's log key, its org and project as the streams' scopes); the event appended, none for a no-op. */
  async append(state: Versioned<V> | undefined, cmd: C | TagCommand | DeprecateCommand): Promise<LogEvent | undefined> {
    const { id, project } = cmd;
    const [org] = project.split('/');
    return this.deps.lifecycle.run(this.kind, state, cmd, { key: this.kind.key(project, id), org: org!, project, projectSeen: cmd.projectSeen });
  }
}

/**
 * The steps that storages, resolvers and views take alike, their states held in process: find an
 * item its path named (resolved at the edge), read a revision by `rev` or `tag`, tag and deprecate
 * it, run a command through the lifecycle. Each service keeps what is its own (payload checks,
 * defaults, guards) and builds its other commands with `change`.
 */
export class VersionedItems<V, C extends CommandTarget> extends VersionedCommands<V, C> {
  constructor(
    kind: VersionedKind<V, C | TagCommand | DeprecateCommand>,
    private readonly held: VersionedDeps<V>,
  ) {
    super(kind, held);
  }

  exists(ref: ProjectRef, id: string): boolean {
    return this.held.states.has(this.kind.key(ref, id));
  }

  /** Refuses to create an item whose id is taken. */
  checkNew(ref: ProjectRef, id: string): void {
    if (this.exists(ref, id)) throw this.kind.alreadyExists(id, ref);
  }

  /** The item an update is for: a stale `rev` and a deprecated item are refused before the payload's own checks (Delta's order). */
  updatable(ref: ProjectRef, id: string, rev: number): Versioned<V> {
    const state = this.current(ref, id);
    if (rev !== state.rev) throw rejections.incorrectRev(rev, state.rev);
    if (state.deprecated) throw this.kind.isDeprecated(id);
    return state;
  }

  /** The current state of an item, or the kind's not-found rejection. */
  current(ref: ProjectRef, id: string): Versioned<V> {
    return this.found({ project: ref, id }, this.held.states.get(this.kind.key(ref, id)));
  }

  /** The item named; a write needs the project active, a read only existing. */
  located(item: ItemRef, write: boolean): Versioned<V> {
    this.opened(item, write);
    return this.current(item.project, item.id);
  }

  /** The revision a selector names (the current one by default). */
  fetch(item: ItemRef, selector: Selector = {}): Versioned<V> {
    return this.selected(this.located(item, false), selector);
  }

  tag(item: ItemRef, rev: number, tag: string, targetRev: number, caller: Caller): Promise<Versioned<V>> {
    return this.change(item, caller, (target) => ({ type: 'Tag', ...target, rev, tag, targetRev }));
  }

  deprecate(item: ItemRef, rev: number, caller: Caller): Promise<Versioned<V>> {
    return this.change(item, caller, (target) => ({ type: 'Deprecate', ...target, rev }));
  }

  /**
   * A command on an existing item: `check` runs on the item found before the command is built (a
   * kind's own refusal, the views' default views for instance).
   */
  async change(
    item: ItemRef,
    caller: Caller,
    command: (target: CommandTarget) => C | TagCommand | DeprecateCommand,
    check?: (state: Versioned<V>) => void,
  ): Promise<Versioned<V>> {
    const state = this.located(item, true);
    check?.(state);
    return this.run(state, command(this.target(item.project, state.id, caller)));
  }

  /** Runs a command through the lifecycle; resolves to the item after it. */
  async run(state: Versioned<V> | undefined, cmd: C | TagCommand | DeprecateCommand): Promise<Versioned<V>> {
    await this.append(state, cmd);
    return this.current(cmd.project, cmd.id);
  }
}

const objectPayload = (payload: unknown, noun: string): JsonObject => {
  if (!payload || typeof payload !== 'object' || Array.isArray(payload)) throw rejections.malformedContent(`A ${noun} payload must be a JSON object.`);
  return payload as JsonObject;
};
