/**
 * The count of each caller's costly requests in flight (the port behind CallerConcurrency): in
 * process for one replica, in Redis for replicas that share one, so a caller's share is the same
 * whichever replicas its requests reach.
 */
export interface CostlyShares {
  /** How many costly requests one caller may have in flight. */
  readonly perCaller: number;
  /** Counts one more request of the caller and returns what ends it, or undefined (nothing counted) when the caller has its share in flight already. */
  take(key: string): Promise<(() => Promise<void>) | undefined>;
}

/** The count kept in this process: a replica on its own. */
export class InProcessShares implements CostlyShares {
  private readonly running = new Map<string, number>();

  constructor(readonly perCaller: number) {}

  take(key: string): Promise<(() => Promise<void>) | undefined> {
    const now = this.running.get(key) ?? 0;
    if (now >= this.perCaller) return Promise.resolve(undefined);
    this.running.set(key, now + 1);
    let ended = false;
    return Promise.resolve(() => {
      if (ended) return Promise.resolve();
      ended = true;
      const left = this.running.get(key)! - 1;
      if (left) this.running.set(key, left);
      else this.running.delete(key);
      return Promise.resolve();
    });
  }
}
