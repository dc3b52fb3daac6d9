import type { Caller } from '../../kernel/Caller.js';
import type { Clock } from '../../kernel/Clock.js';
import type { ProjectRef } from '../../kernel/labels.js';
import type { JsonObject } from '../../kernel/json.js';
import { DEFAULT_STORAGE } from '../../kernel/vocabulary.js';
import type { Lifecycle } from '../Lifecycle.js';
import { rejections } from '../rejections.js';
import type { ProjectService } from '../projects/ProjectService.js';
import type { ProjectState } from '../projects/Project.js';
import { resolveId } from '../projects/apiMappings.js';
import type { Selector } from '../resources/ResourceService.js';
import { atRevision } from '../versioned.js';
import type { StorageCommand, StorageFields, StorageState } from './Storage.js';
import { storageDefinition } from './storageDefinition.js';
import { storageKey } from './storageKey.js';
import type { StorageDefaults } from './storagePayload.js';
import { payloadSecret, storageFields, withoutSecrets } from './storagePayload.js';
import { storageRejections } from './storageRejections.js';
import { storageExpanded } from './storageExpanded.js';
import { itemId } from '../itemId.js';

/** Encrypts secrets at rest (the storages' `secretKey` and `credentials`). */
export interface SecretBox {
  seal(plain: string): string;
  open(sealed: string): string;
}

/** Whether the service can use a storage (a writable volume, a reachable bucket): rejects with `StorageNotAccessible`. */
export type StorageAccess = (id: string, fields: StorageFields, secret: string | undefined) => Promise<void>;

export interface StorageDeps {
  states: ReadonlyMap<string, StorageState>;
  projects: ProjectService;
  lifecycle: Lifecycle;
  clock: Clock;
  defaults: StorageDefaults;
  secrets: SecretBox;
  access: StorageAccess;
  /** Checks an expanded storage against the storages shape (rejects with `InvalidStorage`). */
  validate(id: string, expanded: JsonObject[]): Promise<void>;
  /** The permissions of the permission set: storages may only name those. */
  permissions(): readonly string[];
}

/** Storages (spec §2.5, §4.4): create, update, tag, deprecate, fetch; keeps one default per project. */
export class StorageService {
  constructor(private readonly deps: StorageDeps) {}

  async create(ref: ProjectRef, idSegment: string | undefined, payload: unknown, caller: Caller): Promise<StorageState> {
    const project = this.deps.projects.active(ref);
    const source = objectPayload(payload);
    const id = this.idOf(project, idSegment, source);
    if (this.deps.states.has(storageKey(ref, id))) throw storageRejections.storageAlreadyExists(id, ref);
    const fields = await this.checked(id, source);
    const state = await this.run(undefined, { type: 'Create', ...this.target(ref, id, caller), fields, source: withoutSecrets(source) });
    if (fields.default) await this.unsetOtherDefaults(ref, id, caller);
    return state;
  }

  /** The default disk storage every new project gets (Delta's `diskStorageDefault`). */
  async createDefault(ref: ProjectRef, caller: Caller): Promise<StorageState> {
    const source = { '@id': DEFAULT_STORAGE, '@type': 'DiskStorage', default: true };
    const fields = storageFields(DEFAULT_STORAGE, source, this.deps.defaults);
    return this.run(undefined, { type: 'Create', ...this.target(ref, DEFAULT_STORAGE, caller), fields, source });
  }

  async update(ref: ProjectRef, idSegment: string, rev: number, payload: unknown, caller: Caller): Promise<StorageState> {
    const project = this.deps.projects.active(ref);
    const source = objectPayload(payload);
    const id = this.idOf(project, idSegment, source);
    const state = this.current(ref, id);
    // Revision and deprecation come before the payload's own checks (Delta's order).
    if (rev !== state.rev) throw rejections.incorrectRev(rev, state.rev);
    if (state.deprecated) throw storageRejections.storageIsDeprecated(id);
    const fields = await this.checked(id, source, state.value.fields.type);
    const updated = await this.run(state, { type: 'Update', ...this.target(ref, id, caller), rev, fields, source: withoutSecrets(source) });
    if (fields.default && !state.value.fields.default) await this.unsetOtherDefaults(ref, id, caller);
    return updated;
  }

  async tag(ref: ProjectRef, idSegment: string, rev: number, tag: string, targetRev: number, caller: Caller): Promise<StorageState> {
    const state = this.located(ref, idSegment, true);
    return this.run(state, { type: 'Tag', ...this.target(ref, state.id, caller), rev, tag, targetRev });
  }

  async deprecate(ref: ProjectRef, idSegment: string, rev: number, caller: Caller): Promise<StorageState> {
    const state = this.located(ref, idSegment, true);
    return this.run(state, { type: 'Deprecate', ...this.target(ref, state.id, caller), rev });
  }

  /** The revision a selector names (the current one by default). */
  fetch(ref: ProjectRef, idSegment: string, selector: Selector = {}): StorageState {
    const state = this.located(ref, idSegment, false);
    const rev = selector.tag === undefined ? (selector.rev ?? state.rev) : state.tags[selector.tag];
    if (rev === undefined) throw rejections.tagNotFound(selector.tag!);
    const at = atRevision(state, rev);
    if (!at) throw rejections.revisionNotFound(rev, state.rev);
    return at;
  }

  private target(ref: ProjectRef, id: string, caller: Caller) {
    return { id, project: ref, instant: this.deps.clock.now(), subject: caller.subject };
  }

  /** The storage named by a segment, or the project's default one when there is no segment. */
  forFiles(ref: ProjectRef, idSegment: string | undefined): StorageState {
    if (idSegment !== undefined) return this.located(ref, idSegment, false);
    const found = [...this.deps.states.values()].find((s) => s.project === ref && s.value.fields.default && !s.deprecated);
    if (!found) throw storageRejections.noDefaultStorage(ref);
    return found;
  }

  /** Every storage, current state, of a project. */
  ofProject(ref: ProjectRef): StorageState[] {
    return [...this.deps.states.values()].filter((s) => s.project === ref);
  }

  secretOf(state: StorageState): string | undefined {
    return state.value.fields.secret === undefined ? undefined : this.deps.secrets.open(state.value.fields.secret);
  }

  private async checked(id: string, source: JsonObject, expectedType?: string): Promise<StorageFields> {
    const fields = storageFields(id, source, this.deps.defaults);
    if (expectedType !== undefined && fields.type !== expectedType) throw storageRejections.differentStorageType(id, fields.type, expectedType);
    await this.deps.validate(id, storageExpanded(id, fields));
    const known = this.deps.permissions();
    const unknown = [fields.readPermission, fields.writePermission].filter((p) => !known.includes(p));
    if (unknown.length) throw storageRejections.permissionsAreNotDefined([...new Set(unknown)]);
    const secret = payloadSecret(source, fields.type, this.deps.defaults);
    await this.deps.access(id, fields, secret);
    return secret === undefined ? fields : { ...fields, secret: this.deps.secrets.seal(secret) };
  }

  /** A new default: the previous default storages of the project become non-default (Delta's `unsetPreviousDefaultIfRequired`). */
  private async unsetOtherDefaults(ref: ProjectRef, id: string, caller: Caller): Promise<void> {
    for (const other of this.ofProject(ref)) {
      if (other.id === id || other.deprecated || !other.value.fields.default) continue;
      await this.run(other, {
        type: 'Update',
        ...this.target(ref, other.id, caller),
        rev: other.rev,
        fields: { ...other.value.fields, default: false },
        source: { ...other.value.source, default: false },
      });
    }
  }

  private idOf(project: ProjectState, segment: string | undefined, source: JsonObject): string {
    return itemId(project, segment, source, rejections.invalidResourceId, () => this.deps.clock.uuid());
  }

  private current(ref: ProjectRef, id: string): StorageState {
    const state = this.deps.states.get(storageKey(ref, id));
    if (!state) throw storageRejections.storageNotFound(id, ref);
    return state;
  }

  private located(ref: ProjectRef, idSegment: string, write: boolean): StorageState {
    const project = write ? this.deps.projects.active(ref) : this.deps.projects.fetch(ref);
    const id = resolveId(idSegment, project);
    if (id === undefined) throw rejections.invalidResourceId(idSegment);
    return this.current(ref, id);
  }

  private async run(state: StorageState | undefined, cmd: StorageCommand): Promise<StorageState> {
    const [org] = cmd.project.split('/');
    await this.deps.lifecycle.run(storageDefinition, state, cmd, { key: storageKey(cmd.project, cmd.id), org: org!, project: cmd.project });
    return this.current(cmd.project, cmd.id);
  }
}

const objectPayload = (payload: unknown): JsonObject => {
  if (!payload || typeof payload !== 'object' || Array.isArray(payload)) throw rejections.malformedContent('A storage payload must be a JSON object.');
  return payload as JsonObject;
};
