import { Redis } from 'ioredis';
import type { RedisOptions } from 'ioredis';
import type { Log } from '../kernel/Log.js';
import { EventLogUnavailable } from './EventLog.js';

/** Where the log's Redis is: a URL, or Sentinel (the URL then gives only credentials and database). */
export interface RedisTarget {
  url?: string;
  sentinels?: { host: string; port: number }[];
  /** The primary's name the sentinels watch. */
  name?: string;
  /** After each append, wait for this many replicas of Redis to acknowledge it (`WAIT`), at most `waitMillis`. */
  waitReplicas?: number;
  waitMillis?: number;
  /**
   * The least `stream-node-max-bytes` the stream should be written with: set at open when Redis has
   * less (a server-wide setting, for the nodes made from then on). Absent or 0: Redis is left as is.
   */
  streamNodeBytes?: number;
}

/** How the target is named in log lines. */
const describeTarget = (target: RedisTarget): string | undefined =>
  target.sentinels ? `Sentinel ${target.name} via ${target.sentinels.map((s) => `${s.host}:${s.port}`).join(',')}` : target.url;

/**
 * Connects, waiting with backoff (and a log line per attempt) while Redis does not answer.
 * Afterwards the connection reconnects on its own; a command sent while Redis is away fails after
 * one retry (writes answer 503) and is never resent blindly (an append whose answer was lost must
 * not be appended twice).
 */
export const connectRedis = async (target: RedisTarget, log: Log, signal?: AbortSignal): Promise<Redis> => {
  const url = describeTarget(target);
  const options: RedisOptions = {
    lazyConnect: true,
    maxRetriesPerRequest: 1,
    autoResendUnfulfilledCommands: false,
    retryStrategy: (times) => Math.min(100 * 2 ** times, 2_000),
    ...(target.sentinels ? { sentinels: target.sentinels, name: target.name! } : {}),
  };
  for (let attempt = 1; ; attempt++) {
    // A fresh client per attempt: one given up on before it ever connected would not reconnect later.
    const redis = target.url ? new Redis(target.url, options) : new Redis(options);
    redis.on('error', () => undefined);
    try {
      await redis.connect();
      await redis.ping();
      return redis;
    } catch (error) {
      redis.disconnect();
      if (signal?.aborted) throw new Error(`the event log's Redis at ${url} does not answer: ${(error as Error).message}`);
      const wait = Math.min(250 * 2 ** (attempt - 1), 5_000);
      log.warn(`event log: waiting for Redis at ${url} (attempt ${attempt}: ${(error as Error).message}); next try in ${wait} ms`);
      await new Promise((r) => setTimeout(r, wait));
    }
  }
};

/**
 * An event of ~1.5 KB costs a quarter more in Redis' default 4 KB stream nodes (two or three
 * entries a node, each node with its own header and master entry), about 3 % more in 64 KB ones
 * (test/integration/redisBytesPerChange.test.ts). A Redis that refuses CONFIG (a managed service)
 * keeps its own setting, said once in the log: set it there.
 */
export const widenStreamNodes = async (redis: Redis, bytes: number, log: Log): Promise<void> => {
  try {
    const [, current] = (await redis.config('GET', 'stream-node-max-bytes')) as [string, string];
    if (Number(current) !== 0 && Number(current) < bytes) {
      await redis.config('SET', 'stream-node-max-bytes', String(bytes));
      log.info(`event log: Redis stream-node-max-bytes raised from ${current} to ${bytes} (fewer bytes per event)`);
    }
  } catch (error) {
    log.warn(
      `event log: cannot set Redis stream-node-max-bytes to ${bytes} (${(error as Error).message}): set it in Redis' own configuration, or each event costs up to a quarter more memory`,
    );
  }
};

/** Connection errors once per distinct failure (ioredis retries on its own; a reconnect loop must not flood the log). */
export const reportErrors = (connection: Redis, name: string, log: Log): void => {
  let last = '';
  connection.on('ready', () => (last = ''));
  connection.on('error', (error: Error) => {
    if (error.message === last) return;
    last = error.message;
    log.warn(`event log: Redis ${name} connection: ${error.message}`);
  });
};

/** A command that failed because Redis is away, as the port's `EventLogUnavailable`. */
export const reachable = async <T>(command: Promise<T>): Promise<T> => {
  try {
    return await command;
  } catch (error) {
    throw new EventLogUnavailable(`the event log's Redis is unreachable: ${(error as Error).message}`);
  }
};
