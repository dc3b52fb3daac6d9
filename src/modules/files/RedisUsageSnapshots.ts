import type { Redis } from 'ioredis';
import type { UsageSnapshot } from './files/UsageAccounts.js';
import { parseUsageSnapshot } from './files/UsageAccounts.js';
import type { UsageSnapshots } from './UsageSnapshots.js';

/** The format this build writes and reads; one of another build is ignored (the accounts are folded again from the log). */
const VERSION = '1';

/** Replaces the snapshot unless the one kept is of this format and as far or further. KEYS: the hash. ARGV: version, position, body. */
const SAVE = `
local held = tonumber(redis.call('HGET', KEYS[1], 'position') or '')
if held and redis.call('HGET', KEYS[1], 'version') == ARGV[1] and held >= tonumber(ARGV[2]) then return 0 end
redis.call('HSET', KEYS[1], 'version', ARGV[1], 'position', ARGV[2], 'body', ARGV[3])
return 1
`;

/**
 * The storages' accounts in one Redis hash beside the log, written now and then by every replica
 * (the furthest stays): a replica on an empty data directory starts from it and folds only the log
 * after it. Its size grows with the number of storages, never of files.
 */
export class RedisUsageSnapshots implements UsageSnapshots {
  constructor(
    private readonly redis: Redis,
    private readonly key: string,
  ) {}

  /** Another replica's may be ahead of this one's fold: the log it describes is the same, shared. */
  async load(): Promise<UsageSnapshot | undefined> {
    const [version, body] = await this.redis.hmget(this.key, 'version', 'body');
    if (version !== VERSION || !body) return undefined;
    try {
      return parseUsageSnapshot(body);
    } catch {
      return undefined;
    }
  }

  async save(snapshot: UsageSnapshot): Promise<void> {
    await this.redis.eval(SAVE, 1, this.key, VERSION, String(snapshot.position), JSON.stringify(snapshot));
  }
}
