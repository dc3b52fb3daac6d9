import { existsSync, readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { ConfigError } from '../kernel/ConfigError.js';
import type { FrontendOptions } from '../frontend/frontendOptions.js';

/**
 * Each setting's text read into its value, or refused with a `ConfigError` naming the setting:
 * what `loadConfig` reads the environment and the config file with. Defaults live with each reader.
 */

/** One entry of `TRUSTED_PROXIES`: an address, a CIDR range (address/bits), or one of express' named ranges. */
const NAMED_RANGES = ['loopback', 'linklocal', 'uniquelocal'];
const trustedProxyEntry = (entry: string): boolean => {
  if (NAMED_RANGES.includes(entry)) return true;
  const [address, bits, extra] = entry.split('/');
  const family = isIP(address ?? '');
  if (family === 0 || extra !== undefined) return false;
  if (bits === undefined) return true;
  if (/^\d{1,3}$/.test(bits)) return Number(bits) <= (family === 4 ? 32 : 128);
  // A netmask in dotted form (10.0.0.0/255.0.0.0), as proxy-addr takes it.
  return family === 4 && isIP(bits) === 4;
};

const jsonStrings = (raw: string): string[] => {
  try {
    const parsed: unknown = JSON.parse(raw);
    if (Array.isArray(parsed) && parsed.every((e) => typeof e === 'string')) return parsed;
  } catch {
    // Reported below, with the entry that does not read.
  }
  return [raw];
};

export const trustedProxiesSetting = (raw: string | undefined): string[] => {
  if (raw === undefined || raw.trim() === '') return [];
  // The config file may give an array: it arrives here as JSON text.
  const listed = raw.trim().startsWith('[') ? jsonStrings(raw) : undefined;
  const entries = (listed ?? raw.split(',')).map((e) => e.trim());
  const bad = entries.find((e) => !trustedProxyEntry(e));
  if (bad !== undefined)
    throw new ConfigError(
      'TRUSTED_PROXIES',
      `expected a comma-separated list of addresses, CIDR ranges (10.0.0.0/8) or loopback, linklocal, uniquelocal; '${bad}' is none of these`,
    );
  return entries;
};

export const integerSetting = (name: string, raw: string | undefined, fallback: number, min: number, max: number): number => {
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) throw new ConfigError(name, `expected an integer between ${min} and ${max}, got '${raw}'`);
  return Number(raw);
};

export const redisPrefixSetting = (raw: string | undefined): string => {
  if (raw === undefined || raw === '') return 'registry';
  if (!/^[A-Za-z0-9_.:-]{1,100}$/.test(raw)) throw new ConfigError('REDIS_PREFIX', `expected 1-100 characters of [A-Za-z0-9_.:-], got '${raw}'`);
  return raw;
};

/** `host:port,host:port`. */
export const sentinelsSetting = (raw: string | undefined): { host: string; port: number }[] | undefined => {
  if (raw === undefined || raw === '') return undefined;
  return raw.split(',').map((entry) => {
    const match = /^\s*([A-Za-z0-9.-]{1,253}|\[[0-9a-fA-F:]+\]):(\d{1,5})\s*$/.exec(entry);
    if (!match || Number(match[2]) > 65535) throw new ConfigError('REDIS_SENTINELS', `expected host:port[,host:port...], got '${raw}'`);
    return { host: match[1]!.replace(/^\[|\]$/g, ''), port: Number(match[2]) };
  });
};

export const metricsSetting = (raw: string | undefined): 'off' | 'open' | 'permission' => {
  if (raw === undefined || raw === '') return 'permission';
  if (raw !== 'off' && raw !== 'open' && raw !== 'permission') throw new ConfigError('METRICS', `expected off, open or permission, got '${raw}'`);
  return raw;
};

const LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];
export const logLevelSetting = (raw: string | undefined): string => {
  if (raw === undefined || raw === '') return 'info';
  if (!LEVELS.includes(raw)) throw new ConfigError('LOG_LEVEL', `expected one of ${LEVELS.join(', ')}, got '${raw}'`);
  return raw;
};

export const bootstrapIdentitySetting = (raw: string | undefined): string => {
  if (raw === undefined || raw === '') return 'anonymous';
  if (!/^(anonymous|realms\/[A-Za-z0-9_-]+\/(authenticated|users\/[^/\s]+|groups\/[^/\s]+))$/.test(raw))
    throw new ConfigError(
      'BOOTSTRAP_IDENTITY',
      `expected 'anonymous' or 'realms/{realm}/users/{subject}', '.../groups/{group}', '.../authenticated', got '${raw}'`,
    );
  return raw;
};

/** `{"name": ["org/project", ...]}`, from the config file's object or the environment's JSON text. */
export const suitesSetting = (raw: string | undefined): Record<string, string[]> => {
  if (raw === undefined || raw === '') return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    parsed = undefined;
  }
  const valid =
    parsed !== null &&
    typeof parsed === 'object' &&
    !Array.isArray(parsed) &&
    Object.values(parsed).every((v) => Array.isArray(v) && v.every((p) => typeof p === 'string' && /^[a-zA-Z0-9_-]{1,64}\/[a-zA-Z0-9_-]{1,64}$/.test(p)));
  if (!valid) throw new ConfigError('SEARCH_SUITES', `expected an object of suite name to an array of "org/project", got '${raw}'`);
  return parsed as Record<string, string[]>;
};

/** Reads `key.sub.key` from an optional JSON config file (keys follow the spec's names). */
export const fileSettings = (path: string | undefined): ((key: string) => string | undefined) => {
  if (!path) return () => undefined;
  if (!existsSync(path)) throw new ConfigError('CONFIG_FILE', `no file at '${path}'`);
  let tree: unknown;
  try {
    tree = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new ConfigError('CONFIG_FILE', `'${path}' is not valid JSON: ${(error as Error).message}`);
  }
  return (key) => {
    let node: unknown = tree;
    for (const part of key.split('.')) node = node && typeof node === 'object' ? (node as Record<string, unknown>)[part] : undefined;
    return node === undefined || node === null ? undefined : typeof node === 'object' ? JSON.stringify(node) : String(node);
  };
};

export const booleanSetting = (name: string, raw: string | undefined): boolean => {
  if (raw === undefined || raw === '' || raw === 'false' || raw === 'off') return false;
  if (raw === 'true' || raw === 'on') return true;
  throw new ConfigError(name, `expected true or false, got '${raw}'`);
};

export const frontendSetting = (setting: (envName: string, fileKey: string) => string | undefined): FrontendOptions => {
  const base = setting('FUSION_BASE', 'fusion.base')?.replace(/\/+$/, '');
  if (base !== undefined && !/^https?:\/\/[^\s]+$/.test(base)) throw new ConfigError('FUSION_BASE', `expected an http(s) URL, got '${base}'`);
  const realm = setting('FRONTEND_REALM', 'fusion.realm');
  if (realm !== undefined && realm !== '' && !/^[A-Za-z0-9_-]{1,64}$/.test(realm))
    throw new ConfigError('FRONTEND_REALM', `expected a realm label, got '${realm}'`);
  return {
    enableRedirects: booleanSetting('FUSION_ENABLE_REDIRECTS', setting('FUSION_ENABLE_REDIRECTS', 'fusion.enable-redirects')),
    ...(base ? { base } : {}),
    ...(realm ? { realm } : {}),
    clientId: setting('FRONTEND_CLIENT_ID', 'fusion.client-id') || 'registry-web',
  };
};

export const onOffSetting = (name: string, raw: string | undefined): boolean => {
  if (raw === undefined || raw === '' || raw === 'on') return true;
  if (raw === 'off') return false;
  throw new ConfigError(name, `expected on or off, got '${raw}'`);
};

export const optionalSetting = <K extends string>(key: K, value: string | undefined): { [P in K]?: string } =>
  (value === undefined || value === '' ? {} : { [key]: value }) as { [P in K]?: string };

export const optionalObject = <K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } =>
  (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
