import { EventLogUnavailable } from '../events/EventLog.js';
import { rejections } from '../domain/rejections.js';

/** Something that applies the log up to a position: the states' fold, or one projection runner. */
export interface Follower {
  readonly name: string;
  readonly position: number;
  /** Resolves once everything up to `seq` is applied (or, for a runner, once it reports a failure and stops being waited for). */
  reach(seq: number): Promise<void>;
}

export interface ReadBarrierOptions {
  /** Longest wait for a follower behind the log head; past it the request is refused (503 `ProjectionsBehind`). */
  waitMillis: number;
}

/**
 * Replicas answer as one: a request reflects every write acknowledged before it arrived, on any
 * replica. The barrier reads the log head once when the request arrives (one Redis round trip, a
 * local read for the journal) and waits until the followers the request reads from have applied
 * it; past the bound it refuses rather than answer from an older state.
 */
export class ReadBarrier {
  constructor(
    private readonly head: () => Promise<number>,
    private readonly options: ReadBarrierOptions,
  ) {}

  /**
   * The log head as of now, or undefined when the log cannot be reached: no write can be
   * acknowledged while it is away, so what this replica applied is then the latest it can know.
   */
  async note(): Promise<number | undefined> {
    try {
      return await this.head();
    } catch (error) {
      if (error instanceof EventLogUnavailable) return undefined;
      throw error;
    }
  }

  /** Waits until every follower reached `head`, within the bound shared by all of them. */
  async reach(head: number | undefined, followers: readonly Follower[]): Promise<void> {
    if (head === undefined) return;
    const behind = followers.filter((f) => f.position < head);
    if (!behind.length) return;
    const started = performance.now();
    let timer: NodeJS.Timeout | undefined;
    const expired = new Promise<'expired'>((resolve) => (timer = setTimeout(() => resolve('expired'), this.options.waitMillis)));
    try {
      const outcome = await Promise.race([Promise.all(behind.map((f) => f.reach(head))), expired]);
      if (outcome === 'expired') {
        const late = behind.filter((f) => f.position < head).map((f) => `${f.name} at ${f.position}`);
        if (late.length) throw rejections.projectionsBehind(head, late, Math.round(performance.now() - started));
      }
    } finally {
      clearTimeout(timer);
    }
  }
}
