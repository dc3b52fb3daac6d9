import { join } from 'node:path';
import type { Config } from '../config/Config.js';
import type { EventLog } from '../events/EventLog.js';
import { JournalEventLog } from '../events/JournalEventLog.js';
import { RedisEventLog } from '../events/RedisEventLog.js';
import type { Log } from '../kernel/Log.js';
import { redisTargetOf } from './redisTarget.js';

/** The event log: Redis Streams when configured (replicas share it), else the journal in the data directory. */
export const openLog = async (config: Config, logs: Log): Promise<{ log: EventLog; name: string; redis?: RedisEventLog }> => {
  const target = redisTargetOf(config);
  if (target) {
    const redis = await RedisEventLog.open(target, config.redisPrefix ?? 'registry', undefined, logs);
    return { log: redis, name: 'redis', redis };
  }
  return { log: await JournalEventLog.open(join(config.dataDir, 'journal', 'events.log'), logs), name: 'journal' };
};
