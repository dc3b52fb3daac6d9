import { Redis } from 'ioredis';
import type { RedisOptions } from 'ioredis';
import type { Log } from '../kernel/Log.js';
import { consoleLog } from '../kernel/Log.js';
import type { Appended, BatchEntry, EventDraft, EventLog, LogEvent } from './EventLog.js';
import { EventLogUnavailable, RevisionConflict, ScopeDeleted } from './EventLog.js';
import type { FoldHistory } from './RedisItemStates.js';
import { RedisItemStates } from './RedisItemStates.js';
import { ADVANCE_SCRIPT, APPEND_SCRIPT, COPY_SCRIPT, PRUNE_SCRIPT } from './redisScripts.js';

type StreamEntry = [id: string, fields: string[]];

/** The scripted commands, registered with `defineCommand` (ioredis sends EVALSHA, falling back to EVAL). */
interface Scripted {
  registryAppend(
    revs: string,
    seq: string,
    stream: string,
    seqs: string,
    deleted: string,
    states: string,
    key: string,
    expected: number,
    rev: number,
    payload: string,
    withinKey: string,
    withinSince: number,
    ...state: string[]
  ): Promise<[number, number]>;
  registryPrune(seqs: string, stream: string, revs: string, states: string, key: string, beforeSeq: number): Promise<number>;
  registryCopy(
    revs: string,
    seq: string,
    stream: string,
    seqs: string,
    deleted: string,
    states: string,
    key: string,
    at: number,
    rev: number,
    payload: string,
  ): Promise<number>;
  registryAdvance(seq: string, to: number): Promise<number>;
}

/** Where the log's Redis is: a URL, or Sentinel (the URL then gives only credentials and database). */
export interface RedisTarget {
  url?: string;
  sentinels?: { host: string; port: number }[];
  /** The primary's name the sentinels watch. */
  name?: string;
  /** After each append, wait for this many replicas of Redis to acknowledge it (`WAIT`), at most `waitMillis`. */
  waitReplicas?: number;
  waitMillis?: number;
  /**
   * The least `stream-node-max-bytes` the stream should be written with: set at open when Redis has
   * less (a server-wide setting, for the nodes made from then on). Absent or 0: Redis is left as is.
   */
  streamNodeBytes?: number;
}

/** The names of one log's keys: all under one hash tag, so Redis Cluster keeps them in one slot (the append script touches five). */
export const logKeys = (prefix: string) => ({
  stream: `{${prefix}}:events`,
  seq: `{${prefix}}:seq`,
  revs: `{${prefix}}:revs`,
  seqs: `{${prefix}}:seqs`,
  deleted: `{${prefix}}:deleted`,
  states: `{${prefix}}:states`,
});

/** The names before the hash tag (renamed at start, see `migrate`). */
const untaggedKeys = (prefix: string) => ({ stream: `${prefix}:events`, seq: `${prefix}:seq`, revs: `${prefix}:revs`, seqs: `${prefix}:seqs` });

interface Waiter {
  after: number;
  done: () => void;
}

/** How long one blocking read waits before the follower re-checks on its own (it self-heals after reconnects). */
const BLOCK_MILLIS = 5_000;

/**
 * The event log on Redis Streams, shareable by several server processes. One stream holds every
 * event with the explicit id `{seq}-0`, so stream ids are the log positions. A Lua script checks the
 * item's revision, takes the next position and appends in one atomic step; a hash keeps each key's
 * revision and another each key's positions (for prune). Waiting for new events uses one blocking
 * XREAD on a dedicated connection, shared by every waiter of the process.
 */
export class RedisEventLog implements EventLog {
  private readonly keys: ReturnType<typeof logKeys>;
  /** Highest position known to exist (pruned or not); never ahead of Redis. */
  private known = 0;
  private readonly waiters = new Set<Waiter>();
  private following = false;
  private closed = false;

  private constructor(
    private readonly redis: Redis,
    private readonly blocking: Redis,
    private readonly prefix: string,
    private readonly log: Log,
    private readonly replication: { replicas: number; millis: number },
  ) {
    this.keys = logKeys(prefix);
    redis.defineCommand('registryAppend', { lua: APPEND_SCRIPT, numberOfKeys: 6 });
    redis.defineCommand('registryPrune', { lua: PRUNE_SCRIPT, numberOfKeys: 4 });
    redis.defineCommand('registryCopy', { lua: COPY_SCRIPT, numberOfKeys: 6 });
    redis.defineCommand('registryAdvance', { lua: ADVANCE_SCRIPT, numberOfKeys: 1 });
  }

  /**
   * Connects, waiting with backoff (and a log line per attempt) while Redis does not answer, and
   * learns the current position. Afterwards the connections reconnect on their own; a command sent
   * while Redis is away fails after one retry (writes answer 503) and is never resent blindly (an
   * append whose answer was lost must not be appended twice).
   */
  static async open(where: string | RedisTarget, prefix: string, signal?: AbortSignal, log: Log = consoleLog): Promise<RedisEventLog> {
    const target: RedisTarget = typeof where === 'string' ? { url: where } : where;
    const url = target.sentinels ? `Sentinel ${target.name} via ${target.sentinels.map((s) => `${s.host}:${s.port}`).join(',')}` : target.url;
    const options: RedisOptions = {
      lazyConnect: true,
      maxRetriesPerRequest: 1,
      autoResendUnfulfilledCommands: false,
      retryStrategy: (times) => Math.min(100 * 2 ** times, 2_000),
      ...(target.sentinels ? { sentinels: target.sentinels, name: target.name! } : {}),
    };
    const connect = () => (target.url ? new Redis(target.url, options) : new Redis(options));
    let redis: Redis;
    for (let attempt = 1; ; attempt++) {
      // A fresh client per attempt: one given up on before it ever connected would not reconnect later.
      redis = connect();
      redis.on('error', () => undefined);
      try {
        await redis.connect();
        await redis.ping();
        break;
      } catch (error) {
        redis.disconnect();
        if (signal?.aborted) throw new Error(`the event log's Redis at ${url} does not answer: ${(error as Error).message}`);
        const wait = Math.min(250 * 2 ** (attempt - 1), 5_000);
        log.warn(`event log: waiting for Redis at ${url} (attempt ${attempt}: ${(error as Error).message}); next try in ${wait} ms`);
        await new Promise((r) => setTimeout(r, wait));
      }
    }
    reportErrors(redis, 'commands', log);
    const blocking = redis.duplicate({ maxRetriesPerRequest: null, autoResendUnfulfilledCommands: true });
    reportErrors(blocking, 'follower', log);
    const events = new RedisEventLog(redis, blocking, prefix, log, { replicas: target.waitReplicas ?? 0, millis: target.waitMillis ?? 1_000 });
    await events.migrate();
    await events.lastSeq();
    if (target.streamNodeBytes) await events.widenStreamNodes(target.streamNodeBytes);
    return events;
  }

  /**
   * An event of ~1.5 KB costs a quarter more in Redis' default 4 KB stream nodes (two or three
   * entries a node, each node with its own header and master entry), about 3 % more in 64 KB ones
   * (test/integration/redisBytesPerChange.test.ts). A Redis that refuses CONFIG (a managed service)
   * keeps its own setting, said once in the log: set it there.
   */
  private async widenStreamNodes(bytes: number): Promise<void> {
    try {
      const [, current] = (await this.redis.config('GET', 'stream-node-max-bytes')) as [string, string];
      if (Number(current) !== 0 && Number(current) < bytes) {
        await this.redis.config('SET', 'stream-node-max-bytes', String(bytes));
        this.log.info(`event log: Redis stream-node-max-bytes raised from ${current} to ${bytes} (fewer bytes per event)`);
      }
    } catch (error) {
      this.log.warn(
        `event log: cannot set Redis stream-node-max-bytes to ${bytes} (${(error as Error).message}): set it in Redis' own configuration, or each event costs up to a quarter more memory`,
      );
    }
  }

  /**
   * A log written before its keys shared a hash tag is renamed to the tagged names once, at the
   * first start of this version (several replicas starting together: one renames, the others find
   * it done). On one Redis, renaming is instant and keeps every entry.
   */
  private async migrate(): Promise<void> {
    const old = untaggedKeys(this.prefix);
    if (!(await this.redis.exists(old.seq)) || (await this.redis.exists(this.keys.seq))) return;
    try {
      const rename = this.redis.multi();
      for (const name of ['stream', 'seq', 'revs', 'seqs'] as const) if (await this.redis.exists(old[name])) rename.rename(old[name], this.keys[name]);
      await rename.exec();
      this.log.info(`event log: keys '${this.prefix}:*' renamed to '{${this.prefix}}:*' (one hash tag, for Redis Cluster)`);
    } catch (error) {
      if (!(await this.redis.exists(this.keys.seq))) throw error;
    }
  }

  /** The name of another key kept beside the log (tracker tokens, checkpoints), under its hash tag. */
  keyOf(name: string): string {
    return `{${this.prefix}}:${name}`;
  }

  /** The items' latest states this log keeps beside its events, read through a cache of at most `capacity` states. */
  itemStates(fold: FoldHistory, capacity: number, away?: ConstructorParameters<typeof RedisItemStates>[5]): RedisItemStates {
    return new RedisItemStates(this.redis, this.keys, this, fold, capacity, away);
  }

  /** The command connection, for stores kept beside the log. */
  get connection(): Redis {
    return this.redis;
  }

  private get scripted(): Scripted {
    return this.redis as unknown as Scripted;
  }

  private bump(seq: number): void {
    if (seq > this.known) this.known = seq;
  }

  async append(draft: EventDraft, expectedRev: number): Promise<LogEvent> {
    const outcome = this.outcome(draft, expectedRev, await reachable(this.scripted.registryAppend(...this.appendArgs(draft, expectedRev))));
    if (!('seq' in outcome)) throw outcome;
    await this.replicated(outcome.seq);
    return outcome;
  }

  /** One pipeline of the append script (each run atomic on its own, in order), then one `WAIT` for the Redis replicas. */
  async appendBatch(entries: readonly BatchEntry[]): Promise<Appended[]> {
    if (entries.length === 0) return [];
    const pipeline = this.redis.pipeline() as unknown as Scripted & { exec(): Promise<[Error | null, unknown][] | null> };
    for (const { draft, expectedRev } of entries) pipeline.registryAppend(...this.appendArgs(draft, expectedRev));
    const results = (await reachable(pipeline.exec())) ?? [];
    const outcomes = entries.map(({ draft, expectedRev }, i) => {
      const [error, result] = results[i] ?? [new Error('no answer')];
      if (error) throw new EventLogUnavailable(`appending to the event log's Redis failed: ${error.message}`);
      return this.outcome(draft, expectedRev, result as [number, number]);
    });
    const last = Math.max(0, ...outcomes.map((o) => ('seq' in o ? o.seq : 0)));
    if (last > 0) await this.replicated(last);
    return outcomes;
  }

  private appendArgs(draft: EventDraft, expectedRev: number): Parameters<Scripted['registryAppend']> {
    const { keys } = this;
    const { within, state, ...recorded } = draft;
    return [
      keys.revs,
      keys.seq,
      keys.stream,
      keys.seqs,
      keys.deleted,
      keys.states,
      draft.key,
      expectedRev,
      draft.rev,
      JSON.stringify(recorded),
      within?.key ?? '',
      within?.since ?? 0,
      ...(state ?? []),
    ];
  }

  /** The append script's answer as the event appended or the refusal. */
  private outcome(draft: EventDraft, expectedRev: number, [ok, value]: [number, number]): Appended {
    if (Number(ok) === 2) return new ScopeDeleted(draft.within!.key, Number(value));
    if (Number(ok) !== 1) return new RevisionConflict(draft.key, expectedRev, Number(value));
    const { within: _within, state: _state, ...recorded } = draft;
    const seq = Number(value);
    this.bump(seq);
    return { ...recorded, seq };
  }

  /** Acknowledged only once copied to Redis replicas (when asked): a failover to one of them then keeps every event up to `seq`. */
  private async replicated(seq: number): Promise<void> {
    if (this.replication.replicas === 0) return;
    const copies = Number(await reachable(this.redis.wait(this.replication.replicas, this.replication.millis)));
    if (copies < this.replication.replicas)
      throw new EventLogUnavailable(
        `event ${seq} reached ${copies} of the ${this.replication.replicas} Redis replicas required within ${this.replication.millis} ms: it may be lost in a failover`,
      );
  }

  async read(after: number, limit: number): Promise<LogEvent[]> {
    if (limit <= 0) return [];
    const entries = (await reachable(this.redis.xrange(this.keys.stream, `${Math.max(after, 0) + 1}-0`, '+', 'COUNT', limit))) as StreamEntry[];
    const events = entries.map(toEvent);
    if (events.length) this.bump(events[events.length - 1]!.seq);
    return events;
  }

  async history(key: string, until: number): Promise<LogEvent[]> {
    const positions = ((await reachable(this.redis.hget(this.keys.seqs, key))) ?? '')
      .split(',')
      .map(Number)
      .filter((seq) => seq > 0 && seq <= until);
    if (!positions.length) return [];
    const reads = this.redis.pipeline();
    for (const seq of positions) reads.xrange(this.keys.stream, `${seq}-0`, `${seq}-0`);
    const results = (await reachable(reads.exec())) ?? [];
    return results.flatMap(([error, entries]) => {
      if (error) throw new EventLogUnavailable(`reading the history of ${key} failed: ${error.message}`);
      return (entries as StreamEntry[]).map(toEvent);
    });
  }

  async get(seq: number): Promise<LogEvent | undefined> {
    if (!Number.isInteger(seq) || seq < 1) return undefined;
    const entries = (await reachable(this.redis.xrange(this.keys.stream, `${seq}-0`, `${seq}-0`))) as StreamEntry[];
    return entries[0] && toEvent(entries[0]);
  }

  async lastSeq(): Promise<number> {
    const seq = Number((await reachable(this.redis.get(this.keys.seq))) ?? 0);
    this.bump(seq);
    return seq;
  }

  waitForNew(after: number, signal?: AbortSignal): Promise<void> {
    if (this.known > after || signal?.aborted || this.closed) return Promise.resolve();
    return new Promise((resolve) => {
      const waiter: Waiter = {
        after,
        done: () => {
          this.waiters.delete(waiter);
          signal?.removeEventListener('abort', waiter.done);
          resolve();
        },
      };
      this.waiters.add(waiter);
      signal?.addEventListener('abort', waiter.done, { once: true });
      if (!this.following) void this.follow();
    });
  }

  /**
   * One loop per process while anyone waits: read the counter (so a burst is crossed in one step),
   * wake whoever it satisfies, then block until an entry beyond it exists. A waiter registering
   * meanwhile either is satisfied by `known` at once or waits for an entry the blocked read will see.
   */
  private async follow(): Promise<void> {
    this.following = true;
    try {
      while (this.waiters.size && !this.closed) {
        try {
          this.bump(Number((await this.blocking.get(this.keys.seq)) ?? 0));
          for (const waiter of [...this.waiters]) if (waiter.after < this.known) waiter.done();
          if (!this.waiters.size) break;
          await this.blocking.xread('COUNT', 1, 'BLOCK', BLOCK_MILLIS, 'STREAMS', this.keys.stream, `${this.known}-0`);
        } catch (error) {
          if (this.closed) break;
          this.log.warn(`event log: blocking read failed, retrying: ${(error as Error).message}`);
          await new Promise((r) => setTimeout(r, 200));
        }
      }
    } finally {
      this.following = false;
    }
  }

  /**
   * Copies events of another log at their own positions, in one round trip (`npm run migrate-log`).
   * Returns how many were past the head and appended; the others were there already.
   */
  async copy(events: readonly LogEvent[]): Promise<number> {
    const { keys } = this;
    const scripted = this.redis.pipeline() as unknown as Scripted & { exec(): Promise<[Error | null, unknown][] | null> };
    for (const { seq, ...draft } of events)
      scripted.registryCopy(keys.revs, keys.seq, keys.stream, keys.seqs, keys.deleted, keys.states, draft.key, seq, draft.rev, JSON.stringify(draft));
    const results = (await reachable(scripted.exec())) ?? [];
    let copied = 0;
    for (const [error, result] of results) {
      if (error) throw new EventLogUnavailable(`copying into the event log's Redis failed: ${error.message}`);
      copied += Number(result);
    }
    if (events.length) this.bump(events[events.length - 1]!.seq);
    return copied;
  }

  /** Moves the head to `seq` when behind it: the next append takes `seq + 1`. */
  async advanceTo(seq: number): Promise<number> {
    const head = Number(await reachable(this.scripted.registryAdvance(this.keys.seq, seq)));
    this.bump(head);
    return head;
  }

  async prune(key: string, beforeSeq: number): Promise<void> {
    await reachable(this.scripted.registryPrune(this.keys.seqs, this.keys.stream, this.keys.revs, this.keys.states, key, beforeSeq));
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const waiter of [...this.waiters]) waiter.done();
    this.blocking.disconnect();
    await this.redis.quit();
  }
}

/** Connection errors once per distinct failure (ioredis retries on its own; a reconnect loop must not flood the log). */
const reportErrors = (connection: Redis, name: string, log: Log): void => {
  let last = '';
  connection.on('ready', () => (last = ''));
  connection.on('error', (error: Error) => {
    if (error.message === last) return;
    last = error.message;
    log.warn(`event log: Redis ${name} connection: ${error.message}`);
  });
};

/** A command that failed because Redis is away, as the port's `EventLogUnavailable`. */
const reachable = async <T>(command: Promise<T>): Promise<T> => {
  try {
    return await command;
  } catch (error) {
    throw new EventLogUnavailable(`the event log's Redis is unreachable: ${(error as Error).message}`);
  }
};

const toEvent = ([id, fields]: StreamEntry): LogEvent => {
  const index = fields.indexOf('e');
  const draft = JSON.parse(fields[index + 1]!) as EventDraft;
  return { ...draft, seq: Number(id.slice(0, id.indexOf('-'))) };
};
