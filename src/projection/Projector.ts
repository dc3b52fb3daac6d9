import type { EventLog, LogEvent } from '../events/EventLog.js';
import type { ProjectRef } from '../kernel/labels.js';
import type { Log } from '../kernel/Log.js';
import { consoleLog } from '../kernel/Log.js';
import type { StoreCheckpoints } from '../store/GraphStore.js';
import type { KindDefinition } from '../domain/KindDefinition.js';
import type { ItemStates } from '../events/ItemStates.js';
import { Lru } from '../util/Lru.js';
import type { Change } from './Projection.js';
import type { ChangeFeed } from './ChangeFeed.js';
import type { RevisionProjection } from './RevisionProjection.js';
import type { Snapshot, Snapshots } from './Snapshots.js';
import type { States } from './States.js';
import { containedKey } from './projectItemKeys.js';

export interface ProjectorOptions {
  /** Take a snapshot once this many events were applied since the last one... */
  snapshotEvents: number;
  /** ...and at least this long after it. */
  snapshotMillis: number;
  log?: Log;
  /**
   * Called once the states are restored, with their position (the snapshot's; the replay after it
   * feeds the runners) and the states: each runner resumes from its own position or rebuilds its
   * projection from these states.
   */
  /** What must be durable at or past a background snapshot's position before the snapshot replaces the previous one (the catalogue's terms). */
  durable?: (seq: number) => Promise<void>;
  /** Told of every event the fold passes, in log order, before it is applied (the shared states' cache drops what it overtakes). */
  observe?: (logged: LogEvent) => void;
  restored?: (position: number, logEnd: number, states: ReadonlyMap<KindDefinition, ReadonlyMap<string, unknown>>) => Promise<void>;
  /**
   * Where the states of the kinds this process does not hold are kept (`States.shared`): a deleted
   * project's items are found there. Required when any kind is shared.
   */
  shared?: Pick<ItemStates, 'keysOf' | 'getMany'>;
  /** The most states of shared kinds the fold keeps (the last ones it left); the others are folded again from their history. */
  sharedCapacity?: number;
  /** The snapshot to start from when this process has none of its own or an older one (the replicas' shared one, in Redis). */
  fallback?: () => Promise<Snapshot | undefined>;
  /** Handed the picture of every background snapshot, as it is taken (the shared layout shares some of them). */
  publish?: (picture: Snapshot) => void;
}

/** Where the states were restored from at start. */
export type RestoredFrom = 'snapshot file' | 'shared snapshot' | 'log';

/** Items of a shared kind read per round trip when a project's deletion takes them along. */
const CONTAINED_PAGE = 500;

/**
 * Folds the log into the states of every registered kind and drives the projections, strictly in
 * log order. Writers call `catchUp(seq)` after appending so they read their own writes; `follow`
 * keeps a process up to date with writes made by others (several processes sharing one Redis log).
 */
export class Projector {
  readonly name = 'states';
  private applied = 0;
  private chain: Promise<void> = Promise.resolve();
  private sinceSnapshot = 0;
  private lastSnapshot = Date.now();
  private readonly stop = new AbortController();
  /**
   * The states of shared kinds as the fold last left them, bounded: the state before an event is
   * read here, else in the batch being folded (`before`), else folded from the item's history in the
   * log. Nothing of the shared kinds grows with the data here.
   */
  private readonly recent: Lru<string, { state: unknown }>;
  /**
   * The log's end when the states were restored: a shared kind's change up to it is replayed for the
   * runners without its revision's triples (the store's writer, past it already or derives them
   * itself when planning its batch), so a replica on an empty data directory does not derive every
   * revision again.
   */
  private restoredEnd = 0;
  /** The states before the batch being folded of the shared items it touches, then as it leaves them; cleared after each batch. */
  private readonly before = new Map<string, unknown>();

  constructor(
    private readonly log: EventLog,
    private readonly states: States,
    /** Revision graphs are written with the states: the snapshot's checkpoint covers both. */
    private readonly revisions: RevisionProjection,
    /** Where the changes go for the runners. */
    private readonly feed: ChangeFeed,
    private readonly snapshots: Snapshots,
    /** The triple store's restart points, recorded in each snapshot. */
    private readonly store: StoreCheckpoints,
    private readonly options: ProjectorOptions,
  ) {
    this.recent = new Lru(options.sharedCapacity ?? 5_000);
  }

  /** How many states of shared kinds the fold holds now (at most `sharedCapacity`, plus a batch's). */
  get heldShared(): number {
    return this.recent.size + this.before.size;
  }

  private get logger(): Log {
    return this.options.log ?? consoleLog;
  }

  get position(): number {
    return this.applied;
  }

  /** Where `restore` took the states from. */
  get restoredFrom(): RestoredFrom {
    return this.from;
  }

  private from: RestoredFrom = 'log';
  /** Events folded since the start (those a restore replayed are counted in its log line). */
  private folded = 0;

  /** Restores the last snapshot, loads the persisted revision graphs and replays the rest of the log; returns the time each step took (ms). */
  async restore(): Promise<Record<string, number>> {
    const timings: Record<string, number> = {};
    let mark = performance.now();
    const step = (name: string) => {
      const now = performance.now();
      timings[name] = Math.round(now - mark);
      mark = now;
    };
    let snapshot = this.snapshots.load();
    let from: RestoredFrom = 'snapshot file';
    // The shared one when this process has none, or an older one (it was stopped a while): the less log to read.
    const shared = await this.options.fallback?.();
    if (shared && shared.seq > (snapshot?.seq ?? -1)) {
      snapshot = shared;
      from = 'shared snapshot';
    }
    const logEnd = await this.log.lastSeq();
    if (snapshot && snapshot.seq > logEnd) {
      // The log lost its tail after the snapshot was taken (a restored backup, a cut file): the
      // snapshot describes events the log no longer has, so it cannot be trusted.
      this.logger.warn(`snapshot ignored: it records events up to ${snapshot.seq} but the log ends at ${logEnd}; replaying the whole log`, {
        snapshotSeq: snapshot.seq,
        logEnd,
      });
      snapshot = undefined;
    }
    // About 1.5 KB of catalogue text per listed item is loaded after the revision graphs.
    const stored = snapshot?.states ?? {};
    const listedItems = this.states.definitions.filter((d) => d.listed).reduce((sum, d) => sum + (stored[d.kind]?.length ?? 0), 0);
    step('snapshot');
    const restored = await this.store.restore(snapshot?.revisionBytes, listedItems * 1_500, snapshot?.seq);
    if (!restored.restored) {
      // The revision graphs it refers to did not all reach the disk, or cannot be read: rebuild everything from the log.
      this.logger.warn(`snapshot ignored: ${restored.reason}; replaying the whole log`);
      snapshot = undefined;
    }
    if (snapshot) {
      for (const definition of this.states.definitions) {
        if (!this.states.holds(definition)) continue;
        const map = this.states.of(definition);
        for (const state of snapshot.states[definition.kind] ?? []) map.set(definition.keyOf(state), state);
      }
      this.applied = snapshot.seq;
      this.from = from;
    }
    step('revisions');
    // A shared kind's states are not here: the projections rebuilt from the states (the embedded
    // store's catalogue, text index and SPARQL replica) run only where every kind is held.
    const held = new Map(this.states.definitions.map((d) => [d, this.states.holds(d) ? this.states.of(d) : new Map<string, unknown>()]));
    await this.options.restored?.(this.applied, logEnd, held);
    step('projections');
    this.restoredEnd = logEnd;
    const start = this.applied;
    await this.catchUp(await this.log.lastSeq());
    step('replay');
    // How much of the log a start read, by where its states came from (a replica's cold start is this line).
    this.logger.info(
      `states restored from the ${this.from}${this.from === 'log' ? '' : ` at event ${start}`}; ${this.folded} events of the log replayed after it`,
      {
        restoredFrom: this.from,
        snapshotSeq: start,
        replayed: this.folded,
      },
    );
    return timings;
  }

  /** The read barrier's view: the same as `catchUp`. */
  reach(seq: number): Promise<void> {
    return this.catchUp(seq);
  }

  /** Resolves once every event up to `seq` is applied. */
  catchUp(seq: number): Promise<void> {
    if (seq <= this.applied) return Promise.resolve();
    const run = this.chain.then(() => this.pull(seq));
    this.chain = run.catch(() => undefined);
    return run;
  }

  /** Applies writes appended by other processes as they arrive, until `close`. */
  async follow(): Promise<void> {
    let failures = 0;
    while (!this.stop.signal.aborted) {
      try {
        await this.log.waitForNew(this.applied, this.stop.signal);
        if (this.stop.signal.aborted) break;
        await this.catchUp(await this.log.lastSeq());
        if (failures) this.logger.info(`projection: the event log answers again; following from event ${this.applied}`);
        failures = 0;
      } catch (error) {
        // The log is away (a Redis restart): reads go on from the projections, following resumes when it answers.
        const wait = Math.min(200 * 2 ** failures++, 5_000);
        this.logger.warn(`projection: cannot read the event log (${(error as Error).message}); retrying in ${wait} ms`);
        await new Promise((r) => setTimeout(r, wait));
      }
    }
  }

  private async pull(until: number): Promise<void> {
    while (this.applied < until) {
      const events = await this.log.read(this.applied, 1000);
      if (!events.length) {
        // What remains up to `until` was pruned.
        this.applied = Math.max(this.applied, Math.min(until, await this.log.lastSeq()));
        this.feed.advance(this.applied);
        break;
      }
      await this.foldBefore(events);
      try {
        for (const event of events) {
          this.options.observe?.(event);
          await this.applyOrQuarantine(event);
          this.applied = event.seq;
          this.feed.advance(this.applied);
          this.sinceSnapshot++;
          this.folded++;
        }
      } finally {
        for (const [key, state] of this.before) this.recent.set(key, { state });
        this.before.clear();
      }
    }
    if (this.sinceSnapshot >= this.options.snapshotEvents && Date.now() - this.lastSnapshot >= this.options.snapshotMillis) {
      const picture = this.picture(false);
      this.options.publish?.(picture);
      void this.snapshots
        .saveInBackground(picture, async () => {
          await this.store.persist();
          await this.options.durable?.(picture.seq);
        })
        .catch((error) => this.logger.error('snapshot failed', { error: String(error) }));
      this.sinceSnapshot = 0;
      this.lastSnapshot = Date.now();
    }
  }

  /** Events whose projection failed: skipped, logged and counted, so one bad event never stops the process. */
  get quarantined(): number {
    return this.quarantine;
  }

  private quarantine = 0;

  private async applyOrQuarantine(logged: LogEvent): Promise<void> {
    try {
      await this.apply(logged);
    } catch (error) {
      this.quarantine++;
      const id = (logged.event as { id?: unknown; label?: unknown }).id ?? (logged.event as { label?: unknown }).label;
      this.logger.error(
        `event ${logged.seq} quarantined: ${logged.kind} ${logged.key}${id === undefined ? '' : ` (id ${JSON.stringify(id)})`} ${logged.event.type} could not be projected and is skipped: ${(error as Error).message ?? String(error)}`,
        { quarantined: logged.seq, kind: logged.kind, key: logged.key },
      );
    }
  }

  /**
   * The states before `events` of the shared items they touch that the fold no longer holds,
   * folded from each item's history in the log, all at once (a creation has none to read).
   */
  private async foldBefore(events: readonly LogEvent[]): Promise<void> {
    const first = new Map<string, { definition: KindDefinition; event: LogEvent }>();
    for (const event of events) {
      const definition = this.states.definitionOf(event.kind);
      if (!definition || this.states.holds(definition)) continue;
      const key = definition.stateKey(event);
      if (first.has(key) || this.before.has(key)) continue;
      first.set(key, { definition, event });
      const cached = this.recent.get(key);
      if (cached) this.before.set(key, cached.state);
      else if (event.rev === 1) this.before.set(key, undefined);
    }
    await Promise.all(
      [...first].map(async ([key, { definition, event }]) => {
        if (this.before.has(key)) return;
        let state: unknown;
        for (const earlier of await this.log.history(event.key, event.seq - 1)) state = definition.next(state, earlier);
        this.before.set(key, state);
      }),
    );
  }

  /** Where the fold keeps the kind's states: the kind's map where this process holds them, else the batch's. */
  private statesOf(definition: KindDefinition): Map<string, unknown> {
    return this.states.holds(definition) ? this.states.of(definition) : this.before;
  }

  /** Folds one event into its kind's states, then hands the change to every projection; on failure the state is left as it was. */
  private async apply(logged: LogEvent): Promise<void> {
    const definition = this.states.definitionOf(logged.kind);
    if (!definition) return;
    const held = this.states.holds(definition);
    const states = this.statesOf(definition);
    const key = definition.stateKey(logged);
    const previous = states.get(key);
    const next = definition.next(previous, logged);
    if (next === undefined && previous === undefined) return;
    // A shared item's state stays in the batch's map even when deleted: undefined is a state known there.
    const keep = (state: unknown) => (state === undefined && held ? states.delete(key) : states.set(key, state));
    keep(next);
    let triples: string | undefined;
    try {
      if (held || logged.seq > this.restoredEnd) triples = await this.revisions.apply({ definition, logged, previous, next });
    } catch (error) {
      keep(previous);
      throw error;
    }
    const change: Change = triples === undefined ? { definition, logged, previous, next } : { definition, logged, previous, next, triples };
    const scopeDeleted = next === undefined && definition.kind === 'projects';
    this.feed.pushAll([...(scopeDeleted ? await this.removeContained(key as ProjectRef, logged) : []), change]);
    if (next === undefined && (definition.listed || scopeDeleted)) {
      // A permanent deletion rewrote the revision file: the old snapshot no longer matches it.
      this.applied = logged.seq;
      this.snapshot();
    }
  }

  /**
   * A deleted project takes every item in it along: each is removed as its own permanent deletion
   * is (states, revision graphs, catalogue, text index, SPARQL dataset), by the project's event.
   * Returns their changes, handed on with the project's own in one piece.
   */
  private async removeContained(project: ProjectRef, logged: LogEvent): Promise<Change[]> {
    const changes: Change[] = [];
    const remove = async (definition: KindDefinition, previous: unknown) => {
      const change: Change = { definition, logged, previous, next: undefined };
      await this.revisions.apply(change);
      changes.push(change);
    };
    for (const definition of this.states.definitions) {
      if (!this.states.holds(definition)) continue;
      const states = this.states.of(definition);
      for (const [key, previous] of [...states]) {
        if (containedKey(definition, previous, project) === undefined) continue;
        states.delete(key);
        await remove(definition, previous);
      }
    }
    for (const definition of this.states.definitions) {
      if (this.states.holds(definition)) continue;
      const shared = this.options.shared;
      if (!shared) throw new Error(`kind '${definition.kind}' is shared but the projector was given no shared states`);
      // No event of the project's items follows its deletion (the log refuses them): the states
      // kept now are those the fold reached. They are read before the deleting writer prunes them.
      const keys = await shared.keysOf(definition.kind, project);
      for (let at = 0; at < keys.length; at += CONTAINED_PAGE) {
        const page = keys.slice(at, at + CONTAINED_PAGE);
        const found = await shared.getMany(definition.kind, page);
        for (let i = 0; i < page.length; i++) {
          const key = page[i]!;
          const previous = this.before.has(key) ? this.before.get(key) : found[i];
          this.before.delete(key);
          this.recent.set(key, { state: undefined });
          if (previous !== undefined && containedKey(definition, previous, project) !== undefined) await remove(definition, previous);
        }
      }
    }
    return changes;
  }

  /** Takes a snapshot now (shutdown; after a permanent deletion rewrote the revision file). */
  snapshot(): void {
    this.snapshots.save(this.picture(true));
    this.sinceSnapshot = 0;
    this.lastSnapshot = Date.now();
  }

  /** The states as of the last applied event, with the store's checkpoint taken at it (`durable`: the one a shutdown keeps). */
  picture(durable: boolean): Snapshot {
    const states: Record<string, unknown[]> = {};
    for (const [definition, held] of this.states.all()) states[definition.kind] = [...held.values()];
    return { version: 1, seq: this.applied, revisionBytes: this.store.checkpoint(durable), states };
  }

  /** Stops following; the caller takes the final snapshot once writes have drained. */
  close(): void {
    this.stop.abort();
  }
}
