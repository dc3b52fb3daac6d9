import { expect } from 'chai';
import { AclIndex } from '../../src/modules/iam/AclIndex.js';
import { aclsCheck } from '../../src/modules/iam/aclsCheck.js';
import { ANONYMOUS, callerFromClaims } from '../../src/kernel/Identity.js';
import { MINIMUM_PERMISSIONS } from '../../src/kernel/permissions.js';
import { Rejection } from '../../src/kernel/Rejection.js';
import { bootstrapRootAcl, evaluateAcl, type AclCommand, type AclEvent } from '../../src/modules/iam/acls/Acl.js';

const at = { instant: '2026-01-01T00:00:00.000Z', subject: 'anonymous' };
const ctx = { permissions: new Set(MINIMUM_PERMISSIONS), realms: new Set(['r']) };
const user = (subject: string) => callerFromClaims('r', subject, []);

/** The access decisions of the ACLs: one permission, a path, and what it reaches below. */
describe('aclsCheck: authorize and the projects a permission reaches', () => {
  const index = new AclIndex(bootstrapRootAcl(ANONYMOUS, MINIMUM_PERMISSIONS, at.instant, 'anonymous'));
  const write = (cmd: AclCommand) => index.apply(evaluateAcl(index.get(cmd.path), cmd, ctx) as AclEvent);
  const grant = (path: string, subject: string, permission: string) =>
    write({
      ...at,
      type: 'Append',
      path,
      rev: index.get(path)?.rev ?? 0,
      acl: [{ identity: { type: 'User', realm: 'r', subject }, permissions: [permission] }],
    });
  const projects = ['o1/a', 'o1/b', 'o2/c', 'o3/d'];
  const check = aclsCheck(index, () => projects);

  before(() => {
    // The bootstrap root grants everything to anyone: replaced by one holder.
    write({ ...at, type: 'Replace', path: '/', rev: 0, acl: [{ identity: { type: 'User', realm: 'r', subject: 'root' }, permissions: ['resources/read'] }] });
    grant('/o1', 'olga', 'resources/read');
    grant('/o2/c', 'pat', 'resources/read');
    grant('/o1/b', 'pat', 'resources/read');
  });

  it('authorizes on the path or an ancestor, and refuses elsewhere with AuthorizationFailed', async () => {
    await check.authorize(user('olga'), 'resources/read', '/o1/a');
    await check.authorize(user('olga'), 'resources/read', '/o1');
    const refused = await check.authorize(user('olga'), 'resources/read', '/o2/c').catch((e: unknown) => e);
    expect(refused).to.be.instanceOf(Rejection);
    expect((refused as Rejection).type).to.equal('AuthorizationFailed');
    expect(await check.authorize(user('olga'), 'resources/write', '/o1/a').catch((e: unknown) => (e as Rejection).type)).to.equal('AuthorizationFailed');
  });

  it('reaches everything for a holder on the path itself', async () => {
    expect(await check.access(user('root'), 'resources/read', '/')).to.deep.equal({ mode: 'all' });
    expect(await check.access(user('olga'), 'resources/read', '/o1')).to.deep.equal({ mode: 'all' });
  });

  it('reaches the organizations and projects below where it holds, and nothing else', async () => {
    expect(await check.access(user('olga'), 'resources/read', '/')).to.deep.equal({ mode: 'limited', orgs: ['o1'], projects: ['o1/a', 'o1/b'] });
    expect(await check.access(user('pat'), 'resources/read', '/')).to.deep.equal({ mode: 'limited', orgs: [], projects: ['o1/b', 'o2/c'] });
    expect(await check.access(user('nobody'), 'resources/read', '/')).to.deep.equal({ mode: 'limited', orgs: [], projects: [] });
  });

  it('reaches only inside the organization of an organization path', async () => {
    expect(await check.access(user('pat'), 'resources/read', '/o1')).to.deep.equal({ mode: 'limited', orgs: [], projects: ['o1/b'] });
    expect(await check.access(user('pat'), 'resources/read', '/o2')).to.deep.equal({ mode: 'limited', orgs: [], projects: ['o2/c'] });
    expect(await check.access(user('olga'), 'resources/read', '/o2')).to.deep.equal({ mode: 'limited', orgs: [], projects: [] });
  });
});
