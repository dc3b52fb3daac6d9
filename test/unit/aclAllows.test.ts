import { expect } from 'chai';
import { aclAllows, listingAccess, ownEntries } from '../../src/modules/iam/aclAllows.js';
import { parseAclPath, selfAndAncestors } from '../../src/modules/iam/AclPath.js';
import { ANONYMOUS, callerFromClaims, groupsClaim, identityFromKey, identityKey, subjectClaim, type Identity } from '../../src/kernel/Identity.js';
import { identityFromJson, identityToJson } from '../../src/kernel/identityJson.js';
import { bootstrapRootAcl, normalizeAcl, type AclEntry, type AclState } from '../../src/modules/iam/acls/Acl.js';
import { MINIMUM_PERMISSIONS } from '../../src/kernel/permissions.js';
import { Rejection } from '../../src/kernel/Rejection.js';

const at = '2026-01-01T00:00:00.000Z';
const acl = (path: string, entries: AclEntry[]): [string, AclState] => [
  path,
  { ...bootstrapRootAcl(ANONYMOUS, [], at, 'anonymous'), path, rev: 1, acl: normalizeAcl(entries) },
];
const alice = callerFromClaims('r', 'alice', ['team']);
const bob = callerFromClaims('r', 'bob', []);
const team: Identity = { type: 'Group', realm: 'r', group: 'team' };

describe('ACL evaluation', () => {
  const acls = new Map([
    acl('/org', [{ identity: team, permissions: ['resources/read'] }]),
    acl('/other/p1', [{ identity: { type: 'User', realm: 'r', subject: 'bob' }, permissions: ['resources/read'] }]),
    acl('/other/p2', [{ identity: { type: 'Authenticated', realm: 'r' }, permissions: ['events/read'] }]),
  ]);

  it('a grant holds on its path and below, never on a sibling whose name starts alike', () => {
    expect(aclAllows(acls, alice.identities, 'resources/read', '/org')).to.equal(true);
    expect(aclAllows(acls, alice.identities, 'resources/read', '/org/p')).to.equal(true);
    expect(aclAllows(acls, alice.identities, 'resources/read', '/orgx/p')).to.equal(false);
    expect(aclAllows(acls, alice.identities, 'resources/read', '/')).to.equal(false);
    expect(aclAllows(acls, alice.identities, 'resources/write', '/org/p')).to.equal(false);
    expect(aclAllows(acls, bob.identities, 'resources/read', '/org/p')).to.equal(false);
    expect(aclAllows(acls, bob.identities, 'events/read', '/other/p2')).to.equal(true);
    expect(aclAllows(acls, [ANONYMOUS], 'events/read', '/other/p2')).to.equal(false);
  });

  it('a fresh service lets the bootstrap identity do everything', () => {
    const fresh = new Map([['/', bootstrapRootAcl(ANONYMOUS, MINIMUM_PERMISSIONS, at, 'anonymous')]]);
    for (const p of MINIMUM_PERMISSIONS) expect(aclAllows(fresh, [ANONYMOUS], p, '/org/proj')).to.equal(true);
  });

  it('listing access is all with a root grant, otherwise the readable projects', () => {
    const projects = ['org/a', 'org/b', 'other/p1', 'other/p2', 'orgx/c'];
    expect(listingAccess(acls, alice.identities, 'resources/read', projects)).to.deep.equal({ mode: 'limited', projects: new Set(['org/a', 'org/b']) });
    expect(listingAccess(acls, bob.identities, 'resources/read', projects)).to.deep.equal({ mode: 'limited', projects: new Set(['other/p1']) });
    expect(listingAccess(acls, [ANONYMOUS], 'resources/read', projects)).to.deep.equal({ mode: 'limited', projects: new Set() });
    const withRoot = new Map([...acls, acl('/', [{ identity: ANONYMOUS, permissions: ['resources/read'] }])]);
    expect(listingAccess(withRoot, [ANONYMOUS], 'resources/read', projects)).to.deep.equal({ mode: 'all' });
  });

  it('a grant holds when any one entry of the ACL names one of the identities with the permission', () => {
    const shared = new Map([
      acl('/s', [
        { identity: { type: 'User', realm: 'r', subject: 'bob' }, permissions: ['resources/read'] },
        { identity: team, permissions: ['resources/write'] },
      ]),
    ]);
    expect(aclAllows(shared, alice.identities, 'resources/write', '/s/p')).to.equal(true);
    expect(aclAllows(shared, alice.identities, 'resources/read', '/s/p')).to.equal(false);
    expect(aclAllows(shared, bob.identities, 'resources/read', '/s')).to.equal(true);
  });

  it("a listing looks up each organization's ACL once, however many of its projects it meets", () => {
    const asked: string[] = [];
    const counting = { get: (path: string) => (asked.push(path), acls.get(path)) };
    const access = listingAccess(counting, alice.identities, 'resources/read', ['org/a', 'org/b', 'org/c', 'other/p1']);
    expect(access).to.deep.equal({ mode: 'limited', projects: new Set(['org/a', 'org/b', 'org/c']) });
    expect(asked.filter((p) => p === '/org')).to.have.length(1);
    expect(asked.filter((p) => p === '/other')).to.have.length(1);
  });

  it("self entries keep only the caller's identities", () => {
    expect(ownEntries(acls.get('/org')!, bob.identities).acl).to.deep.equal([]);
    expect(ownEntries(acls.get('/org')!, alice.identities).acl).to.have.length(1);
  });

  it('paths: root spellings, ancestors, refusal of deeper or odd paths', () => {
    expect(parseAclPath('')).to.equal('/');
    expect(parseAclPath('/')).to.equal('/');
    expect(parseAclPath('/org/proj/')).to.equal('/org/proj');
    expect(selfAndAncestors('/org/proj')).to.deep.equal(['/', '/org', '/org/proj']);
    for (const bad of ['/a/b/c', '/a b', '//x'])
      expect(() => parseAclPath(bad))
        .to.throw(Rejection)
        .with.property('type', 'InvalidAclPath');
  });
});

describe('Identities', () => {
  it('come from claims: preferred_username over sub, groups as array or comma-separated string', () => {
    expect(subjectClaim({ sub: 's', preferred_username: 'p' })).to.equal('p');
    expect(subjectClaim({ sub: 's' })).to.equal('s');
    expect(subjectClaim({})).to.equal(undefined);
    expect(groupsClaim({ groups: ['a', 'b'] })).to.deep.equal(['a', 'b']);
    expect(groupsClaim({ groups: 'a, b,,c' })).to.deep.equal(['a', 'b', 'c']);
    expect(groupsClaim({})).to.deep.equal([]);
  });

  it("render with their addresses and read back from request bodies in Delta's order", () => {
    const base = 'http://localhost:8080';
    expect(identityToJson(base, ANONYMOUS)).to.deep.equal({ '@id': `${base}/v1/anonymous`, '@type': 'Anonymous' });
    expect(identityToJson(base, team)).to.deep.equal({ '@id': `${base}/v1/realms/r/groups/team`, '@type': 'Group', realm: 'r', group: 'team' });
    expect(identityFromJson({ '@type': 'Anonymous' })).to.deep.equal(ANONYMOUS);
    expect(identityFromJson({ realm: 'r', subject: 'alice', '@type': 'User' })).to.deep.equal({ type: 'User', realm: 'r', subject: 'alice' });
    expect(identityFromJson({ realm: 'r', group: 'team' })).to.deep.equal(team);
    expect(identityFromJson({ realm: 'r' })).to.deep.equal({ type: 'Authenticated', realm: 'r' });
    expect(identityFromJson({ '@type': 'Authenticated', realm: 'r' })).to.deep.equal({ type: 'Authenticated', realm: 'r' });
    for (const bad of [null, [], {}, { '@type': 'Robot', realm: 'r' }, { '@type': 'Group', realm: 'r', subject: 'x' }])
      expect(() => identityFromJson(bad))
        .to.throw(Rejection)
        .with.property('type', 'MalformedRequestContentRejection');
  });

  it('keys round-trip, so a bootstrap identity can be configured by its address', () => {
    for (const id of [ANONYMOUS, team, { type: 'Authenticated', realm: 'r' } as Identity, { type: 'User', realm: 'r', subject: 'alice' } as Identity])
      expect(identityFromKey(identityKey(id))).to.deep.equal(id);
    expect(identityFromKey('nobody')).to.equal(undefined);
    expect(alice.subject).to.equal('realms/r/users/alice');
  });
});

describe('Status of the access-control rejections', () => {
  it('every 401 and 404 type is one the factories raise', async () => {
    const { authRejections, authStatuses } = await import('../../src/kernel/authRejections.js');
    const raised = new Set(Object.values(authRejections).map((f) => (f as (...a: string[][]) => Rejection)(['x'], ['y'], ['z']).type));
    for (const type of Object.keys(authStatuses)) expect(raised, type).to.include(type);
  });
});
