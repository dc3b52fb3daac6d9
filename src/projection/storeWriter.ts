import { SparqlRequestFailed } from '../store/SparqlHttpClient.js';
import type { WriterLease } from '../store/StoreLease.js';
import type { Change } from './Projection.js';
import type { ExecutionStrategy, RuntimeControl } from './ProjectionRuntime.js';

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

export interface StoreWriterOptions {
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

/** The store's writer as its runtime runs it, and whether this replica holds the lease. */
export type StoreWriter = ExecutionStrategy & { readonly holder: boolean };

/**
 * Whether a failed write is the store being away (the same request is sent again later) rather
 * than the store, or the projection, refusing what the changes make of it (split, then quarantined).
 */
const unavailable = (error: unknown): boolean => error instanceof SparqlRequestFailed && error.unavailable;

/**
 * Projects into a store every replica shares (the external triple store): exactly one replica, the
 * holder of the lease, writes it, in log order, from the position recorded in the store, and records
 * its position after each batch. The others only read it: their position is the store's, and their
 * readers wait for it. Every replica's feed gives the changes after the store's position (from
 * its window, or again from the log past it), so whichever replica takes the lease over (the
 * holder died, mid-batch or not) has every change the store lacks. Writes are idempotent (a
 * revision graph is written whole, once; heads are set to what a change says), so the changes the
 * dead holder wrote after its last record are written again harmlessly, and none is lost.
 *
 * The store's record is the truth a new holder resumes from. The others learn the position from
 * the holder's announcement in Redis as it is made (`announce`), and read it there again now and
 * then in case one was missed: they send the store no query to follow it.
 */
export const storeWriter = (
  lease: WriterLease,
  stored: StorePosition,
  /** Writes a batch in log order while `proceed()` holds (the lease is valid); false when it stopped before the end. */
  write: (changes: readonly Change[], proceed: () => boolean) => Promise<boolean>,
  options: StoreWriterOptions,
): StoreWriter => {
  let runtime!: RuntimeControl;
  let holding = false;
  /** Where this replica's states were restored: it takes the lease only once the store is there. */
  let from = 0;
  let unwatch: (() => Promise<void>) | undefined;
  const { announce } = options;

  /** The store's position as the holder announced it; the store's own record while nothing was announced. */
  const announced = async (): Promise<number> => {
    const position = announce && (await announce.checkpoints.get(announce.as()));
    return position ?? (await stored.get()) ?? 0;
  };

  return {
    batch: options.batch,
    // A batch is one write: the position moves once the store recorded it.
    chunk: options.batch,
    // A change the store refuses alone is refused whatever the attempt.
    maxAttempts: 1,
    label: 'store projection',
    // A reader waiting makes a replica that follows read the announced position again at once.
    wakeOnWait: true,
    get holder() {
      return holding;
    },
    bind(control) {
      runtime = control;
    },

    /** Starts at the store's position (the feed holds every change after `snapshot`, where the states were restored). */
    async start(snapshot) {
      from = snapshot;
      runtime.moveTo((await stored.get()) ?? 0);
      if (announce)
        unwatch = await announce.checkpoints.watch(announce.as(), (position) => {
          // An announcement: the holder's own are its record already.
          if (!holding && position > runtime.position) runtime.moveTo(position);
        });
      if (runtime.position < snapshot)
        // The restore replays the whole log when the store is behind the snapshot, so this is a store emptied meanwhile.
        runtime.log.warn(`store projection: the store is at ${runtime.position}, behind this replica's start at ${snapshot}; another replica must bring it up`);
      return runtime.position;
    },

    async begin() {
      const { log } = runtime;
      if (holding && !(await lease.renew())) {
        holding = false;
        log.warn('store projection: the lease was lost; another replica projects into the store');
      }
      if (!holding && runtime.position >= from && (await lease.acquire()) !== undefined) {
        // The position the previous holder recorded: what it wrote after it is written again.
        runtime.moveTo((await stored.get()) ?? 0);
        holding = true;
        // Announced at once: a replica starting while the store is idle need not ask the store.
        await announce?.checkpoints.set(announce.as(), runtime.position);
        log.info(`store projection: this replica holds the lease (epoch ${lease.epoch}), projecting from event ${runtime.position}`, {
          epoch: lease.epoch,
          position: runtime.position,
        });
      }
      if (!holding) return Math.max(runtime.position, await announced());
      // The store's own record first: a store that crashed came back at its last checkpoint (with fast
      // writes, SparqlServer's `fastWrites`, everything after it is lost), its record with it, and
      // what it lost is written again from there. One small query a batch.
      const recorded = (await stored.get()) ?? 0;
      if (recorded < runtime.position) {
        log.warn(
          `store projection: the store records event ${recorded}, behind the ${runtime.position} written (it came back from a crash): writing again from there`,
          { recorded, written: runtime.position },
        );
        runtime.moveTo(recorded);
      }
      return undefined;
    },
    write,
    // Between two renewals, never write past the lease's local deadline: another replica may own it by then.
    proceed: () => lease.valid(),
    transient: unavailable,
    async record(position) {
      if (!lease.valid()) return false;
      await stored.set(position);
      return true;
    },
    async reached(position) {
      await announce?.checkpoints.set(announce.as(), position);
    },
    backoff: () => 0,
    pause: (_failing, waiting) => (holding ? options.renewMillis : waiting ? options.pollMillis : options.renewMillis),
    // Only the holder has work when the fold pushes; the others hear its announcements.
    wakeOnPush: () => holding,
    status: () => ({ holder: holding }),
    /** Gives the lease up at once, so that another replica takes over without waiting for it to expire. */
    async stop() {
      await unwatch?.();
      if (holding) await lease.release().catch(() => undefined);
      holding = false;
    },
  };
};
