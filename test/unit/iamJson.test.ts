import { expect } from 'chai';
import { aclBody, aclEventJson, identitiesBody, permissionsBody, permissionsEventJson, realmBody, realmEventJson } from '../../src/modules/iam/iamJson.js';
import { aclFromJson, permissionsFromJson, realmFieldsFromJson } from '../../src/modules/iam/iamPayloads.js';
import { anonymousCaller, callerFromClaims } from '../../src/kernel/Identity.js';
import { evaluateAcl, nextAcl, type AclEvent } from '../../src/modules/iam/acls/Acl.js';
import { initialPermissions } from '../../src/modules/iam/permissions/Permissions.js';
import { evaluateRealm, nextRealm, type RealmEvent } from '../../src/modules/iam/realms/Realm.js';
import { Rejection } from '../../src/kernel/Rejection.js';

const base = 'http://localhost:8080';
const at = { instant: '2026-01-01T00:00:00.000Z', subject: 'realms/r/users/admin' };
const ctx = { permissions: new Set(['resources/read']), realms: new Set(['r']) };

describe('IAM request payloads', () => {
  it('read realm, ACL and permission bodies, refusing malformed ones as MalformedRequestContentRejection', () => {
    expect(realmFieldsFromJson({ name: 'R', openIdConfig: 'https://idp/.well-known/openid-configuration', acceptedAudiences: ['a', 'a'] })).to.deep.equal({
      name: 'R',
      openIdConfig: 'https://idp/.well-known/openid-configuration',
      acceptedAudiences: ['a'],
    });
    const acl = aclFromJson({ '@type': 'Append', acl: [{ identity: { realm: 'r', group: 'g' }, permissions: ['resources/read'] }] }, true);
    expect(acl).to.deep.equal({ op: 'Append', acl: [{ identity: { type: 'Group', realm: 'r', group: 'g' }, permissions: ['resources/read'] }] });
    expect(aclFromJson({ acl: [] }, false).op).to.equal('Replace');
    expect(permissionsFromJson({ '@type': 'Subtract', permissions: ['x/y'] }, true)).to.deep.equal({ op: 'Subtract', permissions: ['x/y'] });
    const malformed = [
      () => realmFieldsFromJson({ name: 'R', openIdConfig: 'nope' }),
      () => realmFieldsFromJson([]),
      () => aclFromJson({ acl: [] }, true),
      () => aclFromJson({ acl: [{ identity: { '@type': 'Anonymous' }, permissions: 'all' }] }, false),
      () => permissionsFromJson({ '@type': 'Append', permissions: ['x'] }, false),
      () => permissionsFromJson({ permissions: [1] }, false),
    ];
    for (const f of malformed) expect(f).to.throw(Rejection).with.property('type', 'MalformedRequestContentRejection');
  });
});

describe('IAM JSON', () => {
  it('renders identities with Anonymous first', () => {
    expect(identitiesBody(base, anonymousCaller).identities).to.deep.equal([{ '@id': `${base}/v1/anonymous`, '@type': 'Anonymous' }]);
    const body = identitiesBody(base, callerFromClaims('r', 'alice', ['g']));
    expect(body.identities.map((i) => i['@type'])).to.deep.equal(['Anonymous', 'Authenticated', 'User', 'Group']);
  });

  it('renders ACLs and their events with the root spelled as Delta does', () => {
    const event = evaluateAcl(
      undefined,
      { ...at, type: 'Replace', path: '/', rev: 0, acl: [{ identity: { type: 'User', realm: 'r', subject: 'alice' }, permissions: ['resources/read'] }] },
      ctx,
    ) as AclEvent;
    const json = aclEventJson(base, event);
    expect(json).to.deep.include({ '@type': 'AclReplaced', _aclId: `${base}/v1/acls`, _path: '/', _rev: 1, _subject: `${base}/v1/realms/r/users/admin` });
    expect(json.acl).to.deep.equal([
      { identity: { '@id': `${base}/v1/realms/r/users/alice`, '@type': 'User', realm: 'r', subject: 'alice' }, permissions: ['resources/read'] },
    ]);
    const body = aclBody(base, nextAcl(undefined, event), false);
    expect(body).to.deep.include({ '@id': `${base}/v1/acls/`, _self: `${base}/v1/acls`, _rev: 1, _deprecated: false });
    expect(body).to.not.have.property('acl');
  });

  it('renders realms and realm events with the discovered endpoints', () => {
    const wellKnown = {
      issuer: 'https://idp',
      jwksUri: 'https://idp/jwks',
      keys: [],
      grantTypes: ['authorizationCode'],
      authorizationEndpoint: 'https://idp/a',
      tokenEndpoint: 'https://idp/t',
      userInfoEndpoint: 'https://idp/u',
    };
    const event = evaluateRealm(
      undefined,
      { ...at, type: 'Create', label: 'r', fields: { name: 'R', openIdConfig: 'https://idp/.well-known/openid-configuration' }, wellKnown },
      new Map(),
    ) as RealmEvent;
    expect(realmEventJson(base, event)).to.deep.include({
      '@type': 'RealmCreated',
      _label: 'r',
      _realmId: `${base}/v1/realms/r`,
      _issuer: 'https://idp',
      _grantTypes: ['authorizationCode'],
      _rev: 1,
    });
    const body = realmBody(base, nextRealm(undefined, event)!);
    expect(body).to.deep.include({ '@type': 'Realm', name: 'R', _tokenEndpoint: 'https://idp/t', _self: `${base}/v1/realms/r` });
    expect(body).to.not.have.property('keys');
    expect(body).to.not.have.property('_endSessionEndpoint');
  });

  it('renders permissions and their events', () => {
    const s = initialPermissions(['resources/read'], at.instant, 'anonymous');
    expect(permissionsBody(base, s)).to.deep.include({ '@id': `${base}/v1/permissions`, permissions: ['resources/read'], _rev: 0 });
    expect(permissionsEventJson(base, { ...at, type: 'PermissionsAppended', rev: 1, permissions: ['x/y'] })).to.deep.include({
      '@type': 'PermissionsAppended',
      permissions: ['x/y'],
      _permissionsId: `${base}/v1/permissions`,
    });
  });
});
