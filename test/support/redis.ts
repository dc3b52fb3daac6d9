import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';

/** The shared Redis tests run against (`.ci/run` makes sure one answers on loopback). */
export const REDIS_URL = process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379';

/** A key prefix no other test run uses, so tests sharing one Redis stay apart. */
export const uniquePrefix = (name: string): string => `test-${name}-${process.pid}-${randomUUID().slice(0, 8)}`;

/** Removes every key under a prefix. */
export const dropPrefix = async (prefix: string): Promise<void> => {
  const redis = new Redis(REDIS_URL);
  try {
    // The log's keys share the hash tag `{prefix}`; older names had none.
    for (const pattern of [`${prefix}:*`, `{${prefix}}:*`]) {
      let cursor = '0';
      do {
        const [next, keys] = (await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 1000)) as [string, string[]];
        cursor = next;
        if (keys.length) await redis.del(...keys);
      } while (cursor !== '0');
    }
  } finally {
    redis.disconnect();
  }
};
