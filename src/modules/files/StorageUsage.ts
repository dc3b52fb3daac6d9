import type { EventLog } from '../../events/EventLog.js';
import type { Log } from '../../kernel/Log.js';
import type { ChangeFeed } from '../../projection/ChangeFeed.js';
import { everyReplica } from '../../projection/everyReplica.js';
import { ProjectionRuntime } from '../../projection/ProjectionRuntime.js';
import type { StorageStatistics } from './files/UsageAccounts.js';
import { UsageAccounts } from './files/UsageAccounts.js';
import type { UsageSnapshots } from './UsageSnapshots.js';

/** Events read per page when the log after the snapshot is folded at start. */
const PAGE = 1_000;

interface StorageUsageOptions {
  /** A snapshot is kept once this many events were folded since the last one... */
  saveEvents: number;
  /** ...or this long after it, when anything changed. */
  saveMillis: number;
}

const DEFAULTS: StorageUsageOptions = { saveEvents: 1_000, saveMillis: 10_000 };

/** A storage's account, and the log position it is folded to (every file event up to it is in it). */
type Usage = StorageStatistics & { position: number };

/**
 * The storages' accounts as every replica keeps them (issue 34): folded from the changes the states'
 * fold hands on, by a runner of its own, on every layout alike. At start they are restored from the
 * last snapshot (`UsageSnapshots`: the one the replicas share beside the log, or the data
 * directory's) and the log after it, read as raw events: no file's state is read, and a replica on an
 * empty data directory reads only the log after the shared snapshot. A read waits until the runner
 * reached what the states' fold had when it began, which the read barrier made the log head as of
 * the request: statistics reflect every write acknowledged before them, on any replica.
 */
export class StorageUsage {
  private accounts = new UsageAccounts();
  private runtime: ProjectionRuntime | undefined;
  private started: Promise<void> | undefined;
  private savedAt = 0;
  private savedPosition = 0;
  private saving: Promise<void> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private readonly options: StorageUsageOptions;

  constructor(
    private readonly deps: {
      feed: ChangeFeed;
      log: Pick<EventLog, 'read'>;
      snapshots: UsageSnapshots;
      logger: Log;
    },
    options: Partial<StorageUsageOptions> = {},
  ) {
    this.options = { ...DEFAULTS, ...options };
  }

  /** Restores the accounts and starts following the feed (before the service listens). */
  start(): Promise<void> {
    // A start that failed (the log away) is tried again by the next read, not remembered.
    this.started ??= this.restore().catch((error: unknown) => {
      this.started = undefined;
      throw error;
    });
    return this.started;
  }

  private async restore(): Promise<void> {
    const { feed, log, snapshots, logger } = this.deps;
    const snapshot = await snapshots.load(feed.position).catch((error: unknown) => {
      logger.warn(`storage usage: snapshot not read (${(error as Error).message}); folding the log from its start`);
      return undefined;
    });
    this.accounts = new UsageAccounts(snapshot);
    this.savedPosition = this.accounts.position;
    const from = this.accounts.position;
    let through = from;
    // The log up to the fold's position, as raw events; the feed holds every change after it.
    for (let target = feed.position; through < target; target = feed.position) {
      const events = await log.read(through, PAGE);
      const within = events.filter((e) => e.seq <= target);
      for (const event of within) this.accounts.apply(event);
      through = events.length === PAGE && within.length === PAGE ? within[within.length - 1]!.seq : target;
    }
    this.accounts.passed(through);
    // Synchronously from the check that the fold is reached: no change is pushed in between.
    this.runtime = new ProjectionRuntime(
      'storageUsage',
      feed,
      everyReplica(async (change) => this.applied(change.logged), { maxAttempts: 5, backoffMillis: 100 }),
      logger,
    );
    this.runtime.startAt(this.accounts.position);
    this.savedAt = performance.now();
    this.timer = setInterval(() => this.saveIfDue(true), this.options.saveMillis);
    this.timer.unref();
    logger.info(
      `storage usage: restored ${snapshot ? `from the snapshot at event ${from}` : 'from the log'}; ${through - from} positions of the log folded after it`,
      {
        usageSnapshot: snapshot ? from : null,
        usageFolded: through - from,
      },
    );
  }

  private applied(logged: Parameters<UsageAccounts['apply']>[0]): void {
    this.accounts.apply(logged);
    this.saveIfDue(false);
  }

  /** The storage's account as of every write acknowledged before the call. */
  async usage(project: string, storageId: string): Promise<Usage> {
    await this.start();
    const runtime = this.runtime!;
    await runtime.reach(this.deps.feed.position);
    return { ...this.accounts.statistics(project, storageId), position: this.position() };
  }

  private position(): number {
    return Math.max(this.runtime?.position ?? 0, this.accounts.position);
  }

  /** Keeps a snapshot when enough was folded since the last one, or (`timed`) when it is old and anything changed. */
  private saveIfDue(timed: boolean): void {
    if (this.saving || !this.runtime) return;
    const position = this.position();
    const folded = position - this.savedPosition;
    if (folded <= 0) return;
    if (folded < this.options.saveEvents && !(timed && performance.now() - this.savedAt >= this.options.saveMillis)) return;
    void this.save();
  }

  private save(): Promise<void> {
    this.accounts.passed(this.position());
    const snapshot = this.accounts.snapshot();
    this.savedAt = performance.now();
    const saving = this.deps.snapshots
      .save(snapshot)
      .then(() => void (this.savedPosition = Math.max(this.savedPosition, snapshot.position)))
      // An unsaved snapshot only costs folding more of the log at the next start.
      .catch((error: unknown) => this.deps.logger.warn(`storage usage: snapshot at ${snapshot.position} not kept: ${(error as Error).message}`))
      .finally(() => void (this.saving = undefined));
    this.saving = saving;
    return saving;
  }

  /** Stops following and keeps a snapshot of where the accounts are (a clean stop). */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    if (!this.runtime) return;
    await this.runtime.stop();
    await this.saving;
    if (this.position() > this.savedPosition) await this.save();
  }
}
