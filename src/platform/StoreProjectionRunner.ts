import type { Log } from '../kernel/Log.js';
import type { WriterLease } from '../store/StoreLease.js';
import type { ChangeFeed } from '../projection/ChangeFeed.js';
import type { Change } from '../projection/Projection.js';
import type { Follower } from '../projection/ReadBarrier.js';
import { SparqlRequestFailed } from '../store/SparqlHttpClient.js';

/**
 * Whether a failed write is the store being away (the same request is sent again later) rather
 * than the store, or the projection, refusing what the changes make of it (split, then quarantined).
 */
const unavailable = (error: unknown): boolean => error instanceof SparqlRequestFailed && error.unavailable;

/** The position projected into the shared store, recorded in the store itself. */
export interface StorePosition {
  get(): Promise<number | undefined>;
  set(position: number): Promise<void>;
}

/** Positions recorded by name where every replica hears them as they are recorded (`RedisProjectionCheckpoints`). */
export interface WatchedCheckpoints {
  get(name: string): Promise<number | undefined>;
  set(name: string, position: number): Promise<void>;
  /** Calls `heard` with every position recorded for `name` from now on; resolves, once listening, to its stop. */
  watch(name: string, heard: (position: number) => void): Promise<() => Promise<void>>;
}

export interface StoreRunnerOptions {
  log: Log;
  /** How often the lease is renewed (the holder) or sought and the store's position read (the others). */
  renewMillis: number;
  /** How often a reader waiting for the store reads its position again (a backstop when it is announced). */
  pollMillis: number;
  /** Changes written at once (`write`), between two checks of the lease in Redis. */
  batch: number;
  /**
   * Where the holder announces each position it recorded in the store, under the name `as()` gives
   * (read once the store is restored: it names the store's generation, so an emptied store is never
   * taken for a full one). The others hear it there instead of querying the store.
   */
  announce?: { checkpoints: WatchedCheckpoints; as: () => string };
}

/**
 * Projects into a store every replica shares (the external triple store): exactly one replica, the
 * holder of the lease, writes it, in log order, from the position recorded in the store, and records
 * its position after each batch. The others only read it: their position is the store's, and their
 * readers wait for it. Every replica's feed gives the changes after the store's position (from
 * its window, or again from the log past it), so whichever replica takes the lease over (the
 * holder died, mid-batch or not) has every change the store lacks. Writes are idempotent (a revision graph is written whole, once; heads are set to
 * what a change says), so the changes the dead holder wrote after its last record are written again
 * harmlessly, and none is lost.
 *
 * The store's record is the truth a new holder resumes from. The others learn the position from
 * the holder's announcement in Redis as it is made (`announce`), and read it there again now and
 * then in case one was missed: they send the store no query to follow it.
 */
export class StoreProjectionRunner implements Follower {
  readonly name = 'store';
  private known = 0;
  private holding = false;
  private stopped = false;
  private failures = 0;
  private quarantined = 0;
  private lastError: string | undefined;
  private wake: (() => void) | undefined;
  /** A wake-up asked for while the loop was busy: its next pause ends at once. */
  private woken = false;
  private running: Promise<void> | undefined;
  private unwatch: (() => Promise<void>) | undefined;
  private readonly waiters = new Set<{ seq: number; done: () => void }>();

  constructor(
    private readonly feed: ChangeFeed,
    private readonly lease: WriterLease,
    private readonly stored: StorePosition,
    /** Writes a batch in log order while `proceed()` holds (the lease is valid); false when it stopped before the end. */
    private readonly write: (changes: readonly Change[], proceed: () => boolean) => Promise<boolean>,
    private readonly options: StoreRunnerOptions,
  ) {
    // Only the holder has work when the fold pushes; the others hear its announcements.
    feed.reader(
      () => this.known,
      () => (this.holding ? this.wakeUp() : undefined),
    );
  }

  get position(): number {
    return this.known;
  }

  /** Whether this replica is the one projecting into the store. */
  get holder(): boolean {
    return this.holding;
  }

  status(): { name: string; position: number; failures: number; quarantined: number; lastError?: string; holder: boolean } {
    return {
      name: this.name,
      position: this.known,
      failures: this.failures,
      quarantined: this.quarantined,
      holder: this.holding,
      ...(this.lastError === undefined ? {} : { lastError: this.lastError }),
    };
  }

  /** Starts at the store's position (the feed holds every change after `from`, where the states were restored). */
  async start(from: number): Promise<void> {
    this.known = (await this.stored.get()) ?? 0;
    const announce = this.options.announce;
    if (announce) this.unwatch = await announce.checkpoints.watch(announce.as(), (position) => this.heard(position));
    if (this.known < from)
      // The restore replays the whole log when the store is behind the snapshot, so this is a store emptied meanwhile.
      this.options.log.warn(`store projection: the store is at ${this.known}, behind this replica's start at ${from}; another replica must bring it up`);
    this.running = this.loop(from);
  }

  reach(seq: number): Promise<void> {
    if (this.known >= seq) return Promise.resolve();
    return new Promise((resolve) => {
      const waiter = { seq, done: () => (this.waiters.delete(waiter), resolve()) };
      this.waiters.add(waiter);
      this.wakeUp();
    });
  }

  /** Stops projecting and gives the lease up at once, so that another replica takes over without waiting for it to expire. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.wakeUp();
    await this.running;
    for (const waiter of [...this.waiters]) waiter.done();
    await this.unwatch?.();
    if (this.holding) await this.lease.release().catch(() => undefined);
    this.holding = false;
  }

  private async loop(from: number): Promise<void> {
    while (!this.stopped) {
      try {
        if (this.holding && !(await this.lease.renew())) {
          this.holding = false;
          this.options.log.warn('store projection: the lease was lost; another replica projects into the store');
        }
        if (!this.holding && this.known >= from && (await this.lease.acquire()) !== undefined) {
          // The position the previous holder recorded: what it wrote after it is written again.
          this.known = (await this.stored.get()) ?? 0;
          this.holding = true;
          // Announced at once: a replica starting while the store is idle need not ask the store.
          await this.options.announce?.checkpoints.set(this.options.announce.as(), this.known);
          this.options.log.info(`store projection: this replica holds the lease (epoch ${this.lease.epoch}), projecting from event ${this.known}`, {
            epoch: this.lease.epoch,
            position: this.known,
          });
        }
        if (this.holding) {
          if (await this.project()) continue;
        } else this.known = Math.max(this.known, await this.announced());
        this.failures = 0;
        this.lastError = undefined;
      } catch (error) {
        this.failures++;
        this.lastError = (error as Error).message ?? String(error);
        this.options.log.warn(`store projection: ${this.lastError} (attempt ${this.failures})`);
      }
      this.notify();
      await this.pause(this.holding ? this.options.renewMillis : this.waiters.size ? this.options.pollMillis : this.options.renewMillis);
    }
  }

  /** One batch under the lease; true when there may be more to write at once. */
  private async project(): Promise<boolean> {
    // The store's own record first: a store that crashed came back at its last checkpoint (with fast
    // writes, SparqlServer's `fastWrites`, everything after it is lost), its record with it, and
    // what it lost is written again from there. One small query a batch.
    const recorded = (await this.stored.get()) ?? 0;
    if (recorded < this.known) {
      this.options.log.warn(
        `store projection: the store records event ${recorded}, behind the ${this.known} written (it came back from a crash): writing again from there`,
        {
          recorded,
          written: this.known,
        },
      );
      this.known = recorded;
    }
    // From the feed's window, or again from the log when the store fell behind it (a writer slower than the writes).
    const { changes: batch, through } = await this.feed.read(this.known, this.options.batch);
    let position = batch.length ? this.known : through;
    // Between two renewals, never write past the lease's local deadline: another replica may own it by then.
    const valid = () => this.lease.valid();
    if (batch.length && valid() && (await this.writeOrSplit(batch, valid))) {
      position = through;
      this.failures = 0;
      this.lastError = undefined;
    }
    if (position === this.known || !valid()) return false;
    await this.stored.set(position);
    this.known = position;
    this.notify();
    this.feed.release();
    const announce = this.options.announce;
    await announce?.checkpoints.set(announce.as(), position);
    return batch.length > 0;
  }

  /**
   * Writes the changes; when the store refuses the request (or writing them fails otherwise, the store
   * being there), writes each half of them the same way, down to the one change it refuses, which is
   * quarantined alone (counted in `status`, logged) while the others are written: no change holds
   * the store still. Halving the changes halves the graphs of each request too. A store that is away
   * is not a refusal: the whole batch is tried again later.
   */
  private async writeOrSplit(changes: readonly Change[], proceed: () => boolean): Promise<boolean> {
    try {
      return await this.write(changes, proceed);
    } catch (error) {
      if (unavailable(error) || !proceed()) throw error;
      if (changes.length > 1) {
        const half = Math.ceil(changes.length / 2);
        return (await this.writeOrSplit(changes.slice(0, half), proceed)) && (await this.writeOrSplit(changes.slice(half), proceed));
      }
      const { logged } = changes[0]!;
      this.quarantined++;
      this.options.log.error(
        `projection ${this.name}: event ${logged.seq} quarantined, the store refuses it: ${logged.kind} ${logged.key} ${logged.event.type}: ${(error as Error).message ?? String(error)}`,
        { projection: this.name, quarantined: logged.seq, kind: logged.kind, key: logged.key },
      );
      return true;
    }
  }

  /** The store's position as the holder announced it; the store's own record while nothing was announced. */
  private async announced(): Promise<number> {
    const announce = this.options.announce;
    const position = announce && (await announce.checkpoints.get(announce.as()));
    return position ?? (await this.stored.get()) ?? 0;
  }

  /** An announcement: the holder's own are its record already. */
  private heard(position: number): void {
    if (this.holding || position <= this.known) return;
    this.known = position;
    this.notify();
  }

  private notify(): void {
    for (const waiter of [...this.waiters]) if (waiter.seq <= this.known) waiter.done();
  }

  private wakeUp(): void {
    if (this.wake) this.wake();
    else this.woken = true;
  }

  private pause(millis: number): Promise<void> {
    if (this.stopped || this.woken) {
      this.woken = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const timer = setTimeout(() => ((this.wake = undefined), resolve()), millis);
      this.wake = () => {
        clearTimeout(timer);
        this.wake = undefined;
        resolve();
      };
    });
  }
}
