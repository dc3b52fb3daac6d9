import type { LogEvent } from '../events/EventLog.js';
import { EventLogUnavailable } from '../events/EventLog.js';
import type { ItemStates } from '../events/ItemStates.js';
import type { RedisEventLog } from '../events/RedisEventLog.js';
import { EmbeddedItemStates } from '../projection/EmbeddedItemStates.js';
import type { States } from '../projection/States.js';

/**
 * The items' latest states the write path and fetches read. On Redis, those the log keeps beside its
 * events, through a bounded cache the fold of the log keeps true (`observe`, for every event it
 * passes); embedded, the states the projector folds in process.
 */
export const openItemStates = (
  redis: RedisEventLog | undefined,
  states: States,
  capacity: number,
): { itemStates: ItemStates; observe?: (logged: LogEvent) => void } => {
  const own = new EmbeddedItemStates(states);
  if (!redis) return { itemStates: own };
  const shared = redis.itemStates(
    (kind, events) => {
      const definition = states.definitionOf(kind);
      return definition && events.reduce<unknown>((state, event) => definition.next(state, event), undefined);
    },
    capacity,
    // While Redis is away, reads of the kinds this replica holds answer from its own fold; those of
    // the shared kinds, which no replica holds, fail as the log does.
    (kind, keys) => {
      const definition = states.definitionOf(kind);
      if (definition && !states.holds(definition)) throw new EventLogUnavailable(`the event log's Redis is unreachable; ${kind} are kept there only`);
      return own.now(kind, keys);
    },
  );
  return { itemStates: shared, observe: (logged) => shared.observe(logged) };
};
