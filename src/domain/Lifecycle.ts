import type { EventDraft, LogEvent } from '../events/EventLog.js';
import { RevisionConflict, ScopeDeleted } from '../events/EventLog.js';
import type { CommandDefinition, DomainEvent } from './KindDefinition.js';
import type { EventWriter } from './EventWriter.js';
import { Rejection } from '../kernel/Rejection.js';
import { projectKey } from '../kernel/logKeys.js';
import type { ProjectRef } from '../kernel/labels.js';
import { rejections } from './rejections.js';

/** Where an event goes in the log: the item's key and the scopes its streams filter on. */
export interface Placement {
  key: string;
  org?: string;
  project?: string;
  /** The project's incarnation the write saw when it started (`ProjectState.createdSeq`): the log refuses it once the project was deleted after. */
  projectSeen?: number;
}

/** The item's state as the states hold it now, found from the draft of its next event. */
export type CurrentState = (draft: EventDraft) => unknown;

/** Races lost in a row before the log's revision is reported as the conflict. */
const ATTEMPTS = 3;

/**
 * The one write step of every kind: evaluate the command against the current state and append the
 * event with the state's revision as the expected one. The log is the judge of `rev`: when it
 * refuses (another replica appended first), the states are brought up to the log head and the
 * command is evaluated again, so a client whose `rev` is right is never refused because this
 * replica had not yet seen the last write, and one whose `rev` is wrong gets the kind's rejection.
 * Resolves to the logged event, or undefined when the command changes nothing.
 */
export class Lifecycle {
  constructor(
    private readonly writer: EventWriter,
    private readonly current: CurrentState,
  ) {}

  async run<S extends { rev: number }, C, E extends DomainEvent & { rev: number }>(
    definition: CommandDefinition<S, C, E>,
    state: S | undefined,
    cmd: C,
    placement: Placement,
    /** Checks the event must pass before it is appended (capacity, for instance). */
    admit?: (event: E) => Promise<void>,
  ): Promise<LogEvent | undefined> {
    for (let attempt = 1; ; attempt++) {
      const decision = definition.evaluate(state, cmd);
      if (decision instanceof Rejection) throw decision;
      if (decision === null) return undefined;
      await admit?.(decision);
      const rev = definition.revAfter ? definition.revAfter(decision) : decision.rev;
      const { projectSeen, ...where } = placement;
      const draft: EventDraft = {
        ...where,
        kind: definition.kind,
        rev,
        event: definition.logged ? definition.logged(decision) : decision,
        ...(projectSeen !== undefined && where.project !== undefined ? { within: { key: projectKey(where.project as ProjectRef), since: projectSeen } } : {}),
      };
      try {
        return await this.writer.append(draft, state?.rev ?? 0);
      } catch (error) {
        // The project was deleted while the write was in flight (its bytes streaming, its payload expanding).
        if (error instanceof ScopeDeleted) throw rejections.projectNotFound(where.project ?? error.key);
        if (!(error instanceof RevisionConflict)) throw error;
        if (attempt >= ATTEMPTS) throw definition.conflict(state, cmd, error.actual);
        await this.writer.latest();
        const fresh = this.current(draft) as S | undefined;
        // The states did not learn the winner's write (pruned, or the log answered differently): the log's word stands.
        if ((fresh?.rev ?? 0) !== error.actual) throw definition.conflict(state, cmd, error.actual);
        state = fresh;
      }
    }
  }
}
