import type { Redis } from 'ioredis';
import type { ProjectionCheckpoints } from './ProjectionCheckpoints.js';

/**
 * Projection positions in one Redis hash beside the log: what a projection into a store shared by
 * every replica (the external triple store) records, so whichever replica projects next resumes
 * where the last one stopped.
 */
export class RedisProjectionCheckpoints implements ProjectionCheckpoints {
  constructor(
    private readonly redis: Redis,
    private readonly key: string,
  ) {}

  async get(name: string): Promise<number | undefined> {
    const value = await this.redis.hget(this.key, name);
    return value === null ? undefined : Number(value);
  }

  async set(name: string, position: number): Promise<void> {
    await this.redis.hset(this.key, name, String(position));
  }
}
