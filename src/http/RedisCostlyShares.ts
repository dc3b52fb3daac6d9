import type { Redis } from 'ioredis';
import { randomUUID } from 'node:crypto';
import type { Log } from '../kernel/Log.js';
import type { CostlyShares } from './CostlyShares.js';
import { InProcessShares } from './CostlyShares.js';

/** Redis' clock, in milliseconds: one clock for every replica, whatever theirs say. */
const NOW = `local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)`;
/** Drops the lapsed leases, and adds one if fewer than the share remain; the key outlives its last lease. */
const TAKE = `${NOW}
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[1]) then return 0 end
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[2]), ARGV[3])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1`;
/** Moves a lease's deadline on, if it has not lapsed (XX: a lapsed one is not taken again). */
const RENEW = `${NOW}
redis.call('ZADD', KEYS[1], 'XX', now + tonumber(ARGV[1]), ARGV[2])
redis.call('PEXPIRE', KEYS[1], ARGV[1])
return 1`;

export interface RedisSharesOptions {
  /** How long a lease lasts without renewal: a crashed replica's requests stop counting after it. */
  ttlMillis: number;
}

/**
 * The count of each caller's costly requests across every replica on one Redis: a sorted set per
 * caller, one member (a lease) per request in flight, scored by its deadline on Redis' clock.
 * Leases rather than a counter with INCR/DECR and an expiry: a replica that dies never gives its
 * counts back, and a counter's expiry, pushed on by every request, would keep them while the caller
 * stays busy; a lease lapses on its own deadline whatever else the caller does. A request that
 * runs longer renews its lease (every third of the lease). Redis away: the count falls back to this
 * replica's own (the cap as without Redis) rather than refuse every search or SPARQL query.
 */
export class RedisCostlyShares implements CostlyShares {
  private readonly local: InProcessShares;
  private warned = false;

  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    readonly perCaller: number,
    private readonly log: Log,
    private readonly options: RedisSharesOptions = { ttlMillis: 30_000 },
  ) {
    this.local = new InProcessShares(perCaller);
  }

  async take(key: string): Promise<(() => Promise<void>) | undefined> {
    const set = `${this.prefix}:${key}`;
    const lease = randomUUID();
    const ttl = this.options.ttlMillis;
    try {
      if (Number(await this.redis.eval(TAKE, 1, set, this.perCaller, ttl, lease)) !== 1) return undefined;
      this.warned = false;
    } catch (error) {
      this.warnOnce(error);
      return this.local.take(key);
    }
    const renewal = setInterval(() => void this.redis.eval(RENEW, 1, set, ttl, lease).catch((error: unknown) => this.warnOnce(error)), ttl / 3);
    renewal.unref();
    let ended = false;
    return async () => {
      if (ended) return;
      ended = true;
      clearInterval(renewal);
      // Not given back (Redis away): the lease lapses at its deadline.
      await this.redis.zrem(set, lease).catch((error: unknown) => this.warnOnce(error));
    };
  }

  private warnOnce(error: unknown): void {
    if (this.warned) return;
    this.warned = true;
    this.log.warn(`costly requests: Redis unreachable, counted per replica until it answers (${(error as Error).message})`);
  }
}
