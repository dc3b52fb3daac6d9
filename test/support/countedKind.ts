import type { KindDefinition } from '../../src/domain/KindDefinition.js';
import type { EventDraft } from '../../src/events/EventLog.js';
import type { Log } from '../../src/kernel/Log.js';
import type { Change } from '../../src/projection/Projection.js';

export const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined, debug: () => undefined } as unknown as Log;

interface Counted {
  key: string;
  rev: number;
  /** How many events the item had before: a fold that got the previous state wrong miscounts. */
  updates: number;
}

/** A kind folded from its previous state (rev 0: permanently deleted), with nothing in the triple store. */
export const counted = {
  kind: 'resources',
  stateKey: (logged) => logged.key,
  keyOf: (state) => state.key,
  next: (state, logged) => (logged.rev === 0 ? undefined : { key: logged.key, rev: logged.rev, updates: (state?.updates ?? -1) + 1 }),
  render: () => ({}),
} satisfies Partial<KindDefinition<Counted>> as unknown as KindDefinition;

/** An event of the counted kind taking `key` to `rev`. */
export const draft = (key: string, rev: number): EventDraft => ({
  key,
  kind: 'resources',
  rev,
  event: { type: rev === 0 ? 'Deleted' : 'Written', instant: '2026-01-01T00:00:00.000Z' },
});

/** What a change says, to compare a change read again from the log with the one the fold made. */
export const seen = (c: Change) => JSON.stringify([c.logged.seq, c.logged.key, c.previous, c.next]);
