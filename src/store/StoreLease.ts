import type { Redis } from 'ioredis';
import { randomUUID } from 'node:crypto';

/** Who may project into a store shared by every replica: exactly one at a time. */
export interface WriterLease {
  /** Takes the lease when nobody holds it; returns its epoch, or undefined when another replica holds it. */
  acquire(): Promise<number | undefined>;
  /** Extends the lease if this replica still holds it (the fence checked before each batch); false: it was lost. */
  renew(): Promise<boolean>;
  /** True while the lease, as of its last renewal, cannot have expired (checked before each write, no round trip). */
  valid(): boolean;
  /** The epoch of the lease held, undefined when none is. */
  readonly epoch: number | undefined;
  /** Gives the lease up at once (a clean shutdown), so another replica need not wait for it to expire. */
  release(): Promise<void>;
}

/** SET NX PX, and when taken, the epoch incremented and stored with the owner in the lease's value. */
const ACQUIRE = `
if redis.call('SET', KEYS[1], 'claiming', 'NX', 'PX', ARGV[2]) then
  local epoch = redis.call('INCR', KEYS[2])
  redis.call('SET', KEYS[1], epoch .. ':' .. ARGV[1], 'PX', ARGV[2])
  return epoch
end
return false`;
const RENEW = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return 0`;
const RELEASE = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`;

export interface LeaseOptions {
  /** How long the lease lasts without a renewal. */
  ttlMillis: number;
  /** Kept off the end of the lease: the holder stops writing that long before it could expire in Redis. */
  marginMillis: number;
}

/**
 * A lease in Redis: `SET NX PX` with renewal, fenced by an epoch that grows with every holder. The
 * holder checks its lease in Redis before each batch (`renew`) and, between round trips, its local
 * deadline before each write (`valid`): measured from before the command was sent and cut by a
 * margin, so a holder that stalled (a pause, a partition) stops writing before Redis lets another
 * replica take over. A holder that dies simply stops renewing; the lease expires and another
 * replica takes it with the next epoch.
 */
export class RedisWriterLease implements WriterLease {
  private readonly owner = randomUUID();
  private held: { epoch: number; until: number } | undefined;

  constructor(
    private readonly redis: Redis,
    private readonly key: string,
    private readonly options: LeaseOptions,
  ) {}

  get epoch(): number | undefined {
    return this.valid() ? this.held?.epoch : undefined;
  }

  valid(): boolean {
    return this.held !== undefined && performance.now() < this.held.until;
  }

  async acquire(): Promise<number | undefined> {
    const sent = performance.now();
    const epoch = (await this.redis.eval(ACQUIRE, 2, this.key, `${this.key}:epoch`, this.owner, this.options.ttlMillis)) as number | null;
    if (epoch === null || epoch === undefined) return undefined;
    this.held = { epoch: Number(epoch), until: sent + this.options.ttlMillis - this.options.marginMillis };
    return this.held.epoch;
  }

  async renew(): Promise<boolean> {
    if (!this.held) return false;
    const sent = performance.now();
    const renewed = (await this.redis.eval(RENEW, 1, this.key, this.token(), this.options.ttlMillis)) as number;
    if (renewed === 1) this.held.until = sent + this.options.ttlMillis - this.options.marginMillis;
    else this.held = undefined;
    return renewed === 1;
  }

  async release(): Promise<void> {
    if (!this.held) return;
    const token = this.token();
    this.held = undefined;
    await this.redis.eval(RELEASE, 1, this.key, token);
  }

  private token(): string {
    return `${this.held!.epoch}:${this.owner}`;
  }
}

/** One process on a local journal: nobody else writes the store. */
export const soleWriter = (): WriterLease => ({
  acquire: async () => 1,
  renew: async () => true,
  valid: () => true,
  epoch: 1,
  release: async () => undefined,
});
