import { join } from 'node:path';
import type { Config } from './Config.js';

/** An address without its credentials: it goes to the terminal and to logs. */
const withoutCredentials = (url: string, otherwise: string): string => {
  try {
    const parsed = new URL(url);
    parsed.username = '';
    parsed.password = '';
    return parsed.toString();
  } catch {
    return otherwise;
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
    ? `Redis Streams at ${withoutCredentials(config.redisUrl, 'redis')} (key prefix '${config.redisPrefix ?? 'registry'}')`
    : `journal ${join(config.dataDir, 'journal', 'events.log')}`;
  const text = config.textIndex === false ? ', no text index' : config.sparqlStore ? ', text index on it' : ', text index on';
  const store = config.sparqlStore
    ? `external SPARQL 1.1 server at ${withoutCredentials(config.sparqlStore.query, 'its endpoint')}${text}`
    : `embedded Oxigraph (${join(config.dataDir, 'projection')})${text}`;
  const defaults = config.storages?.defaults;
  const storages = [
    `disk (default volume ${defaults?.DiskStorage.volume ?? '/tmp'})`,
    ...(defaults?.BlobStorage.enabled ? [`BlobStorage (S3${defaults.BlobStorage.endpoint ? ` at ${defaults.BlobStorage.endpoint}` : ''})`] : []),
    ...(defaults?.RemoteDiskStorage.enabled ? ['RemoteDiskStorage'] : []),
  ].join(', ');
  return `registry listening on ${config.baseUrl} (${host}:${config.port}); ${access}; event log: ${eventLog}; store: ${store}; storages: ${storages}; data in ${config.dataDir}`;
};
