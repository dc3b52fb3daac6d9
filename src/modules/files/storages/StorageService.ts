import type { Caller } from '../../../kernel/Caller.js';
import type { ItemRef, ItemTarget } from '../../../kernel/ItemRef.js';
import type { ProjectRef } from '../../../kernel/labels.js';
import type { JsonObject } from '../../../kernel/json.js';
import { DEFAULT_STORAGE } from '../../../kernel/vocabulary.js';
import type { Selector } from '../../../domain/resources/resourcePorts.js';
import type { VersionedDeps } from '../../../domain/VersionedItems.js';
import { VersionedItems } from '../../../domain/VersionedItems.js';
import type { StorageCommand, StorageFields, StorageState, StorageValue } from './Storage.js';
import { storageDefinition } from './storageDefinition.js';
import type { StorageDefaults } from './storagePayload.js';
import { payloadSecret, storageFields, withoutSecrets } from './storagePayload.js';
import { storageRejections } from './storageRejections.js';
import { storageExpanded } from './storageExpanded.js';

/** Encrypts secrets at rest (the storages' `secretKey` and `credentials`). */
export interface SecretBox {
  seal(plain: string): string;
  open(sealed: string): string;
}

/** Whether the service can use a storage (a writable volume, a reachable bucket): rejects with `StorageNotAccessible`. */
export type StorageAccess = (id: string, fields: StorageFields, secret: string | undefined) => Promise<void>;

export interface StorageDeps extends VersionedDeps<StorageValue> {
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
  private readonly items: VersionedItems<StorageValue, StorageCommand>;

  constructor(private readonly deps: StorageDeps) {
    this.items = new VersionedItems(storageDefinition, deps);
  }

  async create(item: ItemTarget, payload: unknown, caller: Caller): Promise<StorageState> {
    const ref = item.project;
    const { source, id } = this.items.incoming(item, payload);
    this.items.checkNew(ref, id);
    const fields = await this.checked(id, source);
    const state = await this.items.run(undefined, { type: 'Create', ...this.items.target(ref, id, caller), fields, source: withoutSecrets(source) });
    if (fields.default) await this.unsetOtherDefaults(ref, id, caller);
    return state;
  }

  /** The default disk storage every new project gets (Delta's `diskStorageDefault`). */
  async createDefault(ref: ProjectRef, caller: Caller): Promise<StorageState> {
    const source = { '@id': DEFAULT_STORAGE, '@type': 'DiskStorage', default: true };
    const fields = storageFields(DEFAULT_STORAGE, source, this.deps.defaults);
    return this.items.run(undefined, { type: 'Create', ...this.items.target(ref, DEFAULT_STORAGE, caller), fields, source });
  }

  async update(item: ItemRef, rev: number, payload: unknown, caller: Caller): Promise<StorageState> {
    const ref = item.project;
    const { source, id } = this.items.incoming(item, payload);
    const state = this.items.updatable(ref, id, rev);
    const fields = await this.checked(id, source, state.value.fields.type);
    const updated = await this.items.run(state, { type: 'Update', ...this.items.target(ref, id, caller), rev, fields, source: withoutSecrets(source) });
    if (fields.default && !state.value.fields.default) await this.unsetOtherDefaults(ref, id, caller);
    return updated;
  }

  tag(item: ItemRef, rev: number, tag: string, targetRev: number, caller: Caller): Promise<StorageState> {
    return this.items.tag(item, rev, tag, targetRev, caller);
  }

  deprecate(item: ItemRef, rev: number, caller: Caller): Promise<StorageState> {
    return this.items.deprecate(item, rev, caller);
  }

  /** The revision a selector names (the current one by default). */
  fetch(item: ItemRef, selector: Selector = {}): StorageState {
    return this.items.fetch(item, selector);
  }

  /** The storage a file's `?storage=` names (a query parameter, resolved as a path's id would be), or the project's default one when none. */
  forFiles(ref: ProjectRef, named: string | undefined): StorageState {
    if (named !== undefined) return this.items.located({ project: ref, id: this.items.resolve(this.deps.projects.fetch(ref), named) }, false);
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
      await this.items.run(other, {
        type: 'Update',
        ...this.items.target(ref, other.id, caller),
        rev: other.rev,
        fields: { ...other.value.fields, default: false },
        source: { ...other.value.source, default: false },
      });
    }
  }
}
