import { aclEventJson } from '../iamJson.js';
import { eventOf } from '../../../domain/eventOf.js';
import type { KindDefinition } from '../../../domain/KindDefinition.js';
import type { AclEvent, AclState } from './Acl.js';
import { nextAcl } from './Acl.js';
import { aclKey } from '../../../kernel/logKeys.js';

/**
 * ACLs: kept by path. The root starts as the bootstrap ACL (rev 0, never logged): the first change
 * of `/` folds onto it.
 */
export const aclDefinition = (bootstrapRoot: AclState): KindDefinition<AclState> => ({
  kind: 'acls',
  stateKey: (logged) => eventOf<AclEvent>(logged).path,
  keyOf: (state) => state.path,
  next: (state, logged) => {
    const event = eventOf<AclEvent>(logged);
    return nextAcl(state ?? (event.path === '/' ? bootstrapRoot : undefined), event);
  },
  render: (logged, look) => aclEventJson(look.addresses.base, eventOf<AclEvent>(logged)),
  // The ACL on a project's path goes with the project: a project created again under its label
  // does not inherit its former readers (Delta's `Acls.projectDeletionTask`).
  contained: (state) => {
    const [org, label, ...rest] = state.path.slice(1).split('/');
    return org && label && !rest.length ? { project: `${org}/${label}`, key: aclKey(state.path) } : undefined;
  },
});
