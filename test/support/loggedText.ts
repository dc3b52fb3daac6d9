import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { logKeys } from '../../src/events/RedisEventLog.js';
import type { TestServer } from './server.js';
import { REDIS_URL } from './redis.js';

/**
 * Everything a test server's log holds, as text, on whichever layout it runs: the journal's file,
 * or on Redis (`TEST_LOG=redis`) the stream of events and the item records kept beside it (which
 * carry the items' latest states). A test asks it whether something written is still logged.
 */
export const loggedText = async (server: TestServer): Promise<string> => {
  if (!server.redisPrefix) return readFileSync(join(server.dataDir, 'journal', 'events.log'), 'utf8');
  const keys = logKeys(server.redisPrefix);
  const redis = new Redis(REDIS_URL);
  try {
    const events = (await redis.xrange(keys.stream, '-', '+')) as [string, string[]][];
    const records = await redis.hgetallBuffer(keys.items);
    return [...events.flatMap(([, fields]) => fields), ...Object.entries(records).map(([key, record]) => `${key} ${record.toString('latin1')}`)].join('\n');
  } finally {
    redis.disconnect();
  }
};
