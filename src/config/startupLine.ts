import { join } from 'node:path';
import type { Config } from './Config.js';

/** A Redis address without its credentials: it goes to the terminal and to logs. */
const redisAddress = (url: string): string => {
  try {
    const parsed = new URL(url);
    parsed.username = '';
    parsed.password = '';
    return parsed.toString();
  } catch {
    return 'redis';
  }
};

/**
 * The one line `npm start` prints once it listens: where, who may do what, and which event log,
 * store and storages are in use, so a new user knows what they started.
 */
export const startupLine = (config: Config, host: string, openToAnonymous: boolean): string => {
  const access = openToAnonymous
    ? 'open: anonymous callers may do everything until the root ACL is replaced (README, "Identities and access control")'
    : 'access by ACLs (anonymous callers get what the ACLs grant them)';
  const eventLog = config.redisUrl
    ? `Redis Streams at ${redisAddress(config.redisUrl)} (key prefix '${config.redisPrefix ?? 'registry'}')`
    : `journal ${join(config.dataDir, 'journal', 'events.log')}`;
  const store = `embedded Oxigraph (${join(config.dataDir, 'projection')})${config.textIndex === false ? ', no text index' : ', text index on'}`;
  const defaults = config.storages?.defaults;
  const storages = [
    `disk (default volume ${defaults?.DiskStorage.volume ?? '/tmp'})`,
    ...(defaults?.BlobStorage.enabled ? [`BlobStorage (S3${defaults.BlobStorage.endpoint ? ` at ${defaults.BlobStorage.endpoint}` : ''})`] : []),
    ...(defaults?.RemoteDiskStorage.enabled ? ['RemoteDiskStorage'] : []),
  ].join(', ');
  return `registry listening on ${config.baseUrl} (${host}:${config.port}); ${access}; event log: ${eventLog}; store: ${store}; storages: ${storages}; data in ${config.dataDir}`;
};
