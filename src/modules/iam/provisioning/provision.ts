import { readFileSync } from 'node:fs';
import { parseAclPath } from '../AclPath.js';
import type { AclPath } from '../AclPath.js';
import { aclFromJson } from '../iamPayloads.js';
import { ConfigError } from '../../../kernel/ConfigError.js';
import type { RealmFields } from '../../../kernel/RealmFields.js';
import type { AclContext, AclEntry } from '../acls/Acl.js';
import { checkAcl } from '../acls/Acl.js';
import type { AclService } from '../acls/AclService.js';
import type { RealmService } from '../realms/RealmService.js';
import type { Caller } from '../../../kernel/Caller.js';
import type { Log } from '../../../kernel/Log.js';
import { Rejection } from '../../../kernel/Rejection.js';

/** What is provisioned at start (`realms.provisioning` of the configuration, as the composition root read it). */
export interface ProvisioningOptions {
  /** Realms created at start when missing (an existing one is left alone), by label. */
  realms: Record<string, RealmFields>;
  /** A JSON file of ACL path → entries, written while the root ACL is still the bootstrap one. */
  aclFile?: string;
}

/** Who provisioning writes as (`_createdBy`), as Delta's service account `realms/internal/users/delta`. */
const provisioningCaller: Caller = { subject: 'realms/internal/users/registry', identities: [] };

const ACL_SETTING = 'acls.provisioning.path';

export interface ProvisioningDeps {
  realms: Pick<RealmService, 'create' | 'list'>;
  acls: Pick<AclService, 'write'>;
  /** The permissions and realms an ACL may name now. */
  aclContext(): AclContext;
  /** Whether the root ACL was ever written (else it is the bootstrap default, rev 0). */
  rootWritten(): boolean;
  log: Log;
}

/** The ACL file: an object of ACL path to entries (`{"identity", "permissions"}`, as the ACL API takes them), root first. */
const readAclFile = (file: string): [AclPath, AclEntry[]][] => {
  const bad = (problem: string) => new ConfigError(ACL_SETTING, `'${file}': ${problem}`);
  let tree: unknown;
  try {
    tree = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw bad(
      (error as NodeJS.ErrnoException).code ? `cannot be read (${(error as NodeJS.ErrnoException).code})` : `is not valid JSON: ${(error as Error).message}`,
    );
  }
  if (tree === null || typeof tree !== 'object' || Array.isArray(tree)) throw bad('expected an object of ACL path to an array of entries');
  const entries = Object.entries(tree).map(([raw, acl]): [AclPath, AclEntry[]] => {
    try {
      return [parseAclPath(raw), aclFromJson({ acl }, false).acl];
    } catch (error) {
      if (error instanceof Rejection) throw bad(`'${raw}': ${error.message}`);
      throw error;
    }
  });
  return entries.sort(([a], [b]) => (a === '/' ? -1 : b === '/' ? 1 : 0));
};

/**
 * Delta 1.11's start-up provisioning, run before the service listens: realms from the configuration
 * (an existing realm is left alone), then the ACL file, applied only while the root ACL is the
 * bootstrap default, so a deployment never serves its fresh, open root once provisioning is set. A
 * bad file, a realm that cannot be created or an ACL naming what does not exist stops the start-up
 * (ConfigError, naming the file). Replicas starting together: the first write wins, the others find
 * the realm there or the root written (IncorrectRev) and leave it.
 */
export const provision = async (config: ProvisioningOptions, deps: ProvisioningDeps): Promise<void> => {
  const existing = new Set(deps.realms.list().map((r) => r.label));
  for (const [label, fields] of Object.entries(config.realms)) {
    if (existing.has(label)) {
      deps.log.info(`provisioning: realm '${label}' exists, left alone`);
      continue;
    }
    try {
      await deps.realms.create(label, fields, provisioningCaller);
      deps.log.info(`provisioning: realm '${label}' created from ${fields.openIdConfig}`);
    } catch (error) {
      if (error instanceof Rejection && error.type === 'RealmAlreadyExists') continue;
      throw new ConfigError('realms.provisioning.realms', `realm '${label}' could not be created: ${(error as Error).message}`);
    }
  }
  if (config.aclFile === undefined) return;
  // Read and checked whatever the root's state: a bad file is reported at every start.
  const acls = readAclFile(config.aclFile);
  const context = deps.aclContext();
  for (const [path, acl] of acls) {
    const invalid = checkAcl(path, acl, context);
    if (invalid) throw new ConfigError(ACL_SETTING, `'${config.aclFile}': '${path}': ${invalid.message}`);
  }
  if (deps.rootWritten()) {
    deps.log.info(`provisioning: the root ACL was already written, ${config.aclFile} not applied`);
    return;
  }
  for (const [path, acl] of acls) {
    try {
      await deps.acls.write(path, 'Replace', 0, acl, provisioningCaller);
    } catch (error) {
      if (!(error instanceof Rejection) || error.type !== 'IncorrectRev') throw error;
      // Another replica provisioned first (the root), or the path has an ACL already: left as it is.
      if (path === '/') {
        deps.log.info(`provisioning: the root ACL was written meanwhile, ${config.aclFile} not applied`);
        return;
      }
      deps.log.info(`provisioning: ${path} has an ACL already, left alone`);
      continue;
    }
    deps.log.info(`provisioning: ACL of ${path} written from ${config.aclFile}`);
  }
};
