import { expect } from 'chai';
import { AclIndex } from '../../src/modules/iam/AclIndex.js';
import { ANONYMOUS, anonymousCaller, callerFromClaims } from '../../src/kernel/Identity.js';
import { MINIMUM_PERMISSIONS } from '../../src/kernel/permissions.js';
import { bootstrapRootAcl, evaluateAcl, type AclCommand, type AclEvent } from '../../src/modules/iam/acls/Acl.js';

const at = { instant: '2026-01-01T00:00:00.000Z', subject: 'anonymous' };
const ctx = { permissions: new Set(MINIMUM_PERMISSIONS), realms: new Set(['r']) };
const alice = callerFromClaims('r', 'alice', ['team']);

describe('AclIndex', () => {
  let index: AclIndex;
  const write = (cmd: AclCommand) => index.apply(evaluateAcl(index.get(cmd.path), cmd, ctx) as AclEvent);
  // Each test starts from the same ACLs: the bootstrap root, then the four written here.
  beforeEach(() => {
    index = new AclIndex(bootstrapRootAcl(ANONYMOUS, MINIMUM_PERMISSIONS, at.instant, 'anonymous'));
    expect(index.allows(anonymousCaller, 'resources/write', '/org/p')).to.equal(true);
    write({ ...at, type: 'Replace', path: '/', rev: 0, acl: [{ identity: { type: 'User', realm: 'r', subject: 'alice' }, permissions: ['acls/write'] }] });
    write({ ...at, type: 'Replace', path: '/org', rev: 0, acl: [{ identity: { type: 'Group', realm: 'r', group: 'team' }, permissions: ['resources/read'] }] });
    write({ ...at, type: 'Replace', path: '/org/p', rev: 0, acl: [{ identity: ANONYMOUS, permissions: ['resources/read'] }] });
    write({ ...at, type: 'Replace', path: '/other', rev: 0, acl: [{ identity: ANONYMOUS, permissions: ['events/read'] }] });
  });

  it('folds events over the bootstrap root and answers decisions from memory', () => {
    expect(index.allows(anonymousCaller, 'resources/write', '/org/p')).to.equal(false);
    expect(index.allows(alice, 'resources/read', '/org/q')).to.equal(true);
    expect(index.listingAccess(anonymousCaller, 'resources/read', ['org/p', 'org/q'])).to.deep.equal({ mode: 'limited', projects: new Set(['org/p']) });
  });

  it('queries a path, its ancestors and patterns, with self filtering', () => {
    const paths = (s: { path: string }[]) => s.map((x) => x.path);
    expect(paths(index.query('/org/p', alice, { self: false, ancestors: true }))).to.deep.equal(['/', '/org', '/org/p']);
    expect(paths(index.query('/org/none', alice, { self: false, ancestors: true }))).to.deep.equal(['/', '/org']);
    expect(paths(index.query('/*', alice, { self: false, ancestors: false }))).to.deep.equal(['/org', '/other']);
    expect(paths(index.query('/*/*', alice, { self: false, ancestors: false }))).to.deep.equal(['/org/p']);
    expect(index.query('/org', anonymousCaller, { self: true, ancestors: false })[0]!.acl).to.deep.equal([]);
    expect(index.query('/org', alice, { self: true, ancestors: false })[0]!.acl).to.have.length(1);
  });
});
