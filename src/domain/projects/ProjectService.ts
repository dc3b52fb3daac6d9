import type { Addresses } from '../../kernel/Addresses.js';
import type { Caller } from '../../kernel/Caller.js';
import type { Clock } from '../../kernel/Clock.js';
import type { Lifecycle } from '../Lifecycle.js';
import type { ProjectRef } from '../../kernel/labels.js';
import { checkLabel } from '../checkLabel.js';
import { projectRef } from '../../kernel/labels.js';
import { rejections } from '../rejections.js';
import type { OrgService } from '../orgs/OrgService.js';
import type { ApiMapping, ProjectCommand, ProjectFields, ProjectState } from './Project.js';
import { projectDefinition } from './projectDefinition.js';
import { isIri } from './apiMappings.js';
import { projectKey } from '../../kernel/logKeys.js';
import { revisionOf } from '../earlierRevisions.js';

export interface ProjectStates {
  get(ref: ProjectRef): ProjectState | undefined;
  values(): IterableIterator<ProjectState>;
}

/** What a project holds beyond its own state, for its permanent deletion. */
export interface ProjectContents {
  /** The log keys of every item in the project. */
  keys(ref: ProjectRef): Promise<string[]>;
  /** Prepares the removal of its files' bytes (read before the deletion), run after it. */
  bytes(ref: ProjectRef): Promise<() => Promise<void>>;
  /**
   * Resolves once what must read the project's items at its deletion has (the shared store's
   * writer folding it: the items' states are pruned next, and a writer behind would find none to
   * remove from the store).
   */
  folded?(seq: number): Promise<void>;
  /** Blanks a key's events before the deletion marker (`EventWriter.prune`). */
  prune(key: string, beforeSeq: number): Promise<void>;
  /** Removes what the project keeps outside the log (its archives), once its deletion is durable. */
  forget(ref: ProjectRef): Promise<void>;
}

export class ProjectService {
  constructor(
    private readonly states: ProjectStates,
    private readonly orgs: OrgService,
    private readonly lifecycle: Lifecycle,
    private readonly clock: Clock,
    private readonly addresses: Addresses,
    /** What follows a project's creation (its default storage). */
    private readonly created: (ref: ProjectRef, caller: Caller) => Promise<void> = async () => undefined,
    private readonly contents: ProjectContents = {
      keys: async () => [],
      bytes: async () => async () => undefined,
      prune: async () => undefined,
      forget: async () => undefined,
    },
  ) {}

  /**
   * Permanent deletion (`prune=true`): one event, `ProjectMarkedForDeletion`, from which every
   * projection removes the project, its items and the ACL on its path; then the log's events of
   * the project and of all these are blanked, its files' bytes removed and its archives forgotten. The label can then be used again.
   * Resolves to the project as the deletion left it (its last revision, marked for deletion).
   */
  async delete(org: string, label: string, rev: number, caller: Caller): Promise<ProjectState> {
    const ref = projectRef(org, label);
    const state = this.fetch(ref);
    // Read before the event: once it is projected, the items' states are gone.
    const keys = await this.contents.keys(ref);
    const removeBytes = await this.contents.bytes(ref);
    const instant = this.clock.now();
    const logged = await this.lifecycle.run(
      projectDefinition,
      state,
      { type: 'Delete', org, label, rev, instant, subject: caller.subject },
      {
        key: projectKey(ref),
        org,
        project: ref,
      },
    );
    if (logged) {
      await this.contents.folded?.(logged.seq);
      for (const key of [projectKey(ref), ...keys]) await this.contents.prune(key, logged.seq);
    }
    await removeBytes();
    await this.contents.forget(ref);
    const { earlier: _earlier, ...last } = state;
    return { ...last, rev: state.rev + 1, updatedAt: instant, updatedBy: caller.subject };
  }

  /** The project, at revision `rev` when given. */
  fetch(ref: ProjectRef, rev?: number): ProjectState {
    const state = this.states.get(ref);
    if (!state) throw rejections.projectNotFound(ref);
    return revisionOf(state, rev);
  }

  /** A project that accepts writes: it and its organization exist and are not deprecated. */
  active(ref: ProjectRef): ProjectState {
    const state = this.fetch(ref);
    this.orgs.active(state.org);
    if (state.deprecated) throw rejections.projectIsDeprecated(ref);
    return state;
  }

  list(org?: string): ProjectState[] {
    return [...this.states.values()]
      .filter((p) => org === undefined || p.org === org)
      .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.org.localeCompare(b.org) || a.label.localeCompare(b.label));
  }

  async create(org: string, label: string, payload: unknown, caller: Caller): Promise<ProjectState> {
    checkLabel(label);
    const orgState = this.orgs.active(org);
    const fields = this.fields(org, label, payload);
    const project = await this.run({
      type: 'Create',
      org,
      label,
      uuid: this.clock.uuid(),
      orgUuid: orgState.uuid,
      fields,
      instant: this.clock.now(),
      subject: caller.subject,
    });
    await this.created(projectRef(org, label), caller);
    return project;
  }

  async update(org: string, label: string, rev: number, payload: unknown, caller: Caller): Promise<ProjectState> {
    this.orgs.active(org);
    return this.run({ type: 'Update', org, label, rev, fields: this.fields(org, label, payload), instant: this.clock.now(), subject: caller.subject });
  }

  async deprecate(org: string, label: string, rev: number, caller: Caller): Promise<ProjectState> {
    this.orgs.active(org);
    return this.run({ type: 'Deprecate', org, label, rev, instant: this.clock.now(), subject: caller.subject });
  }

  private async run(cmd: ProjectCommand): Promise<ProjectState> {
    const ref = projectRef(cmd.org, cmd.label);
    await this.lifecycle.run(projectDefinition, this.states.get(ref), cmd, { key: projectKey(ref), org: cmd.org, project: ref });
    return this.fetch(ref);
  }

  /** The project's fields with the defaults of the wire format filled in. */
  private fields(org: string, label: string, payload: unknown): ProjectFields {
    const body = (payload ?? {}) as Record<string, unknown>;
    if (typeof body !== 'object' || Array.isArray(body)) throw rejections.malformedContent('The project payload must be a JSON object.');
    const { description, base, vocab, apiMappings } = body;
    if (description !== undefined && typeof description !== 'string') throw rejections.malformedContent("'description' must be a string.");
    const iriField = (name: string, value: unknown, fallback: string): string => {
      if (value === undefined) return fallback;
      if (typeof value !== 'string' || !isIri(value)) throw rejections.malformedContent(`'${name}' must be an absolute IRI.`);
      return value;
    };
    return {
      ...(description === undefined ? {} : { description }),
      base: iriField('base', base, this.addresses.projectDefaults(org, label).base),
      vocab: iriField('vocab', vocab, this.addresses.projectDefaults(org, label).vocab),
      apiMappings: mappings(apiMappings),
    };
  }
}

const mappings = (value: unknown): ApiMapping[] => {
  if (value === undefined) return [];
  const bad = () => rejections.malformedContent('\'apiMappings\' must be an array of {"prefix": string, "namespace": IRI}.');
  if (!Array.isArray(value)) throw bad();
  return value.map((m) => {
    if (!m || typeof m !== 'object' || typeof m.prefix !== 'string' || !m.prefix || typeof m.namespace !== 'string' || !isIri(m.namespace)) throw bad();
    return { prefix: m.prefix, namespace: m.namespace };
  });
};
