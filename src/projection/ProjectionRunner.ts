import type { Log } from '../kernel/Log.js';
import type { ChangeFeed } from './ChangeFeed.js';
import type { Change } from './Projection.js';
import type { Follower } from './ReadBarrier.js';

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
  /** Called with the position after each batch (a durable checkpoint, when the runner keeps one). */
  checkpoint?: (position: number) => void;
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
    this.kick();
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
    this.wakeUp?.();
    for (const waiter of [...this.waiters]) waiter.done();
  }

  private kick(): void {
    if (!this.running && !this.stopped) void this.run();
  }

  private async run(): Promise<void> {
    this.running = true;
    try {
      while (!this.stopped) {
        const limit = this.options.after ? this.options.after.position : Infinity;
        const batch = this.feed.after(this.applied, 500).filter((c) => c.logged.seq <= limit);
        if (!batch.length) {
          // Nothing to apply up to the fold's position: the events between made no change.
          const passed = Math.min(this.feed.position, limit);
          if (passed > this.applied && this.feed.after(this.applied, 1).length === 0) {
            this.applied = passed;
            this.notify();
          }
          break;
        }
        for (const change of batch) {
          if (this.stopped) return;
          await this.applyWithRetries(change);
          this.applied = change.logged.seq;
          this.notify();
        }
        this.options.checkpoint?.(this.applied);
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
