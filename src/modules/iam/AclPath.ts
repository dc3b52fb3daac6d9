import { authRejections } from '../../kernel/authRejections.js';

/** `/`, `/{org}` or `/{org}/{project}`: where an ACL sits. */
export type AclPath = string;

export const ROOT: AclPath = '/';

const LABEL = /^[a-zA-Z0-9_-]{1,64}$/;

const aclPath = (org?: string, project?: string): AclPath => (org === undefined ? ROOT : project === undefined ? `/${org}` : `/${org}/${project}`);

/** A path as a client spells it; the root may come as '' or '/'. */
export const parseAclPath = (raw: string): AclPath => {
  const segments = raw.split('/').filter((s, i, all) => !(s === '' && (i === 0 || i === all.length - 1)));
  if (segments.length > 2 || !segments.every((s) => LABEL.test(s))) throw authRejections.invalidAclPath(raw);
  return aclPath(segments[0], segments[1]);
};

/** The path and every ancestor, root first. Segments match exactly: `/org` is no ancestor of `/orgx`. */
export const selfAndAncestors = (path: AclPath): AclPath[] => {
  if (path === ROOT) return [ROOT];
  const [, org, project] = path.split('/');
  return project === undefined ? [ROOT, `/${org}`] : [ROOT, `/${org}`, `/${org}/${project}`];
};

/** The ACL path of a project reference `org/project`. */
export const projectAclPath = (ref: string): AclPath => `/${ref}`;
