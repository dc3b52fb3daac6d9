/**
 * The state an event leads to, as JSON text with a hole wherever the event's own log position
 * appears (a state may record the position of its content or of its creation): the writer knows
 * the state but not the position, which the log assigns when it appends. The log fills each hole
 * with the position in the same atomic step (`table.concat(parts, seq)` in the Redis script).
 */
export type StateTemplate = readonly string[];

/** Two positions no log reaches, of equal length: where the two renderings differ, the position stands. */
const A = 9_000_000_000_000_001;
const B = 9_000_000_000_000_002;
const WIDTH = String(A).length;

/**
 * The template of `next(seq)`, found by rendering it at two positions and cutting where they differ
 * (so a payload holding the same digits is never mistaken for the position). Undefined when the
 * item is gone (no state to keep).
 */
export const stateTemplate = (next: (seq: number) => unknown): StateTemplate | undefined => {
  const first = next(A);
  if (first === undefined) return undefined;
  const a = JSON.stringify(first);
  const b = JSON.stringify(next(B));
  if (a.length !== b.length) throw new Error('the state is not a function of the position alone');
  const parts: string[] = [];
  let from = 0;
  for (let i = 0; i < a.length; i++) {
    if (a.charCodeAt(i) === b.charCodeAt(i)) continue;
    // The last digit differs: the position is the WIDTH digits ending here.
    const start = i - WIDTH + 1;
    if (start < from || a.slice(start, i + 1) !== String(A)) throw new Error('the state is not a function of the position alone');
    parts.push(a.slice(from, start));
    from = i + 1;
  }
  parts.push(a.slice(from));
  return parts;
};

/** The state a template describes at `seq` (what the log's script writes). */
export const fillTemplate = (parts: StateTemplate, seq: number): string => parts.join(String(seq));
