import type { Caller } from '../../kernel/Caller.js';
import type { Clock } from '../../kernel/Clock.js';
import type { Lifecycle } from '../Lifecycle.js';
import { checkLabel } from '../checkLabel.js';
import { rejections } from '../rejections.js';
import type { OrgCommand, OrgState } from './Org.js';
import { orgDefinition } from './orgDefinition.js';
import { orgKey } from '../../kernel/logKeys.js';
import { revisionOf } from '../earlierRevisions.js';

export interface OrgStates {
  get(label: string): OrgState | undefined;
  values(): IterableIterator<OrgState>;
}

export class OrgService {
  constructor(
    private readonly states: OrgStates,
    private readonly lifecycle: Lifecycle,
    private readonly clock: Clock,
  ) {}

  /** The organization, at revision `rev` when given. */
  fetch(label: string, rev?: number): OrgState {
    const state = this.states.get(label);
    if (!state) throw rejections.organizationNotFound(label);
    return revisionOf(state, rev);
  }

  /** An organization that accepts writes below it. */
  active(label: string): OrgState {
    const state = this.fetch(label);
    if (state.deprecated) throw rejections.organizationIsDeprecated(label);
    return state;
  }

  list(): OrgState[] {
    return [...this.states.values()].sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.label.localeCompare(b.label));
  }

  create(label: string, description: string | undefined, caller: Caller): Promise<OrgState> {
    checkLabel(label);
    return this.run({ type: 'Create', label, uuid: this.clock.uuid(), description, instant: this.clock.now(), subject: caller.subject });
  }

  update(label: string, rev: number, description: string | undefined, caller: Caller): Promise<OrgState> {
    return this.run({ type: 'Update', label, rev, description, instant: this.clock.now(), subject: caller.subject });
  }

  deprecate(label: string, rev: number, caller: Caller): Promise<OrgState> {
    return this.run({ type: 'Deprecate', label, rev, instant: this.clock.now(), subject: caller.subject });
  }

  private async run(cmd: OrgCommand): Promise<OrgState> {
    await this.lifecycle.run(orgDefinition, this.states.get(cmd.label), cmd, { key: orgKey(cmd.label), org: cmd.label });
    return this.fetch(cmd.label);
  }
}
