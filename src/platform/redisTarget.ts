import type { Config } from '../config/Config.js';
import { REDIS_STREAM_NODE_BYTES } from '../config/Config.js';
import type { RedisTarget } from '../events/RedisEventLog.js';

/** Where the configured event log's Redis is, or undefined for the embedded journal. */
export const redisTargetOf = (config: Config): RedisTarget | undefined =>
  config.redisUrl || config.redisSentinels
    ? {
        ...(config.redisUrl ? { url: config.redisUrl } : {}),
        ...(config.redisSentinels ? { sentinels: config.redisSentinels, name: config.redisSentinelName! } : {}),
        waitReplicas: config.redisWaitReplicas ?? 0,
        waitMillis: config.redisWaitMillis ?? 1_000,
        streamNodeBytes: config.redisStreamNodeBytes ?? REDIS_STREAM_NODE_BYTES,
      }
    : undefined;
