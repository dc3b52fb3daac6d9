import type { EventDraft, LogEvent } from '../events/EventLog.js';
import { RevisionConflict, ScopeDeleted } from '../events/EventLog.js';
import type { CommandDefinition, DomainEvent } from './KindDefinition.js';
import type { EventWriter } from './EventWriter.js';
import { Rejection } from '../kernel/Rejection.js';
import { projectKey } from '../kernel/logKeys.js';
import type { ProjectRef } from '../kernel/labels.js';
import { rejections } from './rejections.js';
import { stateTemplate } from '../kernel/stateTemplate.js';

/** Where an event goes in the log: the item's key and the scopes its streams filter on. */
export interface Placement {
  key: string;
  org?: string;
  project?: string;
  /** The project's incarnation the write saw when it started (`ProjectState.createdSeq`): the log refuses it once the project was deleted after. */
  projectSeen?: number;
}

/** The item's state as the states hold it now, found from the draft of its next event. */
export type CurrentState = (draft: EventDraft) => Promise<unknown>;

/**
 * The state the draft leads from `previous` to, were it appended at `seq` (the kind's `next`): for
 * a log that keeps each item's latest state beside its events. Absent: the log keeps none.
 */
export type NextState = (draft: EventDraft, previous: unknown, seq: number) => unknown;

/** One command of a batch: the state it is evaluated against and where its event goes. */
export interface BatchCommand<S, C> {
  state: S | undefined;
  cmd: C;
  placement: Placement;
}

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
    private readonly nextState?: NextState,
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
      const draft = this.draft(definition, decision, placement, state);
      try {
        return await this.writer.append(draft, state?.rev ?? 0);
      } catch (error) {
        // The project was deleted while the write was in flight (its bytes streaming, its payload expanding).
        if (error instanceof ScopeDeleted) throw rejections.projectNotFound(placement.project ?? error.key);
        if (!(error instanceof RevisionConflict)) throw error;
        if (attempt >= ATTEMPTS) throw definition.conflict(state, cmd, error.actual);
        await this.writer.latest();
        const fresh = (await this.current(draft)) as S | undefined;
        // The states did not learn the winner's write (pruned, or the log answered differently): the log's word stands.
        if ((fresh?.rev ?? 0) !== error.actual) throw definition.conflict(state, cmd, error.actual);
        state = fresh;
      }
    }
  }

  /**
   * Many commands, each judged on its own, appended in one write: a rejection answers its command
   * alone. A command that lost a race (its item moved on since its state was read) is run again
   * alone, as `run` does, once the batch is written. Outcomes at the commands' indexes: the logged
   * event, undefined (nothing changed) or the rejection. Keys must be distinct within a batch.
   */
  async runBatch<S extends { rev: number }, C, E extends DomainEvent & { rev: number }>(
    definition: CommandDefinition<S, C, E>,
    commands: readonly BatchCommand<S, C>[],
  ): Promise<(LogEvent | undefined | Rejection)[]> {
    const outcomes: (LogEvent | undefined | Rejection)[] = new Array(commands.length);
    const entries: { index: number; draft: EventDraft; expectedRev: number }[] = [];
    commands.forEach(({ state, cmd, placement }, index) => {
      const decision = definition.evaluate(state, cmd);
      if (decision instanceof Rejection) outcomes[index] = decision;
      else if (decision === null) outcomes[index] = undefined;
      else entries.push({ index, draft: this.draft(definition, decision, placement, state), expectedRev: state?.rev ?? 0 });
    });
    const appended = await this.writer.appendBatch(entries);
    const raced: number[] = [];
    appended.forEach((outcome, i) => {
      const { index } = entries[i]!;
      if (outcome instanceof ScopeDeleted) outcomes[index] = rejections.projectNotFound(commands[index]!.placement.project ?? outcome.key);
      else if (outcome instanceof RevisionConflict) raced.push(index);
      else outcomes[index] = outcome;
    });
    if (raced.length) await this.writer.latest();
    for (const index of raced) {
      const { cmd, placement } = commands[index]!;
      const fresh = (await this.current(entries.find((e) => e.index === index)!.draft)) as S | undefined;
      outcomes[index] = await this.run(definition, fresh, cmd, placement).catch((error: unknown) => {
        if (error instanceof Rejection) return error;
        throw error;
      });
    }
    return outcomes;
  }

  private draft<S, C, E extends DomainEvent & { rev: number }>(
    definition: CommandDefinition<S, C, E>,
    decision: E,
    placement: Placement,
    previous: S | undefined,
  ): EventDraft {
    const rev = definition.revAfter ? definition.revAfter(decision) : decision.rev;
    const { projectSeen, ...where } = placement;
    const draft: EventDraft = {
      ...where,
      kind: definition.kind,
      rev,
      event: definition.logged ? definition.logged(decision) : decision,
      ...(projectSeen !== undefined && where.project !== undefined ? { within: { key: projectKey(where.project as ProjectRef), since: projectSeen } } : {}),
    };
    // The log appends the event and the state it leads to in one step: the state is exact because
    // the log appends only onto the revision `previous` has.
    const { nextState } = this;
    const state = nextState && rev !== 0 ? stateTemplate((seq) => nextState(draft, previous, seq)) : undefined;
    return state ? { ...draft, state } : draft;
  }
}
