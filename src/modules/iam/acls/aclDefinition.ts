import { aclEventJson } from '../iamJson.js';
import type { LogEvent } from '../../../events/EventLog.js';
import type { KindDefinition } from '../../../domain/KindDefinition.js';
import type { AclEvent, AclState } from './Acl.js';
import { nextAcl } from './Acl.js';
import { aclKey } from '../../../kernel/logKeys.js';

const eventOf = (logged: LogEvent) => logged.event as unknown as AclEvent;

/**
 * ACLs: kept by path. The root starts as the bootstrap ACL (rev 0, never logged): the first change
 * of `/` folds onto it.
 */
export const aclDefinition = (bootstrapRoot: AclState): KindDefinition<AclState> => ({
  kind: 'acls',
  stateKey: (logged) => eventOf(logged).path,
  keyOf: (state) => state.path,
  next: (state, logged) => {
    const event = eventOf(logged);
    return nextAcl(state ?? (event.path === '/' ? bootstrapRoot : undefined), event);
  },
  render: (logged, look) => aclEventJson(look.addresses.base, eventOf(logged)),
  // The ACL on a project's path goes with the project: a project created again under its label
  // does not inherit its former readers (Delta's `Acls.projectDeletionTask`).
  contained: (state) => {
    const [org, label, ...rest] = state.path.slice(1).split('/');
    return org && label && !rest.length ? { project: `${org}/${label}`, key: aclKey(state.path) } : undefined;
  },
});
