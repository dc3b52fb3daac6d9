/**
 * Everything a restart needs besides the log: the folded states of every kind (under the kind's
 * name; a kind registered after the snapshot was taken is absent) and how far the revision file goes.
 */
export interface Snapshot {
  version: 1;
  seq: number;
  revisionBytes: number;
  states: Record<string, unknown[]>;
}

/** `terms`: kept by snapshots taken before the catalogue persisted them itself, and ignored. */
const HEADER = new Set(['version', 'seq', 'revisionBytes', 'terms']);

/**
 * A snapshot as JSON text (states as top-level arrays named after their kind), in pieces of at
 * most 1,000 states: one JSON string of every state could exceed V8's string limit, and a caller
 * writing it yields to the event loop between pieces.
 */
export function* snapshotText(snapshot: Snapshot): Generator<string> {
  yield `{"version":1,"seq":${snapshot.seq},"revisionBytes":${snapshot.revisionBytes}`;
  for (const [field, items] of Object.entries(snapshot.states)) {
    yield `,${JSON.stringify(field)}:[`;
    for (let i = 0; i < items.length; i += 1000)
      yield (
        (i ? ',' : '') +
        items
          .slice(i, i + 1000)
          .map((x) => JSON.stringify(x))
          .join(',')
      );
    yield ']';
  }
  yield '}';
}

/** The snapshot `snapshotText` wrote; throws when the text is not a snapshot of this version. */
export const parseSnapshot = (text: string): Snapshot => {
  const stored = JSON.parse(text) as Record<string, unknown>;
  if (stored['version'] !== 1 || typeof stored['seq'] !== 'number' || typeof stored['revisionBytes'] !== 'number')
    throw new Error('not a snapshot of this version');
  const states = Object.fromEntries(Object.entries(stored).filter(([key, value]) => !HEADER.has(key) && Array.isArray(value))) as Record<string, unknown[]>;
  return { version: 1, seq: stored['seq'], revisionBytes: stored['revisionBytes'], states };
};
