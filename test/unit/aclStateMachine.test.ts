import { expect } from 'chai';
import { bootstrapRootAcl, evaluateAcl, nextAcl, type AclCommand, type AclEntry, type AclState } from '../../src/modules/iam/acls/Acl.js';
import { ANONYMOUS, type Identity } from '../../src/kernel/Identity.js';
import { MINIMUM_PERMISSIONS } from '../../src/kernel/permissions.js';
import { Rejection } from '../../src/kernel/Rejection.js';

const at = { instant: '2026-01-01T00:00:00.000Z', subject: 'realms/r/users/admin' };
const ctx = { permissions: new Set(MINIMUM_PERMISSIONS), realms: new Set(['r']) };
const alice: Identity = { type: 'User', realm: 'r', subject: 'alice' };
const readers: Identity = { type: 'Group', realm: 'r', group: 'readers' };

const run = (state: AclState | undefined, cmd: AclCommand): AclState => {
  const event = evaluateAcl(state, cmd, ctx);
  if (event instanceof Rejection) throw event;
  return nextAcl(state, event);
};
const refusal = (state: AclState | undefined, cmd: AclCommand): string => {
  const event = evaluateAcl(state, cmd, ctx);
  expect(event).to.be.instanceOf(Rejection);
  return (event as Rejection).type;
};
const cmd = (type: 'Replace' | 'Append' | 'Subtract', rev: number, acl: AclEntry[], path = '/org'): AclCommand => ({ ...at, type, path, rev, acl });

describe('ACL state machine', () => {
  it('replaces at rev 0 on a path without an ACL, merging entries of one identity', () => {
    const s = run(
      undefined,
      cmd('Replace', 0, [
        { identity: alice, permissions: ['resources/read'] },
        { identity: { ...alice }, permissions: ['resources/write', 'resources/read'] },
      ]),
    );
    expect(s.rev).to.equal(1);
    expect(s.acl).to.deep.equal([{ identity: alice, permissions: ['resources/read', 'resources/write'] }]);
    expect(s.createdBy).to.equal(at.subject);
  });

  it('appends and subtracts deltas, and deletes to an empty ACL', () => {
    let s = run(undefined, cmd('Replace', 0, [{ identity: alice, permissions: ['resources/read'] }]));
    const appended = evaluateAcl(
      s,
      cmd('Append', 1, [
        { identity: alice, permissions: ['resources/read', 'resources/write'] },
        { identity: readers, permissions: ['events/read'] },
      ]),
      ctx,
    );
    expect(appended).to.deep.include({ type: 'AclAppended', rev: 2 });
    expect((appended as { acl: AclEntry[] }).acl).to.deep.equal([
      { identity: readers, permissions: ['events/read'] },
      { identity: alice, permissions: ['resources/write'] },
    ]);
    s = nextAcl(s, appended as never);
    s = run(s, cmd('Subtract', 2, [{ identity: alice, permissions: ['resources/read', 'acls/read'] }]));
    expect(s.acl).to.deep.equal([
      { identity: readers, permissions: ['events/read'] },
      { identity: alice, permissions: ['resources/write'] },
    ]);
    s = run(s, { ...at, type: 'Delete', path: '/org', rev: 3 });
    expect(s).to.deep.include({ rev: 4, acl: [] });
    expect(refusal(s, { ...at, type: 'Delete', path: '/org', rev: 4 })).to.equal('AclIsEmpty');
  });

  it('refuses a stale rev, unknown realms and permissions, empty permission sets and no-op changes', () => {
    const s = run(undefined, cmd('Replace', 0, [{ identity: alice, permissions: ['resources/read'] }]));
    const stale = evaluateAcl(s, cmd('Replace', 0, []), ctx) as Rejection;
    expect(stale.type).to.equal('IncorrectRev');
    expect(stale.fields).to.deep.equal({ provided: 0, expected: 1 });
    expect(refusal(s, cmd('Replace', 1, [{ identity: { type: 'Authenticated', realm: 'nope' }, permissions: ['resources/read'] }]))).to.equal('UnknownRealms');
    expect(refusal(s, cmd('Append', 1, [{ identity: alice, permissions: ['made/up'] }]))).to.equal('UnknownPermissions');
    expect(refusal(s, cmd('Replace', 1, [{ identity: alice, permissions: [] }]))).to.equal('AclCannotContainEmptyPermissionCollection');
    expect(refusal(s, cmd('Append', 1, [{ identity: alice, permissions: ['resources/read'] }]))).to.equal('NothingToBeUpdated');
    expect(refusal(s, cmd('Subtract', 1, [{ identity: readers, permissions: ['resources/read'] }]))).to.equal('NothingToBeUpdated');
    expect(refusal(undefined, cmd('Subtract', 0, [{ identity: alice, permissions: ['resources/read'] }]))).to.equal('AclNotFound');
    expect(refusal(undefined, { ...at, type: 'Delete', path: '/org', rev: 0 })).to.equal('AclNotFound');
  });

  it('bootstraps the root at rev 0 granting the bootstrap identity every permission; the first replace is rev 0 → 1', () => {
    const root = bootstrapRootAcl(ANONYMOUS, MINIMUM_PERMISSIONS, at.instant, 'anonymous');
    expect(root).to.deep.include({ rev: 0, path: '/' });
    expect(root.acl).to.deep.equal([{ identity: ANONYMOUS, permissions: [...MINIMUM_PERMISSIONS] }]);
    const replaced = run(root, cmd('Replace', 0, [{ identity: alice, permissions: ['acls/write'] }], '/'));
    expect(replaced).to.deep.include({ rev: 1, createdBy: at.subject });
  });
});
