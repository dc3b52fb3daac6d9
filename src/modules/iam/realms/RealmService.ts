import type { Rejection } from '../../../kernel/Rejection.js';
import type { RealmDiscovery } from '../RealmDiscovery.js';
import { authRejections } from '../../../kernel/authRejections.js';
import type { Caller } from '../../../kernel/Caller.js';
import type { Clock } from '../../../kernel/Clock.js';
import { realmKey } from '../../../kernel/logKeys.js';
import { checkLabel } from '../../../domain/checkLabel.js';
import type { Lifecycle } from '../../../domain/Lifecycle.js';
import type { RealmCommand, RealmEvent, RealmFields, RealmState } from './Realm.js';
import { evaluateRealm } from './Realm.js';
import { realmConflict } from './realmDefinition.js';
import { revisionOf } from '../../../domain/earlierRevisions.js';

/** Realms: created and updated from their provider's discovery document, deprecated with `rev`. */
export class RealmService {
  constructor(
    private readonly states: ReadonlyMap<string, RealmState>,
    private readonly lifecycle: Lifecycle,
    private readonly discovery: Pick<RealmDiscovery, 'resolve'>,
    private readonly clock: Clock,
  ) {}

  /** The realm, at revision `rev` when given. */
  fetch(label: string, rev?: number): RealmState {
    const state = this.states.get(label);
    if (!state) throw authRejections.realmNotFound(label);
    return revisionOf(state, rev);
  }

  list(): RealmState[] {
    return [...this.states.values()].sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.label.localeCompare(b.label));
  }

  async create(label: string, fields: RealmFields, caller: Caller): Promise<RealmState> {
    checkLabel(label);
    // Refused before the provider is asked: a clear answer without a network round trip.
    if (this.states.has(label)) throw authRejections.realmAlreadyExists(label);
    const { wellKnown } = await this.discovery.resolve(fields);
    return this.run({ type: 'Create', label, fields, wellKnown, ...this.at(caller) });
  }

  async update(label: string, rev: number, fields: RealmFields, caller: Caller): Promise<RealmState> {
    this.fetch(label);
    const { wellKnown } = await this.discovery.resolve(fields);
    return this.run({ type: 'Update', label, rev, fields, wellKnown, ...this.at(caller) });
  }

  deprecate(label: string, rev: number, caller: Caller): Promise<RealmState> {
    return this.run({ type: 'Deprecate', label, rev, ...this.at(caller) });
  }

  private at(caller: Caller) {
    return { instant: this.clock.now(), subject: caller.subject };
  }

  private async run(cmd: RealmCommand): Promise<RealmState> {
    const configs = new Map([...this.states.values()].map((r) => [r.openIdConfig, r.label]));
    const definition = {
      kind: 'realms' as const,
      evaluate: (state: RealmState | undefined, c: RealmCommand): RealmEvent | Rejection => evaluateRealm(state, c, configs),
      conflict: realmConflict,
    };
    await this.lifecycle.run(definition, this.states.get(cmd.label), cmd, { key: realmKey(cmd.label) });
    return this.fetch(cmd.label);
  }
}
