import { rejections } from '../../domain/rejections.js';
import type { ProjectRef } from '../../kernel/labels.js';
import type { AclCheck } from '../../kernel/AclCheck.js';
import type { AclIndex } from './AclIndex.js';

/**
 * Authorization from the ACLs in memory: a permission holds on a path when the caller's identities
 * hold it there or on an ancestor. Reads across projects get the organizations and projects below
 * the path where it holds, pushed into their queries.
 */
export const aclsCheck = (index: AclIndex, projects: () => Iterable<ProjectRef>): AclCheck => ({
  authorize: async (caller, permission, path) => {
    if (!index.allows(caller, permission, path)) throw rejections.authorizationFailed(permission, path);
  },
  access: async (caller, permission, path) => {
    if (index.allows(caller, permission, path)) return { mode: 'all' };
    // Stryker disable next-line ConditionalExpression,StringLiteral: equivalent, '/'.slice(1) is '' as well; the test only says what the root means.
    const within = path === '/' ? '' : path.slice(1);
    const orgs = new Set<string>();
    const readable: ProjectRef[] = [];
    for (const ref of projects()) {
      const org = ref.slice(0, ref.indexOf('/'));
      if (within !== '' && org !== within) continue;
      if (!orgs.has(org) && index.allows(caller, permission, `/${org}`)) orgs.add(org);
      if (orgs.has(org) || index.allows(caller, permission, `/${ref}`)) readable.push(ref);
    }
    return { mode: 'limited', orgs: [...orgs], projects: readable };
  },
});
