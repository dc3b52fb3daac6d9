import type { Redis } from 'ioredis';
import { Lru } from '../util/Lru.js';
import type { EventLog, Kind, LogEvent } from './EventLog.js';
import { EventLogUnavailable } from './EventLog.js';
import type { ItemStates } from './ItemStates.js';
import { projectKey } from '../kernel/logKeys.js';
import { decodeState, parseRecord } from './itemRecord.js';
import type { LogKeys } from './redisLogKeys.js';
import type { Scripted } from './redisScripts.js';

/** A literal for a Redis MATCH pattern. */
const globEscaped = (text: string): string => text.replace(/[\\*?[\]^-]/g, (c) => `\\${c}`);

/** A state as this process holds it, with the log position it reflects. */
interface Cached {
  seq: number;
  state: unknown;
}

/**
 * A key as Redis answered it: its state; undefined when it has none (no event, or its revision is
 * 0); null when it has events but no stored state (fold them). `deletedAt`: the position of its
 * project's last deletion, read in the same step (0 for none).
 */
interface Answer {
  stored: Cached | undefined | null;
  deletedAt: number;
}

/** Folds an item's events (its whole history, in order) into its state. */
export type FoldHistory = (kind: Kind, events: readonly LogEvent[]) => unknown;

/** The project (`org/label`) of an item's log key (`{kind}/{org}/{label}/{id}`: labels hold no slash). */
const projectOfKey = (key: string): string => key.split('/', 3).slice(1).join('/');

/** A read under way: told when its key (or its project, deleted) changed meanwhile, so what it read is not kept. */
interface Reading {
  key: string;
  stale: boolean;
}

/**
 * The latest states kept by the Redis log, beside the events (in each item's record of
 * `{prefix}:items`, written by the append script in the step that appends the event), read through
 * a bounded cache. The cache is kept
 * true by `observe`, which this process's fold of the log calls for every event it passes: an event
 * newer than a cached state drops it. The read barrier waits for that fold to reach the log head as
 * of a request's arrival, and a writer for its own event, so a read never answers from a state
 * older than what the log had acknowledged when it began.
 *
 * A key with events but no stored state (a log copied from a journal, or written before the states
 * were kept) is folded from its history in the log.
 */
export class RedisItemStates implements ItemStates {
  private readonly cache: Lru<string, Cached>;
  private readonly reading = new Set<Reading>();

  constructor(
    private readonly redis: Redis,
    private readonly scripts: Scripted,
    private readonly keys: Pick<LogKeys, 'items' | 'stream' | 'deleted'>,
    private readonly log: Pick<EventLog, 'history'>,
    private readonly fold: FoldHistory,
    /** The most states held in memory at once. */
    readonly capacity: number,
    /**
     * Where states are read while Redis cannot be reached (this process's own fold of the log, as
     * far as it got), so reads go on answering as they did before the states were shared; absent:
     * the read fails as the log does.
     */
    private readonly away?: (kind: Kind, keys: readonly string[]) => (unknown | undefined)[],
  ) {
    this.cache = new Lru(capacity);
  }

  async get<S>(kind: Kind, key: string): Promise<S | undefined> {
    return (await this.getMany<S>(kind, [key]))[0];
  }

  async getMany<S>(kind: Kind, keys: readonly string[]): Promise<(S | undefined)[]> {
    const found: (S | undefined)[] = new Array(keys.length);
    const missing: number[] = [];
    keys.forEach((key, i) => {
      const cached = this.cache.get(key);
      if (cached) found[i] = cached.state as S;
      else missing.push(i);
    });
    if (!missing.length) return found;
    const wanted = missing.map((i) => keys[i]!);
    const readings = wanted.map((key) => ({ key, stale: false }));
    for (const r of readings) this.reading.add(r);
    try {
      let answers: Answer[];
      try {
        answers = await this.read(wanted);
      } catch (error) {
        if (!(error instanceof EventLogUnavailable) || !this.away) throw error;
        // Not cached: what Redis would answer once back may be newer.
        this.away(kind, wanted).forEach((state, at) => (found[missing[at]!] = state as S | undefined));
        return found;
      }
      const folded = await Promise.all(answers.map(async ({ stored }, at) => stored ?? (stored === null ? await this.folded(kind, wanted[at]!) : undefined)));
      folded.forEach((cached, at) => {
        found[missing[at]!] = cached?.state as S | undefined;
        // A state older than its project's deletion is answered (the store's writer reads every item
        // at the deletion, to remove its graphs) but not kept: its record is pruned some time after
        // the deletion, by whichever replica deleted, with no event on its key to drop it from here.
        if (cached && !readings[at]!.stale && cached.seq > answers[at]!.deletedAt) this.cache.set(wanted[at]!, cached);
      });
    } finally {
      for (const r of readings) this.reading.delete(r);
    }
    return found;
  }

  /** Every event this process passes, in log order: a cached state older than it is dropped, a read under way for its key not kept. */
  observe(logged: LogEvent): void {
    const cached = this.cache.peek(logged.key);
    if (cached && cached.seq < logged.seq) this.cache.delete(logged.key);
    // A project's deletion prunes its items' states from the log, with no event on their keys: none
    // may answer from here after it, nor be kept by a read Redis answered before it (a read answered
    // after it is told the deletion's position with the state). Nothing per deletion is held here.
    const deleted = logged.event.type === 'ProjectMarkedForDeletion' ? logged.project : undefined;
    if (deleted !== undefined) for (const key of [...this.cache.keys()]) if (projectOfKey(key) === deleted) this.cache.delete(key);
    for (const r of this.reading) if (r.key === logged.key || (deleted !== undefined && projectOfKey(r.key) === deleted)) r.stale = true;
  }

  /** Scans the log's items (a key at revision 0 is deleted): Redis walks them, this process holds only the project's keys. */
  async keysOf(kind: Kind, project: string): Promise<string[]> {
    const pattern = `${globEscaped(kind)}/${globEscaped(project)}/*`;
    const keys: string[] = [];
    let cursor = '0';
    try {
      do {
        const [next, found] = await this.scripts.registryKeysOfBuffer(this.keys.items, cursor, pattern, 1000);
        for (const key of found) keys.push(key.toString('utf8'));
        cursor = next.toString('latin1');
      } while (cursor !== '0');
    } catch (error) {
      throw new EventLogUnavailable(`the event log's Redis is unreachable: ${(error as Error).message}`);
    }
    // HSCAN may return a field twice while the hash is rehashed.
    return [...new Set(keys)];
  }

  held(): number {
    return this.cache.size;
  }

  /** Forgets every cached state (the log was replaced under it). */
  clear(): void {
    this.cache.clear();
  }

  /** The stored states, one round trip, each with its project's last deletion. */
  private async read(keys: readonly string[]): Promise<Answer[]> {
    let answers: [Buffer | null, Buffer | null, number][];
    try {
      const pairs = keys.flatMap((key) => [key, projectKey(projectOfKey(key))]);
      answers = await this.scripts.registryReadStatesBuffer(this.keys.items, this.keys.stream, this.keys.deleted, ...pairs);
    } catch (error) {
      throw new EventLogUnavailable(`the event log's Redis is unreachable: ${(error as Error).message}`);
    }
    return answers.map(([record, payload, deletedAt]) => {
      if (!record) return { stored: undefined, deletedAt };
      const { rev, seqs, state } = parseRecord(record);
      const seq = seqs[seqs.length - 1]!;
      if (state && payload) return { stored: { seq, state: decodeState(state, payload, seq) }, deletedAt };
      return { stored: rev > 0 ? null : undefined, deletedAt };
    });
  }

  private async folded(kind: Kind, key: string): Promise<Cached | undefined> {
    const events = await this.log.history(key, Number.MAX_SAFE_INTEGER);
    if (!events.length) return undefined;
    const state = this.fold(kind, events);
    return state === undefined ? undefined : { seq: events[events.length - 1]!.seq, state };
  }
}
