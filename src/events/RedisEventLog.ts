import type { Redis } from 'ioredis';
import type { Log } from '../kernel/Log.js';
import { consoleLog } from '../kernel/Log.js';
import type { Appended, BatchEntry, EventDraft, EventLog, LogEvent } from './EventLog.js';
import { EventLogUnavailable, RevisionConflict, ScopeDeleted } from './EventLog.js';
import { encodeState, parseRecord } from './itemRecord.js';
import type { RedisTarget } from './redisConnection.js';
import { connectRedis, reachable, reportErrors, widenStreamNodes } from './redisConnection.js';
import { migrateLayout } from './redisLayout.js';
import type { LogKeys } from './redisLogKeys.js';
import { logKeys } from './redisLogKeys.js';
import type { FoldHistory } from './RedisItemStates.js';
import { RedisItemStates } from './RedisItemStates.js';
import type { Scripted } from './redisScripts.js';
import { defineScripts, scriptedPipeline } from './redisScripts.js';

export type { RedisTarget } from './redisConnection.js';
export { logKeys } from './redisLogKeys.js';

type StreamEntry = [id: string, fields: string[]];

interface Waiter {
  after: number;
  done: () => void;
}

/** How long one blocking read waits before the follower re-checks on its own (it self-heals after reconnects). */
const BLOCK_MILLIS = 5_000;

/**
 * The event log on Redis Streams, shareable by several server processes. One stream holds every
 * event with the explicit id `{seq}-0`, so stream ids are the log positions. A Lua script checks the
 * item's revision, takes the next position and appends in one atomic step; one hash keeps each item's
 * revision, positions (for history and prune) and latest state (itemRecord.ts). Waiting for new
 * events uses one blocking XREAD on a dedicated connection, shared by every waiter of the process.
 */
export class RedisEventLog implements EventLog {
  private readonly keys: LogKeys;
  private readonly scripted: Scripted;
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
    this.scripted = defineScripts(redis);
  }

  /**
   * Connects (waiting while Redis does not answer, see `connectRedis`), brings a log written by an
   * earlier version to this layout and learns the current position.
   */
  static async open(where: string | RedisTarget, prefix: string, signal?: AbortSignal, log: Log = consoleLog): Promise<RedisEventLog> {
    const target: RedisTarget = typeof where === 'string' ? { url: where } : where;
    const redis = await connectRedis(target, log, signal);
    reportErrors(redis, 'commands', log);
    const blocking = redis.duplicate({ maxRetriesPerRequest: null, autoResendUnfulfilledCommands: true });
    reportErrors(blocking, 'follower', log);
    const events = new RedisEventLog(redis, blocking, prefix, log, { replicas: target.waitReplicas ?? 0, millis: target.waitMillis ?? 1_000 });
    await migrateLayout(redis, events.scripted, prefix, log);
    await events.lastSeq();
    if (target.streamNodeBytes) await widenStreamNodes(redis, target.streamNodeBytes, log);
    return events;
  }

  /** The name of another key kept beside the log (tracker tokens, checkpoints), under its hash tag. */
  keyOf(name: string): string {
    return `{${this.prefix}}:${name}`;
  }

  /** The items' latest states this log keeps beside its events, read through a cache of at most `capacity` states. */
  itemStates(fold: FoldHistory, capacity: number, away?: ConstructorParameters<typeof RedisItemStates>[6]): RedisItemStates {
    return new RedisItemStates(this.redis, this.scripted, this.keys, this, fold, capacity, away);
  }

  /** The command connection, for stores kept beside the log. */
  get connection(): Redis {
    return this.redis;
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
    const pipeline = scriptedPipeline(this.redis);
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
    const payload = JSON.stringify(recorded);
    return [
      keys.items,
      keys.seq,
      keys.stream,
      keys.deleted,
      draft.key,
      expectedRev,
      draft.rev,
      payload,
      within?.key ?? '',
      within?.since ?? 0,
      state && draft.rev !== 0 ? encodeState(state, payload) : '',
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
    const record = await reachable(this.redis.hgetBuffer(this.keys.items, key));
    const positions = record ? parseRecord(record).seqs.filter((seq) => seq > 0 && seq <= until) : [];
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
    const scripted = scriptedPipeline(this.redis);
    for (const { seq, ...draft } of events)
      scripted.registryCopy(keys.items, keys.seq, keys.stream, keys.deleted, draft.key, seq, draft.rev, JSON.stringify(draft));
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
    await reachable(this.scripted.registryPrune(this.keys.items, this.keys.stream, key, beforeSeq));
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const waiter of [...this.waiters]) waiter.done();
    this.blocking.disconnect();
    await this.redis.quit();
  }
}

const toEvent = ([id, fields]: StreamEntry): LogEvent => {
  const index = fields.indexOf('e');
  const draft = JSON.parse(fields[index + 1]!) as EventDraft;
  return { ...draft, seq: Number(id.slice(0, id.indexOf('-'))) };
};
