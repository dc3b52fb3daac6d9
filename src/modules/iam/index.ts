import type { Lifecycle } from '../../domain/Lifecycle.js';
import type { Addresses } from '../../kernel/Addresses.js';
import type { Clock } from '../../kernel/Clock.js';
import type { ProjectRef } from '../../kernel/labels.js';
import type { States } from '../../projection/States.js';
import type { CapabilityModule } from '../Capability.js';
import type { AccessControlSettings } from './wireAccessControl.js';
import { accessControl, accessControlKinds } from './wireAccessControl.js';
import type { ProvisioningOptions } from './provisioning/provision.js';
import type { Log } from '../../kernel/Log.js';
import { provision } from './provisioning/provision.js';

/** What IAM is wired with: the core below it (every other capability is handed IAM's check in turn). */
export interface IamPlatform {
  states: States;
  lifecycle: Lifecycle;
  clock: Clock;
  addresses: Addresses;
  projects: () => Iterable<ProjectRef>;
}

/**
 * IAM as one capability: realms, ACLs and permissions (their kinds and routes), token verification
 * and the ACL check every route's guard asks. It is wired first: the route table and the other
 * capabilities check access with it.
 */
export const createIamModule = (settings: AccessControlSettings) => {
  const kinds = accessControlKinds(settings);
  return {
    name: 'iam',
    kinds: [kinds.realms, kinds.acls, kinds.permissions],
    streams: [],
    projections: [],
    // Its rejections (authRejections) are the kernel's: the route table raises them too.
    statuses: {},
    /** The permissions defined now (`/v1/permissions`), read off the states: known before IAM is wired. */
    permissions: kinds.current,
    /** Start-up provisioning (realms, ACLs) through the wired services, before the service listens. */
    provision: (config: ProvisioningOptions, access: ReturnType<typeof accessControl>, log: Log) => provision(config, { ...access.provisioning, log }),
    wire: (p: IamPlatform) => {
      const access = accessControl(kinds, p.states, { lifecycle: p.lifecycle, clock: p.clock, addresses: p.addresses, projects: p.projects, settings });
      return { services: access, routes: access.routes };
    },
  } satisfies CapabilityModule<IamPlatform, ReturnType<typeof accessControl>> & { permissions: unknown; provision: unknown };
};
