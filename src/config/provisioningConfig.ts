import type { RealmFields } from '../kernel/RealmFields.js';
import { ConfigError } from '../kernel/ConfigError.js';

/** Delta 1.11's start-up provisioning (`realms.provisioning`, `acls.provisioning`). */
export interface ProvisioningConfig {
  /** Realms created at start when missing (an existing one is left alone), by label. */
  realms: Record<string, RealmFields>;
  /** A JSON file of ACL path → entries, written while the root ACL is still the bootstrap one. */
  aclFile?: string;
}

const REALMS = 'realms.provisioning.realms';

/** One realm as Delta's configuration spells it: `name`, `open-id-config`, `logo`?, `accepted-audiences`?. */
const realmFields = (label: string, value: unknown): RealmFields => {
  const bad = (problem: string) => new ConfigError(REALMS, `realm '${label}': ${problem}`);
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(label)) throw bad('a label is 1 to 64 letters, digits, _ or -');
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw bad('expected an object');
  const o = value as Record<string, unknown>;
  const name = o['name'];
  const openIdConfig = o['open-id-config'];
  const logo = o['logo'];
  const audiences = o['accepted-audiences'];
  if (typeof name !== 'string' || name.trim() === '') throw bad("'name' must be a non-empty string");
  if (typeof openIdConfig !== 'string' || !URL.canParse(openIdConfig)) throw bad("'open-id-config' must be an absolute address");
  if (logo !== undefined && (typeof logo !== 'string' || !URL.canParse(logo))) throw bad("'logo' must be an absolute address");
  if (audiences !== undefined && (!Array.isArray(audiences) || audiences.length === 0 || !audiences.every((a) => typeof a === 'string')))
    throw bad("'accepted-audiences' must be a non-empty array of strings");
  return {
    name,
    openIdConfig,
    ...(logo !== undefined ? { logo: logo as string } : {}),
    ...(audiences !== undefined ? { acceptedAudiences: audiences as string[] } : {}),
  };
};

/**
 * `realms.provisioning.enabled` / `.realms` (the config file; `REALMS_PROVISIONING` the same object as
 * JSON text, `REALMS_PROVISIONING_ENABLED`) and `acls.provisioning.enabled` / `.path`
 * (`ACLS_PROVISIONING_ENABLED`, `ACLS_PROVISIONING_PATH`). As in Delta, each is off unless enabled.
 */
export const provisioningConfig = (
  setting: (envName: string, fileKey: string) => string | undefined,
  flag: (name: string, raw: string | undefined) => boolean,
): ProvisioningConfig => {
  let realms: Record<string, RealmFields> = {};
  if (flag('realms.provisioning.enabled', setting('REALMS_PROVISIONING_ENABLED', 'realms.provisioning.enabled'))) {
    const raw = setting('REALMS_PROVISIONING', REALMS);
    let tree: unknown;
    try {
      tree = raw === undefined ? {} : JSON.parse(raw);
    } catch {
      throw new ConfigError(REALMS, 'expected an object of realm label to realm');
    }
    if (tree === null || typeof tree !== 'object' || Array.isArray(tree)) throw new ConfigError(REALMS, 'expected an object of realm label to realm');
    realms = Object.fromEntries(Object.entries(tree).map(([label, value]) => [label, realmFields(label, value)]));
  }
  if (!flag('acls.provisioning.enabled', setting('ACLS_PROVISIONING_ENABLED', 'acls.provisioning.enabled'))) return { realms };
  const aclFile = setting('ACLS_PROVISIONING_PATH', 'acls.provisioning.path');
  if (aclFile === undefined || aclFile === '') throw new ConfigError('acls.provisioning.path', 'ACL provisioning is enabled without a file');
  return { realms, aclFile };
};
