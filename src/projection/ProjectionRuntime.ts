import type { Log } from '../kernel/Log.js';
import type { ChangeFeed } from './ChangeFeed.js';
import type { Change } from './Projection.js';
import type { Follower } from './ReadBarrier.js';

/** What a runner reports (`/metrics`, the offset endpoint, `/v1/version`). */
export interface RunnerStatus {
  name: string;
  /** Log position of the last change applied (or given up on); the store's, for the store's runner. */
  position: number;
  /** Attempts failed in a row (0: healthy). */
  failures: number;
  lastError?: string;
  /** Changes given up on after every attempt failed. */
  quarantined: number;
  /** The shared store's runner only: whether this replica is the one writing it. */
  holder?: boolean;
}

/** What a strategy may do to the runtime running it. */
export interface RuntimeControl {
  readonly name: string;
  readonly position: number;
  readonly stopped: boolean;
  readonly log: Log;
  /** Sets the position, back too (a store that lost writes), and releases the readers it satisfies. */
  moveTo(position: number): void;
  /** Runs a turn soon (now when idle, again after the current one otherwise). */
  wake(): void;
}

/**
 * Where and how a runtime applies the changes (as Nexus Delta's `ExecutionStrategy`): on every
 * replica into its own projection (`everyReplica`), or on the one replica holding the shared store's
 * lease (`storeWriter`). The runtime reads the feed, keeps the position, the readers and the
 * failures; the strategy says who writes, how much at once, and where the position is recorded.
 */
export interface ExecutionStrategy {
  /** Changes read from the feed at once. */
  readonly batch: number;
  /** Changes written in one `write`: the runtime moves its position after each (1: a projection applying changes one by one). */
  readonly chunk: number;
  /** Attempts at one change the projection refuses before it is quarantined. */
  readonly maxAttempts: number;
  /** Prefix of the runtime's log lines about a turn that failed. */
  readonly label?: string;
  /** Readers waiting run a turn at once (a replica that follows the store's position reads it again). */
  readonly wakeOnWait: boolean;
  bind(control: RuntimeControl): void;
  /** The position to start from once the states are restored at `snapshot`. */
  start(snapshot: number, logEnd: number, rebuild: () => Promise<void>): Promise<number>;
  /** Before a turn: undefined when this replica writes, else the position it follows (another replica writes). */
  begin(): Promise<number | undefined>;
  /** Writes in log order while `proceed()` holds; false when it stopped before the end. */
  write(changes: readonly Change[], proceed: () => boolean): Promise<boolean>;
  /** Whether writing may go on (the store's lease is still valid). */
  proceed?(): boolean;
  /** The highest position the runtime may reach (a projection running behind another). */
  limit?(): number;
  /** A failure that is no refusal of the changes (the store away): the whole batch is written again later. */
  transient?(error: unknown): boolean;
  /** Before a new position is reached: records it; false when it may not be (the lease was lost). */
  record?(position: number): Promise<boolean>;
  /** Once a new position is reached and released (announced to the other replicas, or recorded soon). */
  reached?(position: number): Promise<void> | void;
  /** The first failure of a change: what was applied before it is recorded. */
  failing?(): Promise<void>;
  /** Back-off before attempt `attempt + 1` at a refused change. */
  backoff(attempt: number): number;
  /** How long an idle turn waits; undefined: until woken. */
  pause(failing: boolean, waiting: boolean): number | undefined;
  /** Whether a change pushed to the feed is this replica's to write. */
  wakeOnPush(): boolean;
  status?(): Pick<RunnerStatus, 'holder'>;
  /** Records the position now (a clean shutdown). */
  recordNow?(): Promise<void>;
  /** Called once the loop ended. */
  stop?(): Promise<void> | void;
}

const always = () => true;

/**
 * One projection's run through the changes the states' fold hands on, on its own position: it reads
 * the feed from that position, has its strategy write each batch (split in halves when refused,
 * down to the one change that is quarantined after its attempts), and moves on. Readers wait for
 * it (`reach`); writes promising `indexing=sync` wait too (`settle`), but never for a runner that
 * is failing. The loop is per batch, never per request: a request only adds a waiter.
 */
export class ProjectionRuntime implements Follower {
  private applied = 0;
  private failures = 0;
  private lastError: string | undefined;
  private quarantined = 0;
  private stopped = false;
  private running: Promise<void> | undefined;
  /** Ends the current pause; undefined while a turn runs. */
  private wakeUp: (() => void) | undefined;
  /** Woken while a turn ran: it runs another before it pauses. */
  private woken = false;
  private endBackoff: (() => void) | undefined;
  private readonly waiters = new Set<{ seq: number; strict: boolean; done: () => void }>();
  private readonly advanceListeners: (() => void)[] = [];
  private readonly detach: () => void;

  constructor(
    readonly name: string,
    private readonly feed: ChangeFeed,
    private readonly strategy: ExecutionStrategy,
    private readonly log: Log,
  ) {
    this.detach = feed.reader(
      () => this.applied,
      () => (this.strategy.wakeOnPush() ? this.kick() : undefined),
    );
    const runtime = this;
    strategy.bind({
      name,
      log,
      get position() {
        return runtime.applied;
      },
      get stopped() {
        return runtime.stopped;
      },
      moveTo: (position) => this.moveTo(position),
      wake: () => this.kick(),
    });
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
      ...this.strategy.status?.(),
    };
  }

  /** Starts once the states are restored at `snapshot`, where the strategy says (a recorded position, the store's). Returns it. */
  async start(snapshot: number, logEnd = Infinity, rebuild: () => Promise<void> = async () => undefined): Promise<number> {
    const position = await this.strategy.start(snapshot, logEnd, rebuild);
    this.startAt(position);
    return position;
  }

  /** Starts (again) from a position the runner's projection was restored to. */
  startAt(position: number): void {
    this.moveTo(position);
    if (this.running) this.kick();
    else this.running = this.loop();
  }

  /** Resolves once the runner reached `seq` (reads: they may not see less). */
  reach(seq: number): Promise<void> {
    return this.wait(seq, true);
  }

  /** Resolves once the runner reached `seq`, or as soon as it is failing (writes: one broken projection does not stop them). */
  settle(seq: number): Promise<void> {
    return this.wait(seq, false);
  }

  private wait(seq: number, strict: boolean): Promise<void> {
    if (this.applied >= seq || (!strict && this.failures > 0)) return Promise.resolve();
    return new Promise((resolve) => {
      const waiter = { seq, strict, done: () => (this.waiters.delete(waiter), resolve()) };
      this.waiters.add(waiter);
      if (this.strategy.wakeOnWait) this.kick();
    });
  }

  onAdvance(listener: () => void): void {
    this.advanceListeners.push(listener);
  }

  /** Records the position now (a clean shutdown: the restart then resumes from it). */
  async recordNow(): Promise<void> {
    await this.strategy.recordNow?.();
  }

  /**
   * Stops for good: the feed no longer keeps changes for it (runners created and dropped at run
   * time: views), its readers are released, and once the turn under way ended the strategy lets go
   * (the store's lease, given up at once so another replica takes over without waiting for it to expire).
   */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    this.detach();
    this.kick();
    this.endBackoff?.();
    for (const waiter of [...this.waiters]) waiter.done();
    await this.running;
    await this.strategy.stop?.();
  }

  private moveTo(position: number): void {
    this.applied = position;
    for (const waiter of [...this.waiters]) if (waiter.seq <= position) waiter.done();
    for (const listener of this.advanceListeners) listener();
  }

  private kick(): void {
    if (this.wakeUp) this.wakeUp();
    else this.woken = true;
  }

  private async loop(): Promise<void> {
    while (!this.stopped) {
      this.woken = false;
      let more = false;
      try {
        more = await this.turn();
        if (!this.stopped) {
          this.failures = 0;
          this.lastError = undefined;
        }
      } catch (error) {
        this.failed(error, this.failures + 1);
        this.log.warn(`${this.strategy.label ?? `projection ${this.name}`}: ${this.lastError} (attempt ${this.failures})`);
      }
      if (more || this.woken || this.stopped) continue;
      await this.pause(this.strategy.pause(this.failures > 0, this.waiters.size > 0));
    }
  }

  /** One batch; true when there may be more to write at once. */
  private async turn(): Promise<boolean> {
    const followed = await this.strategy.begin();
    if (followed !== undefined) {
      if (followed > this.applied) this.moveTo(followed);
      return false;
    }
    const limit = this.strategy.limit?.() ?? Infinity;
    // From the feed's window, or again from the log when this runner fell behind it.
    const read = await this.feed.read(this.applied, this.strategy.batch);
    const batch = limit === Infinity ? read.changes : read.changes.filter((c) => c.logged.seq <= limit);
    // Positions up to it that made no change (pruned events, unknown kinds) are passed as well.
    const passed = Math.min(read.through, limit);
    if (!batch.length && passed <= this.applied) return false;
    const proceed = this.strategy.proceed ? () => this.strategy.proceed!() : always;
    const { chunk } = this.strategy;
    for (let from = 0; from < batch.length; from += chunk) {
      const part = chunk >= batch.length ? batch : batch.slice(from, from + chunk);
      if (this.stopped || !proceed() || !(await this.writeOrSplit(part, proceed)) || this.stopped) return false;
      if (from + chunk >= batch.length) break;
      const last = part[part.length - 1]!.logged.seq;
      // A position recorded by nobody is reached at once (a projection applying changes one by one).
      if (!this.strategy.record) this.moveTo(last);
      else if (!(await this.reachPosition(last, false))) return false;
    }
    return (await this.reachPosition(passed, true)) && batch.length > 0;
  }

  /** Records and reaches `position`; false when the strategy may not record it. */
  private async reachPosition(position: number, endOfBatch: boolean): Promise<boolean> {
    if (position <= this.applied && !endOfBatch) return true;
    if (position !== this.applied) {
      if (this.strategy.record && !(await this.strategy.record(position))) return false;
      this.moveTo(position);
    }
    if (!endOfBatch) return true;
    this.feed.release();
    await this.strategy.reached?.(position);
    return true;
  }

  /**
   * Writes the changes; when the projection refuses them (the store refuses the request, or writing
   * fails otherwise, the store being there), writes each half of them the same way, down to the one
   * change it refuses, which is retried with back-off and quarantined alone after its attempts (counted
   * in `status`, logged) while the others are written: no change holds the runner still. Halving
   * the changes halves the graphs of each request too. A transient failure (the store away) is no
   * refusal: the whole batch is tried again later.
   */
  private async writeOrSplit(changes: readonly Change[], proceed: () => boolean): Promise<boolean> {
    for (let attempt = 1; ; attempt++) {
      try {
        const written = await this.strategy.write(changes, proceed);
        if (this.failures) this.log.info(`projection ${this.name}: applies again from event ${changes[0]!.logged.seq}`);
        this.failures = 0;
        this.lastError = undefined;
        return written;
      } catch (error) {
        if (this.strategy.transient?.(error) || !proceed()) throw error;
        if (changes.length > 1) {
          const half = Math.ceil(changes.length / 2);
          return (await this.writeOrSplit(changes.slice(0, half), proceed)) && (await this.writeOrSplit(changes.slice(half), proceed));
        }
        this.failed(error, attempt);
        const { logged } = changes[0]!;
        if (attempt >= this.strategy.maxAttempts) {
          this.quarantined++;
          this.log.error(
            `projection ${this.name}: event ${logged.seq} quarantined after ${attempt} attempt${attempt === 1 ? '' : 's'}: ${logged.kind} ${logged.key} ${logged.event.type}: ${this.lastError}`,
            { projection: this.name, quarantined: logged.seq, kind: logged.kind, key: logged.key },
          );
          this.failures = 0;
          return true;
        }
        // What was applied before the failing change is kept across a restart.
        if (attempt === 1) await this.strategy.failing?.();
        const wait = this.strategy.backoff(attempt);
        this.log.warn(`projection ${this.name}: event ${logged.seq} failed (attempt ${attempt}), retrying in ${wait} ms: ${this.lastError}`, {
          projection: this.name,
          failing: logged.seq,
        });
        await this.backoff(wait);
        if (this.stopped) return false;
      }
    }
  }

  private failed(error: unknown, attempt: number): void {
    this.failures = attempt;
    this.lastError = (error as Error).message ?? String(error);
    // Writes stop waiting for a failing runner; readers keep waiting (and are refused past their bound).
    for (const waiter of [...this.waiters]) if (!waiter.strict) waiter.done();
  }

  /** A retry's wait: only stopping ends it early (changes pushed meanwhile do not). */
  private backoff(millis: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => ((this.endBackoff = undefined), resolve()), millis);
      this.endBackoff = () => (clearTimeout(timer), (this.endBackoff = undefined), resolve());
    });
  }

  /** Until woken (a push, a reader, stopping), or `millis` when given. */
  private pause(millis: number | undefined): Promise<void> {
    if (this.stopped) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = millis === undefined ? undefined : setTimeout(() => ((this.wakeUp = undefined), resolve()), millis);
      this.wakeUp = () => {
        clearTimeout(timer);
        this.wakeUp = undefined;
        resolve();
      };
    });
  }
}
