import type { EventDraft, EventLog, LogEvent } from '../events/EventLog.js';
import { RevisionConflict } from '../events/EventLog.js';
import type { Rejection } from '../kernel/Rejection.js';

/**
 * Appends an evaluated event and waits until this process has projected it, so the caller reads
 * its own write. A revision conflict in the log (another writer got there first) becomes the
 * rejection the caller names for it.
 */
export class EventWriter {
  constructor(
    private readonly log: EventLog,
    private readonly projector: { catchUp(seq: number): Promise<void> },
  ) {}

  async write(draft: EventDraft, expectedRev: number, conflict: (actualRev: number) => Rejection): Promise<LogEvent> {
    let logged: LogEvent;
    try {
      logged = await this.log.append(draft, expectedRev);
    } catch (error) {
      if (error instanceof RevisionConflict) throw conflict(error.actual);
      throw error;
    }
    await this.projector.catchUp(logged.seq);
    return logged;
  }

  /** Removes an item's events before `seq` (its deletion marker) from the log. */
  prune(key: string, seq: number): Promise<void> {
    return this.log.prune(key, seq);
  }
}
