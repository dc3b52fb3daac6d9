import type { KindDefinition } from '../domain/KindDefinition.js';
import type { EventLog } from '../events/EventLog.js';
import { learnTerms } from './learnTerms.js';
import type { TermDictionary } from './TermDictionary.js';

/**
 * Learns the terms again from the start of the log up to `upTo`, folding the listed kinds' states
 * privately as the catalogue saw them change: for a start whose persisted terms are missing or
 * behind the states' snapshot (a crash between a snapshot and the next save of the terms), since the
 * changes between are folded into the snapshot and no feed holds them any more. The private states
 * live only while it runs.
 */
export const relearnTerms = async (log: Pick<EventLog, 'read'>, definitions: readonly KindDefinition[], terms: TermDictionary, upTo: number): Promise<void> => {
  terms.replace({ position: 0, terms: {} });
  const states = new Map(
    definitions.filter((d) => d.listed && d.revision).map((d) => [d.kind as string, { definition: d, items: new Map<string, unknown>() }]),
  );
  let after = 0;
  while (after < upTo) {
    const events = await log.read(after, 1000);
    if (!events.length) break;
    for (const logged of events) {
      if (logged.seq > upTo) break;
      const folded = states.get(logged.kind);
      if (!folded) continue;
      const key = folded.definition.stateKey(logged);
      const previous = folded.items.get(key);
      const next = folded.definition.next(previous, logged);
      if (next === undefined) folded.items.delete(key);
      else folded.items.set(key, next);
      learnTerms(terms, { definition: folded.definition, previous, next, logged });
    }
    after = events[events.length - 1]!.seq;
  }
  terms.pass(upTo);
};
