import { expect } from 'chai';
import { activeRealmByIssuer, evaluateRealm, nextRealm, type RealmCommand, type RealmState, type WellKnown } from '../../src/modules/iam/realms/Realm.js';
import { Rejection } from '../../src/kernel/Rejection.js';

const at = { instant: '2026-01-01T00:00:00.000Z', subject: 'anonymous' };
const wellKnown: WellKnown = {
  issuer: 'https://idp.example/realm',
  jwksUri: 'https://idp.example/realm/jwks',
  keys: [{ kty: 'RSA', kid: 'k', n: 'AQAB', e: 'AQAB' }],
  grantTypes: ['authorizationCode'],
  authorizationEndpoint: 'https://idp.example/realm/auth',
  tokenEndpoint: 'https://idp.example/realm/token',
  userInfoEndpoint: 'https://idp.example/realm/userinfo',
  endSessionEndpoint: 'https://idp.example/realm/logout',
};
const fields = { name: 'Realm', openIdConfig: 'https://idp.example/realm/.well-known/openid-configuration', logo: 'https://idp.example/logo.png' };
const none = new Map<string, string>();
const run = (s: RealmState | undefined, cmd: RealmCommand) => {
  const e = evaluateRealm(s, cmd, none);
  if (e instanceof Rejection) throw e;
  return nextRealm(s, e)!;
};

describe('Realm state machine', () => {
  it('creates, updates (optional fields absent are dropped) and deprecates', () => {
    let s = run(undefined, { ...at, type: 'Create', label: 'r', fields, wellKnown });
    expect(s).to.deep.include({ label: 'r', rev: 1, name: 'Realm', issuer: wellKnown.issuer, deprecated: false, logo: fields.logo });
    s = run(s, {
      ...at,
      type: 'Update',
      label: 'r',
      rev: 1,
      fields: { name: 'Renamed', openIdConfig: fields.openIdConfig, acceptedAudiences: ['a'] },
      wellKnown: { ...wellKnown, endSessionEndpoint: undefined },
    });
    expect(s).to.deep.include({ rev: 2, name: 'Renamed', acceptedAudiences: ['a'] });
    expect(s.logo).to.equal(undefined);
    expect(s.endSessionEndpoint).to.equal(undefined);
    expect(activeRealmByIssuer([s], wellKnown.issuer)?.label).to.equal('r');
    s = run(s, { ...at, type: 'Deprecate', label: 'r', rev: 2 });
    expect(s).to.deep.include({ rev: 3, deprecated: true });
    expect(activeRealmByIssuer([s], wellKnown.issuer)).to.equal(undefined);
  });

  it('refuses duplicates, unknown realms, stale revs, changes to a deprecated realm and a shared discovery address', () => {
    const s = run(undefined, { ...at, type: 'Create', label: 'r', fields, wellKnown });
    const type = (st: RealmState | undefined, cmd: RealmCommand, configs = none) => (evaluateRealm(st, cmd, configs) as Rejection).type;
    expect(type(s, { ...at, type: 'Create', label: 'r', fields, wellKnown })).to.equal('RealmAlreadyExists');
    expect(type(undefined, { ...at, type: 'Deprecate', label: 'x', rev: 1 })).to.equal('RealmNotFound');
    expect(type(s, { ...at, type: 'Deprecate', label: 'r', rev: 7 })).to.equal('IncorrectRev');
    const gone = run(s, { ...at, type: 'Deprecate', label: 'r', rev: 1 });
    expect(type(gone, { ...at, type: 'Deprecate', label: 'r', rev: 2 })).to.equal('RealmAlreadyDeprecated');
    expect(type(undefined, { ...at, type: 'Create', label: 'other', fields, wellKnown }, new Map([[fields.openIdConfig, 'r']]))).to.equal(
      'RealmOpenIdConfigAlreadyExists',
    );
    // A realm keeps its own discovery address on update.
    expect(evaluateRealm(s, { ...at, type: 'Update', label: 'r', rev: 1, fields, wellKnown }, new Map([[fields.openIdConfig, 'r']]))).to.not.be.instanceOf(
      Rejection,
    );
  });
});
