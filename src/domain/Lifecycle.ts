import type { LogEvent } from '../events/EventLog.js';
import type { CommandDefinition, DomainEvent } from './KindDefinition.js';
import type { EventWriter } from './EventWriter.js';
import { Rejection } from '../kernel/Rejection.js';

/** Where an event goes in the log: the item's key and the scopes its streams filter on. */
export interface Placement {
  key: string;
  org?: string;
  project?: string;
}

/**
 * The one write step of every kind: evaluate the command against the current state, append the
 * event with the state's revision as the expected one (a lost race becomes the kind's conflict
 * rejection), and wait until this process has projected it, so the caller reads its own write.
 * Resolves to the logged event, or undefined when the command changes nothing.
 */
export class Lifecycle {
  constructor(private readonly writer: EventWriter) {}

  async run<S extends { rev: number }, C, E extends DomainEvent & { rev: number }>(
    definition: CommandDefinition<S, C, E>,
    state: S | undefined,
    cmd: C,
    placement: Placement,
    /** Checks the event must pass before it is appended (capacity, for instance). */
    admit?: (event: E) => Promise<void>,
  ): Promise<LogEvent | undefined> {
    const decision = definition.evaluate(state, cmd);
    if (decision instanceof Rejection) throw decision;
    if (decision === null) return undefined;
    await admit?.(decision);
    const rev = definition.revAfter ? definition.revAfter(decision) : decision.rev;
    return this.writer.write(
      { ...placement, kind: definition.kind, rev, event: definition.logged ? definition.logged(decision) : decision },
      state?.rev ?? 0,
      (actual) => definition.conflict(state, cmd, actual),
    );
  }
}
