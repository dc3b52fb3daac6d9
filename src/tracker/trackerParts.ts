import { hkdfSync } from 'node:crypto';
import { join } from 'node:path';
import type { TrackerOptions } from './TrackerOptions.js';
import type { Log } from '../kernel/Log.js';
import { EncryptedTokenFile } from './EncryptedTokenFile.js';
import type { TokenStore } from './TokenStore.js';
import { TrackerClient } from './TrackerClient.js';
import type { TrackerParts } from './TrackerService.js';

/**
 * The key that encrypts stored tokens: the configured one, else one derived from the consumer's
 * private key (a new consumer key makes the old tokens useless at the tracker anyway).
 */
const tokenKey = (config: TrackerOptions): Buffer =>
  config.tokenKey ??
  Buffer.from(hkdfSync('sha256', config.privateKey.export({ format: 'der', type: 'pkcs8' }), 'registry-tracker-tokens', 'aes-256-gcm token store', 32));

/**
 * The configured integration's parts; none when not configured. Its tokens are kept in `shared`
 * when given (Redis, when replicas share the log: a flow begun on one ends on another), else in
 * `{dataDir}/tracker/tokens.json`.
 */
export const trackerParts = (config: TrackerOptions | undefined, dataDir: string, log: Log, shared?: (key: Buffer) => TokenStore): TrackerParts | undefined =>
  config && {
    client: new TrackerClient(config),
    tokens: shared ? shared(tokenKey(config)) : new EncryptedTokenFile(join(dataDir, 'tracker', 'tokens.json'), tokenKey(config), log),
    timeoutMillis: config.timeoutMillis,
  };
