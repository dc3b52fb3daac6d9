import type { Change } from './Projection.js';
import type { ProjectionCheckpoints } from './ProjectionCheckpoints.js';
import type { ExecutionStrategy, RuntimeControl } from './ProjectionRuntime.js';

/** Shortest interval between two records of a durable runner's position. */
const RECORD_MILLIS = 1_000;

export interface EveryReplicaOptions {
  /** Runs only behind this one (it reads what that one derives). */
  after?: { readonly position: number; onAdvance(listener: () => void): void };
  /** Attempts at one change before it is quarantined for this runner; `Infinity` for a projection that must get everything. */
  maxAttempts: number;
  /** First back-off after a failure; doubled per attempt, at most 30 s. */
  backoffMillis: number;
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
 * A projection every replica keeps of its own (the catalogue, the text index, the views): each
 * change is applied alone, in order, at the runner's own pace, so one that is slow or failing holds
 * up neither writes nor the other projections. A failing change is retried with back-off and
 * reported, then quarantined for this runner only. A durable projection records its position now
 * and then, and resumes from it.
 */
export const everyReplica = (step: (change: Change) => Promise<void>, options: EveryReplicaOptions): ExecutionStrategy => {
  let runtime!: RuntimeControl;
  /** The durable runner's last recorded position. */
  let recorded = 0;
  let recordedAt = 0;
  let recordTimer: NodeJS.Timeout | undefined;

  const record = async (): Promise<void> => {
    const { checkpoints } = options;
    if (!checkpoints || recorded === runtime.position) return;
    const position = runtime.position;
    recordedAt = performance.now();
    try {
      await options.flush?.();
      await checkpoints.set(runtime.name, position);
      recorded = position;
    } catch (error) {
      // An unrecorded position only costs applying again (every projection is idempotent) after a restart.
      runtime.log.warn(`projection ${runtime.name}: cannot record its position ${position}: ${(error as Error).message}`);
    }
  };

  return {
    // A batch is read at once; its changes are applied one by one, the position moving after each.
    batch: 500,
    chunk: 1,
    maxAttempts: options.maxAttempts,
    wakeOnWait: false,
    bind(control) {
      runtime = control;
      options.after?.onAdvance(() => control.wake());
    },

    /**
     * At start, once the states are restored at `snapshot` (the feed then holds every change after
     * it). A durable runner whose recorded position is at or past the snapshot resumes from it and
     * applies nothing twice. One with no position, or behind the snapshot (the changes up to the
     * snapshot are no longer folded, so no feed holds them), has `rebuild` bring its projection to the
     * states at the snapshot (the text index re-reads from the log the content it lacks), then starts
     * there; so does one recorded past the log's end. A projection in memory only is always rebuilt:
     * its position starts at the snapshot.
     */
    async start(snapshot, logEnd, rebuild) {
      const { name, log } = runtime;
      const found = options.fresh ? undefined : await options.checkpoints?.get(name);
      // A position past the log's end describes events the log no longer has (a restored backup): rebuilt.
      if (found !== undefined && found >= snapshot && found <= logEnd) {
        log.info(`projection ${name}: resumes from its recorded position ${found} (snapshot at ${snapshot})`, { projection: name, resumed: found });
        recorded = found;
        return found;
      }
      await rebuild();
      if (options.checkpoints) {
        await options.flush?.();
        await options.checkpoints.set(name, snapshot);
        log.info(
          `projection ${name}: ${found === undefined ? 'no recorded position' : `recorded position ${found} is outside the snapshot's ${snapshot} to the log's end ${logEnd}`}; rebuilt from the states at ${snapshot}`,
        );
      }
      recorded = snapshot;
      return snapshot;
    },

    begin: async () => undefined,
    limit: () => (options.after ? options.after.position : Infinity),
    write: async (changes) => (await step(changes[0]!), true),

    /**
     * Records at most once per `RECORD_MILLIS`: each record commits the projection and fsyncs, and a
     * replay applies changes one by one. A position recorded late only costs applying again.
     */
    reached() {
      if (!options.checkpoints || recordTimer || runtime.stopped) return;
      const wait = Math.max(0, recordedAt + RECORD_MILLIS - performance.now());
      recordTimer = setTimeout(() => {
        recordTimer = undefined;
        if (!runtime.stopped) void record();
      }, wait);
      recordTimer.unref();
    },
    failing: record,
    backoff: (attempt) => Math.min(options.backoffMillis * 2 ** (attempt - 1), 30_000),
    // Idle until a change is pushed (or the runner it follows moves); a turn that failed is tried again.
    pause: (failing) => (failing ? options.backoffMillis : undefined),
    wakeOnPush: () => true,
    async recordNow() {
      clearTimeout(recordTimer);
      recordTimer = undefined;
      await record();
    },
    stop: () => clearTimeout(recordTimer),
  };
};
