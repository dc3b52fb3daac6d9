import type { Caller } from '../../kernel/Caller.js';
import type { Clock } from '../Clock.js';
import type { EventWriter } from '../EventWriter.js';
import { checkLabel } from '../labels.js';
import { rejections } from '../rejections.js';
import { Rejection } from '../Rejection.js';
import type { OrgCommand, OrgState } from './Org.js';
import { evaluateOrg } from './Org.js';
import { orgKey } from '../../kernel/logKeys.js';

export interface OrgStates {
  get(label: string): OrgState | undefined;
  values(): IterableIterator<OrgState>;
}

export class OrgService {
  constructor(
    private readonly states: OrgStates,
    private readonly writer: EventWriter,
    private readonly clock: Clock,
  ) {}

  fetch(label: string): OrgState {
    const state = this.states.get(label);
    if (!state) throw rejections.organizationNotFound(label);
    return state;
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
    return this.run({ type: 'Create', label, uuid: this.clock.uuid(), description, instant: this.clock.now(), subject: caller.subject }, 0);
  }

  update(label: string, rev: number, description: string | undefined, caller: Caller): Promise<OrgState> {
    return this.run({ type: 'Update', label, rev, description, instant: this.clock.now(), subject: caller.subject }, rev);
  }

  deprecate(label: string, rev: number, caller: Caller): Promise<OrgState> {
    return this.run({ type: 'Deprecate', label, rev, instant: this.clock.now(), subject: caller.subject }, rev);
  }

  private async run(cmd: OrgCommand, provided: number): Promise<OrgState> {
    const state = this.states.get(cmd.label);
    const event = evaluateOrg(state, cmd);
    if (event instanceof Rejection) throw event;
    await this.writer.write({ key: orgKey(cmd.label), kind: 'orgs', org: cmd.label, rev: event.rev, event }, state?.rev ?? 0, (actual) =>
      state ? rejections.incorrectRev(provided, actual) : rejections.organizationAlreadyExists(cmd.label),
    );
    return this.fetch(cmd.label);
  }
}
