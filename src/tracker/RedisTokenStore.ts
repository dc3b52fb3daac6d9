import type { Redis } from 'ioredis';
import type { Log } from '../kernel/Log.js';
import type { TokenStore, TrackerToken, TrackerUser } from './TokenStore.js';
import { openToken, rowName, sealToken } from './tokenCipher.js';

/**
 * Users' tokens in one Redis hash shared by every replica (a user may start the flow on one and
 * finish it on another), each row encrypted as in the token file: Redis never sees a token in clear.
 */
export class RedisTokenStore implements TokenStore {
  constructor(
    private readonly redis: Redis,
    /** The hash's key, under the log's hash tag. */
    private readonly key: string,
    private readonly secret: Buffer,
    private readonly log: Log,
  ) {
    if (secret.length !== 32) throw new Error('the token key must be 32 bytes');
  }

  async get(user: TrackerUser): Promise<TrackerToken | undefined> {
    const name = rowName(user);
    const row = await this.redis.hget(this.key, name);
    if (row === null) return undefined;
    try {
      return openToken(this.secret, name, row);
    } catch {
      this.log.warn('a stored tracker token could not be decrypted; the user must authorize again', { row: name });
      return undefined;
    }
  }

  async save(user: TrackerUser, token: TrackerToken): Promise<void> {
    const name = rowName(user);
    await this.redis.hset(this.key, name, sealToken(this.secret, name, token));
  }
}
