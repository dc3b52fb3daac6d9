import { createPrivateKey } from 'node:crypto';
import type { KeyObject } from 'node:crypto';
import { protocolProblem } from '../util/loopback.js';
import { ConfigError } from '../kernel/ConfigError.js';
import type { TrackerOptions } from '../tracker/TrackerOptions.js';

const KEYS = ['enabled', 'base', 'consumer-key', 'private-key', 'timeout', 'token-key'] as const;
type Key = (typeof KEYS)[number];

/** PKCS#8 PEM as it is, or the bare base64 of the PKCS#8 DER (the public system's form). */
const privateKeySetting = (raw: string): KeyObject => {
  const setting = 'plugins.jira.private-key';
  let key: KeyObject;
  try {
    key = raw.includes('-----BEGIN')
      ? createPrivateKey({ key: raw, format: 'pem' })
      : createPrivateKey({ key: Buffer.from(raw.replace(/\s+/g, ''), 'base64'), format: 'der', type: 'pkcs8' });
  } catch (error) {
    throw new ConfigError(setting, `expected an RSA private key in PKCS#8 PEM (or the base64 of its DER): ${(error as Error).message}`);
  }
  if (key.asymmetricKeyType !== 'rsa') throw new ConfigError(setting, `expected an RSA key, got a '${key.asymmetricKeyType}' key`);
  return key;
};

const baseSetting = (raw: string): string => {
  const base = raw.replace(/\/+$/, '');
  let url: URL;
  try {
    url = new URL(base);
  } catch {
    throw new ConfigError('plugins.jira.base', `expected an http(s) address, got '${raw}'`);
  }
  const problem = protocolProblem(url);
  if (problem) throw new ConfigError('plugins.jira.base', problem);
  return base;
};

const tokenKeySetting = (raw: string | undefined): Buffer | undefined => {
  if (raw === undefined || raw === '') return undefined;
  const key = Buffer.from(raw, 'base64');
  if (key.length !== 32) throw new ConfigError('plugins.jira.token-key', 'expected the base64 of 32 random bytes');
  return key;
};

const timeoutSetting = (raw: string | undefined): number => {
  if (raw === undefined || raw === '') return 10_000;
  if (!/^\d+$/.test(raw) || Number(raw) < 10 || Number(raw) > 600_000)
    throw new ConfigError('plugins.jira.timeout', `expected milliseconds between 10 and 600000, got '${raw}'`);
  return Number(raw);
};

/**
 * `plugins.jira.*` of the configuration file. The integration is off unless `enabled` is true and the
 * tracker's address, the consumer key and its private key are all given (its routes then answer that
 * it is not configured); a value that is given but unusable stops the start-up.
 */
export const trackerConfig = (file: (key: string) => string | undefined): TrackerOptions | undefined => {
  const value = (key: Key) => file(`plugins.jira.${key}`);
  const enabled = value('enabled');
  if (enabled !== undefined && enabled !== 'true' && enabled !== 'false')
    throw new ConfigError('plugins.jira.enabled', `expected true or false, got '${enabled}'`);
  const base = value('base');
  const consumerKey = value('consumer-key');
  const privateKey = value('private-key');
  if (enabled !== 'true' || !base || !consumerKey || !privateKey) return undefined;
  const tokenKey = tokenKeySetting(value('token-key'));
  return {
    base: baseSetting(base),
    consumerKey,
    privateKey: privateKeySetting(privateKey),
    timeoutMillis: timeoutSetting(value('timeout')),
    ...(tokenKey ? { tokenKey } : {}),
  };
};
