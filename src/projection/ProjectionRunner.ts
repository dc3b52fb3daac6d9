import type { Log } from '../kernel/Log.js';
import type { ChangeFeed } from './ChangeFeed.js';
import type { Change } from './Projection.js';
import type { ProjectionCheckpoints } from './ProjectionCheckpoints.js';
import type { Follower } from './ReadBarrier.js';

/** Shortest interval between two records of a durable runner's position. */
const RECORD_MILLIS = 1_000;

/** What a runner reports (`/metrics`, the offset endpoint, `/v1/version`). */
export interface RunnerStatus {
  name: string;
  /** Log position of the last change applied (or given up on). */
  position: number;
  /** Attempts failed in a row on the change after `position` (0: healthy). */
  failures: number;
  lastError?: string;
  /** Changes given up on after every attempt failed. */
  quarantined: number;
}

export interface RunnerOptions {
  /** Runs only behind this one (it reads what that one derives). */
  after?: ProjectionRunner;
  /** Attempts at one change before it is quarantined for this runner; `Infinity` for a store that must get everything. */
  maxAttempts: number;
  /** First back-off after a failure; doubled per attempt, at most 30 s. */
  backoffMillis: number;
  log: Log;
  /**
   * Where the runner records its position after each batch (and before it waits on a failing
   * change), when its projection is durable; none: the projection is in memory only and rebuilt
   * from the states at every start.
   */
  checkpoints?: ProjectionCheckpoints;
  /** The projection's storage was created empty at this start (a deleted index file): a recorded position describes what was lost. */
  fresh?: boolean;
  /** Makes what the projection applied durable before its position is recorded (a database commit). */
  flush?: () => Promise<void> | void;
}

/**
 * One projection with its own position in the log: it applies the states' changes in order at its
 * own pace, so one that is slow or failing holds up neither writes nor the other projections. A
 * failing change is retried with back-off and reported, then quarantined for this runner only.
 * Readers wait for it (`reach`); writes promising `indexing=sync` wait too (`settle`), but never
 * for a runner that is failing.
 */
export class ProjectionRunner implements Follower {
  private applied = 0;
  private failures = 0;
  private lastError: string | undefined;
  private quarantined = 0;
  private running = false;
  private stopped = false;
  private wakeUp: (() => void) | undefined;
  private readonly waiters = new Set<{ seq: number; strict: boolean; done: () => void }>();
  private readonly detach: () => void;

  constructor(
    readonly name: string,
    private readonly step: (change: Change) => Promise<void>,
    private readonly feed: ChangeFeed,
    private readonly options: RunnerOptions,
  ) {
    this.detach = feed.reader(
      () => this.applied,
      () => this.kick(),
    );
    options.after?.onAdvance(() => this.kick());
  }

  get position(): number {
    return this.applied;
  }

  status(): RunnerStatus {
    return {
      name: this.name,
      position: this.applied,
      failures: this.failures,
      ...(this.lastError === undefined ? {} : { lastError: this.lastError }),
      quarantined: this.quarantined,
    };
  }

  /** Starts (again) from a position the runner's projection was restored to. */
  startAt(position: number): void {
    this.applied = position;
    this.recorded = position;
    this.kick();
  }

  /**
   * At start, once the states are restored at `snapshot` (the feed then holds every change after
   * it). A durable runner whose recorded position is at or past the snapshot resumes from it and
   * applies nothing twice. One with no position, or behind the snapshot (the changes up to the
   * snapshot are no longer folded, so no feed holds them), has `rebuild` bring its projection to the
   * states at the snapshot (the text index re-reads from the log the content it lacks), then starts
   * there; so does one recorded past the log's end. A projection in memory only is always rebuilt:
   * its position starts at the snapshot.
   * Returns where the runner starts.
   */
  async resume(snapshot: number, logEnd: number, rebuild: () => Promise<void>): Promise<number> {
    const recorded = this.options.fresh ? undefined : await this.options.checkpoints?.get(this.name);
    // A position past the log's end describes events the log no longer has (a restored backup): rebuilt.
    if (recorded !== undefined && recorded >= snapshot && recorded <= logEnd) {
      this.options.log.info(`projection ${this.name}: resumes from its recorded position ${recorded} (snapshot at ${snapshot})`, {
        projection: this.name,
        resumed: recorded,
      });
      this.startAt(recorded);
      return recorded;
    }
    await rebuild();
    if (this.options.checkpoints) {
      await this.options.flush?.();
      await this.options.checkpoints.set(this.name, snapshot);
      this.options.log.info(
        `projection ${this.name}: ${recorded === undefined ? 'no recorded position' : `recorded position ${recorded} is outside the snapshot's ${snapshot} to the log's end ${logEnd}`}; rebuilt from the states at ${snapshot}`,
      );
    }
    this.startAt(snapshot);
    return snapshot;
  }

  /** The durable runner's last recorded position. */
  private recorded = 0;
  private recordedAt = 0;
  private recordTimer: NodeJS.Timeout | undefined;

  /**
   * Records at most once per `RECORD_MILLIS`: each record commits the projection and fsyncs, and a
   * replay applies changes one by one. A position recorded late only costs applying again.
   */
  private recordSoon(): void {
    if (!this.options.checkpoints || this.recordTimer || this.stopped) return;
    const wait = Math.max(0, this.recordedAt + RECORD_MILLIS - performance.now());
    this.recordTimer = setTimeout(() => {
      this.recordTimer = undefined;
      if (!this.stopped) void this.record();
    }, wait);
    this.recordTimer.unref();
  }

  /** Records the position now (a clean shutdown: the restart then resumes from it). */
  async recordNow(): Promise<void> {
    clearTimeout(this.recordTimer);
    this.recordTimer = undefined;
    await this.record();
  }

  private async record(): Promise<void> {
    const { checkpoints } = this.options;
    if (!checkpoints || this.recorded === this.applied) return;
    const position = this.applied;
    this.recordedAt = performance.now();
    try {
      await this.options.flush?.();
      await checkpoints.set(this.name, position);
      this.recorded = position;
    } catch (error) {
      // An unrecorded position only costs applying again (every projection is idempotent) after a restart.
      this.options.log.warn(`projection ${this.name}: cannot record its position ${position}: ${(error as Error).message}`);
    }
  }

  /** Resolves once the runner applied `seq` (reads: they may not see less). */
  reach(seq: number): Promise<void> {
    return this.wait(seq, true);
  }

  /** Resolves once the runner applied `seq`, or as soon as it is failing (writes: one broken projection does not stop them). */
  settle(seq: number): Promise<void> {
    return this.wait(seq, false);
  }

  private wait(seq: number, strict: boolean): Promise<void> {
    if (this.applied >= seq || (!strict && this.failures > 0)) return Promise.resolve();
    return new Promise((resolve) => {
      const waiter = { seq, strict, done: () => (this.waiters.delete(waiter), resolve()) };
      this.waiters.add(waiter);
    });
  }

  private readonly advanceListeners: (() => void)[] = [];
  onAdvance(listener: () => void): void {
    this.advanceListeners.push(listener);
  }

  /** Stops for good; the feed no longer keeps changes for it (runners created and dropped at run time: views). */
  stop(): void {
    this.stopped = true;
    this.detach();
    clearTimeout(this.recordTimer);
    this.wakeUp?.();
    for (const waiter of [...this.waiters]) waiter.done();
  }

  /** Told of a change while its loop was reading: it reads again before it stops. */
  private kicked = false;

  private kick(): void {
    if (this.running) this.kicked = true;
    else if (!this.stopped) void this.run();
  }

  private async run(): Promise<void> {
    this.running = true;
    try {
      while (!this.stopped) {
        this.kicked = false;
        const limit = this.options.after ? this.options.after.position : Infinity;
        // From the feed's window, or again from the log when this runner fell behind it.
        const { changes, through } = await this.feed.read(this.applied, 500);
        const batch = changes.filter((c) => c.logged.seq <= limit);
        // Positions up to it that made no change (pruned events, unknown kinds) are passed as well.
        const passed = Math.min(through, limit);
        if (!batch.length && passed <= this.applied) {
          if (this.kicked) continue;
          break;
        }
        for (const change of batch) {
          if (this.stopped) return;
          await this.applyWithRetries(change);
          this.applied = change.logged.seq;
          this.notify();
        }
        if (passed > this.applied) {
          this.applied = passed;
          this.notify();
        }
        this.recordSoon();
        this.feed.release();
      }
    } finally {
      this.running = false;
    }
  }

  private async applyWithRetries(change: Change): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        await this.step(change);
        if (this.failures) this.options.log.info(`projection ${this.name}: applies again from event ${change.logged.seq}`);
        this.failures = 0;
        this.lastError = undefined;
        return;
      } catch (error) {
        this.failures = attempt;
        this.lastError = (error as Error).message ?? String(error);
        // Writes stop waiting for a failing runner; readers keep waiting (and are refused past their bound).
        for (const waiter of [...this.waiters]) if (!waiter.strict) waiter.done();
        const { logged } = change;
        if (attempt >= this.options.maxAttempts) {
          this.quarantined++;
          this.options.log.error(
            `projection ${this.name}: event ${logged.seq} quarantined after ${attempt} attempts: ${logged.kind} ${logged.key} ${logged.event.type}: ${this.lastError}`,
            { projection: this.name, quarantined: logged.seq, kind: logged.kind, key: logged.key },
          );
          this.failures = 0;
          return;
        }
        // What was applied before the failing change is kept across a restart.
        if (attempt === 1) await this.record();
        const wait = Math.min(this.options.backoffMillis * 2 ** (attempt - 1), 30_000);
        this.options.log.warn(`projection ${this.name}: event ${logged.seq} failed (attempt ${attempt}), retrying in ${wait} ms: ${this.lastError}`, {
          projection: this.name,
          failing: logged.seq,
        });
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, wait);
          this.wakeUp = () => (clearTimeout(timer), resolve());
        });
        this.wakeUp = undefined;
        if (this.stopped) return;
      }
    }
  }

  private notify(): void {
    for (const waiter of [...this.waiters]) if (waiter.seq <= this.applied) waiter.done();
    for (const listener of this.advanceListeners) listener();
  }
}
