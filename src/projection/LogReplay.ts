import type { EventLog, LogEvent } from '../events/EventLog.js';
import type { ChangeReplay, FeedRead } from './ChangeFeed.js';
import type { Change } from './Projection.js';
import type { RevisionProjection } from './RevisionProjection.js';
import type { States } from './States.js';

/**
 * Makes the changes of a stretch of the log again, as the states' fold made them, for a runner
 * behind the feed's window: each event is folded from its item's state just before it, which the
 * item's own history in the log gives (the states held in memory are ahead of it). Nothing of it
 * outlives a read: a lagging runner costs a batch of changes, never a copy of the states.
 */
export class LogReplay implements ChangeReplay {
  constructor(
    private readonly log: EventLog,
    private readonly states: States,
    private readonly revisions: RevisionProjection,
  ) {}

  async changes(after: number, until: number, limit: number, pinned: (seq: number) => readonly Change[] | undefined): Promise<FeedRead> {
    const read = await this.log.read(after, limit);
    const events = read.filter((e) => e.seq <= until);
    // A full read may stop before `until`; otherwise every event up to it was read (pruned ones are gaps).
    const through = read.length === limit && events.length === read.length ? events[events.length - 1]!.seq : until;
    const before = await this.statesBefore(events, pinned);
    const changes: Change[] = [];
    for (const logged of events) {
      const kept = pinned(logged.seq);
      if (kept) {
        changes.push(...kept);
        for (const change of kept) before.set(change.logged.key, change.next);
        continue;
      }
      const definition = this.states.definitionOf(logged.kind);
      if (!definition) continue;
      const previous = before.get(logged.key);
      const next = definition.next(previous, logged);
      before.set(logged.key, next);
      if (next === undefined && previous === undefined) continue;
      const triples = await this.revisions.replayed({ definition, logged, previous, next });
      changes.push(triples === undefined ? { definition, logged, previous, next } : { definition, logged, previous, next, triples });
    }
    return { changes, through };
  }

  /** Each item's state before the first of `events` that touches it, folded from its history in the log. */
  private async statesBefore(events: readonly LogEvent[], pinned: (seq: number) => unknown): Promise<Map<string, unknown>> {
    const first = new Map<string, LogEvent>();
    for (const event of events) if (!first.has(event.key) && !pinned(event.seq) && this.states.definitionOf(event.kind)) first.set(event.key, event);
    const states = new Map<string, unknown>();
    await Promise.all(
      [...first.values()].map(async (event) => {
        const definition = this.states.definitionOf(event.kind)!;
        let state: unknown;
        for (const earlier of await this.log.history(event.key, event.seq - 1)) state = definition.next(state, earlier);
        states.set(event.key, state);
      }),
    );
    return states;
  }
}
