import type { Redis } from 'ioredis';
import type { ProjectionCheckpoints } from './ProjectionCheckpoints.js';

/**
 * Projection positions in one Redis hash beside the log: what a projection into a store shared by
 * every replica (the external triple store) records, so whichever replica projects next resumes
 * where the last one stopped, and the others learn how far it is without asking the store. Each
 * record is also published on a channel of its own, so a replica hears it as soon as it is made.
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
    await this.redis.multi().hset(this.key, name, String(position)).publish(this.channel(name), String(position)).exec();
  }

  /**
   * Calls `heard` with every position recorded for `name` from now on, by any process, on a
   * connection of its own (a subscribed connection takes no other command); resolves, once
   * subscribed, to the function that stops listening. A record made while the connection was
   * down is not heard: callers read `get` now and then besides.
   */
  async watch(name: string, heard: (position: number) => void): Promise<() => Promise<void>> {
    const channel = this.channel(name);
    const subscriber = this.redis.duplicate({ maxRetriesPerRequest: null });
    subscriber.on('error', () => undefined);
    subscriber.on('message', (from: string, message: string) => {
      const position = Number(message);
      if (from === channel && Number.isSafeInteger(position)) heard(position);
    });
    await subscriber.subscribe(channel);
    return async () => void (await subscriber.quit().catch(() => subscriber.disconnect()));
  }

  private channel(name: string): string {
    return `${this.key}:${name}`;
  }
}
