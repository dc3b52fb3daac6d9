import type { LogEvent } from '../events/EventLog.js';

/**
 * A logged event as its kind's own event: the log keeps each event as the kind's `evaluate` made it
 * (and as its definition's `logged` names it), so the event a kind folds or renders is of its type.
 */
export const eventOf = <E>(logged: LogEvent): E => logged.event as unknown as E;
