import { expect } from 'chai';
import { RealmDiscovery } from '../../src/modules/iam/RealmDiscovery.js';
import { TokenVerifier } from '../../src/modules/iam/TokenVerifier.js';
import { aclAllows } from '../../src/modules/iam/aclAllows.js';
import { identityKey } from '../../src/kernel/Identity.js';
import { evaluateAcl, nextAcl, type AclState } from '../../src/modules/iam/acls/Acl.js';
import { activeRealmByIssuer, evaluateRealm, nextRealm, type RealmCommand, type RealmFields, type RealmState } from '../../src/modules/iam/realms/Realm.js';
import { Rejection } from '../../src/kernel/Rejection.js';
import { MINIMUM_PERMISSIONS } from '../../src/kernel/permissions.js';
import { SignJWT } from 'jose';
import { OidcIssuer, closedPortAddress } from '../support/oidcIssuer.js';

const at = { instant: '2026-01-01T00:00:00.000Z', subject: 'anonymous' };

const rejectionOf = async (p: Promise<unknown>): Promise<Rejection> => {
  try {
    await p;
  } catch (e) {
    if (e instanceof Rejection) return e;
    throw e;
  }
  throw new Error('expected a rejection');
};

describe('Realms discovered from an OpenID provider, and bearer tokens verified against them', () => {
  let provider: OidcIssuer;
  const discovery = new RealmDiscovery({ timeoutMs: 1500 });
  const realms = new Map<string, RealmState>();
  const apply = (cmd: RealmCommand) => {
    const configs = new Map([...realms.values()].map((r) => [r.openIdConfig, r.label]));
    const event = evaluateRealm(realms.get(cmd.label), cmd, configs);
    if (event instanceof Rejection) throw event;
    realms.set(cmd.label, nextRealm(realms.get(cmd.label), event)!);
    return event;
  };
  const createRealm = async (label: string, fields: Partial<RealmFields> = {}) => {
    const payload = { name: label, openIdConfig: provider.openIdConfig, ...fields };
    return apply({ ...at, type: 'Create', label, ...(await discovery.resolve(payload)) });
  };
  const verifier = (options = {}) => new TokenVerifier((iss) => activeRealmByIssuer(realms.values(), iss), { refreshCooldownMs: 200, ...options });

  // One provider for all: RSA key generation is the slow part. Each test discovers afresh, so a rotation stays local to its test.
  before(async () => {
    provider = await OidcIssuer.start();
  });
  after(() => provider.stop());
  beforeEach(() => {
    realms.clear();
    provider.documentOverrides = {};
    provider.jwksOverride = undefined;
  });

  it('creates a realm by discovery: issuer, endpoints, camelCase grant types and the provider keys', async () => {
    const event = await createRealm('local');
    expect(event.type).to.equal('RealmCreated');
    const realm = realms.get('local')!;
    expect(realm.issuer).to.equal(provider.issuer);
    expect(realm.tokenEndpoint).to.equal(`${provider.issuer}/token`);
    expect(realm.endSessionEndpoint).to.equal(`${provider.issuer}/logout`);
    expect(realm.revocationEndpoint).to.equal(undefined);
    expect(realm.grantTypes).to.deep.equal(['authorizationCode', 'clientCredentials', 'refreshToken', 'deviceCode']);
    expect(realm.keys).to.have.length(1);
    expect(realm.keys[0]).to.not.have.property('d');
  });

  it('a second realm on the same discovery address is refused', async () => {
    await createRealm('local');
    const wellKnown = await discovery.discover(provider.openIdConfig);
    const r = evaluateRealm(
      undefined,
      { ...at, type: 'Create', label: 'other', fields: { name: 'o', openIdConfig: provider.openIdConfig }, wellKnown },
      new Map([[provider.openIdConfig, 'local']]),
    );
    expect((r as Rejection).type).to.equal('RealmOpenIdConfigAlreadyExists');
  });

  it('an address where nothing answers is UnsuccessfulOpenIdConfigResponse', async () => {
    const r = await rejectionOf(discovery.discover(await closedPortAddress()));
    expect(r.type).to.equal('UnsuccessfulOpenIdConfigResponse');
  });

  it('a provider that never answers is refused within the timeout, not left hanging', async () => {
    // The provider never answers: any answer is the timeout's.
    const r = await rejectionOf(new RealmDiscovery({ timeoutMs: 300 }).discover(provider.hangingAddress));
    expect(r.type).to.equal('UnsuccessfulOpenIdConfigResponse');
    expect(r.reason, r.reason).to.contain('in time');
  });

  it('a JSON answer that is no discovery document names the missing issuer', async () => {
    const r = await rejectionOf(discovery.discover(provider.notDiscovery));
    expect(r.type).to.equal('IllegalIssuerFormat');
  });

  it('an address answering 404 is UnsuccessfulOpenIdConfigResponse', async () => {
    const r = await rejectionOf(discovery.discover(`${provider.base}/nothing/.well-known/openid-configuration`));
    expect(r.type).to.equal('UnsuccessfulOpenIdConfigResponse');
  });

  it('plain http is refused outside loopback, and a malformed address is refused', async () => {
    expect((await rejectionOf(discovery.discover('http://example.org/.well-known/openid-configuration'))).type).to.equal('UnsuccessfulOpenIdConfigResponse');
    expect((await rejectionOf(discovery.discover('not an address'))).type).to.equal('UnsuccessfulOpenIdConfigResponse');
  });

  it('a discovery document with a bad jwks_uri or a missing endpoint names what is wrong', async () => {
    provider.documentOverrides = { jwks_uri: undefined };
    expect((await rejectionOf(discovery.discover(provider.openIdConfig))).type).to.equal('IllegalJwksUriFormat');
    provider.documentOverrides = { jwks_uri: 'http://example.org/jwks' };
    expect((await rejectionOf(discovery.discover(provider.openIdConfig))).type).to.equal('IllegalJwksUriFormat');
    provider.documentOverrides = { token_endpoint: undefined };
    const r = await rejectionOf(discovery.discover(provider.openIdConfig));
    expect(r.type).to.equal('IllegalEndpointFormat');
    expect(r.fields['endpoint']).to.equal('token_endpoint');
  });

  it('a JWKS that fails, is malformed or holds no RSA signature key is refused by name', async () => {
    provider.jwksOverride = { status: 500, body: {} };
    expect((await rejectionOf(discovery.discover(provider.openIdConfig))).type).to.equal('UnsuccessfulJwksResponse');
    provider.jwksOverride = { status: 200, body: { keys: 'none' } };
    expect((await rejectionOf(discovery.discover(provider.openIdConfig))).type).to.equal('IllegalJwkFormat');
    provider.jwksOverride = { status: 200, body: { keys: [{ kty: 'RSA', n: '', e: '' }] } };
    expect((await rejectionOf(discovery.discover(provider.openIdConfig))).type).to.equal('IllegalJwkFormat');
    provider.jwksOverride = { status: 200, body: { keys: [{ kty: 'EC', crv: 'P-256', x: 'x', y: 'y' }] } };
    expect((await rejectionOf(discovery.discover(provider.openIdConfig))).type).to.equal('NoValidKeysFound');
  });

  it('two users of different groups get the identities of their claims, and only the granted group reaches the project', async () => {
    await createRealm('local');
    const v = verifier();
    const alice = await v.callerOf(`Bearer ${await provider.sign({ sub: 'a-1', preferred_username: 'alice', groups: ['readers', 'staff'] })}`);
    const bob = await v.callerOf(`bearer ${await provider.sign({ sub: 'bob', groups: 'writers, staff' })}`);
    expect(alice.subject).to.equal('realms/local/users/alice');
    expect(alice.identities.map(identityKey)).to.deep.equal([
      'anonymous',
      'realms/local/authenticated',
      'realms/local/users/alice',
      'realms/local/groups/readers',
      'realms/local/groups/staff',
    ]);
    expect(bob.identities.map(identityKey)).to.include.members(['realms/local/users/bob', 'realms/local/groups/writers', 'realms/local/groups/staff']);

    const ctx = { permissions: new Set(MINIMUM_PERMISSIONS), realms: new Set(realms.keys()) };
    const event = evaluateAcl(
      undefined,
      {
        ...at,
        type: 'Replace',
        path: '/org',
        rev: 0,
        acl: [{ identity: { type: 'Group', realm: 'local', group: 'readers' }, permissions: ['resources/read'] }],
      },
      ctx,
    );
    if (event instanceof Rejection) throw event;
    const acls = new Map<string, AclState>([['/org', nextAcl(undefined, event)]]);
    expect(aclAllows(acls, alice.identities, 'resources/read', '/org/proj')).to.equal(true);
    expect(aclAllows(acls, bob.identities, 'resources/read', '/org/proj')).to.equal(false);
  });

  it('no header is anonymous; a non-bearer header or an unparseable token is refused, never anonymous', async () => {
    await createRealm('local');
    const v = verifier();
    expect((await v.callerOf(undefined)).subject).to.equal('anonymous');
    expect((await rejectionOf(v.callerOf('Basic dXNlcjpwYXNz'))).type).to.equal('AuthenticationFailed');
    expect((await rejectionOf(v.callerOf('Bearer not.a.jwt'))).type).to.equal('InvalidAccessTokenFormat');
  });

  it('an expired token is InvalidAccessToken', async () => {
    await createRealm('local');
    const r = await rejectionOf(verifier().callerOf(`Bearer ${await provider.sign({ sub: 'alice' }, { expiresIn: -60 })}`));
    expect(r.type).to.equal('InvalidAccessToken');
    expect(r.fields['details']).to.contain('expired');
  });

  it('a token not yet valid (nbf) is InvalidAccessToken', async () => {
    await createRealm('local');
    const r = await rejectionOf(verifier().verify(await provider.sign({ sub: 'alice' }, { notBefore: 120 })));
    expect(r.type).to.equal('InvalidAccessToken');
  });

  it('an HMAC token keyed with the public key, or an unsigned one, is InvalidAccessToken (no algorithm confusion)', async () => {
    await createRealm('local');
    const publicKey = new TextEncoder().encode(JSON.stringify(realms.get('local')!.keys[0]));
    const exp = Math.floor(Date.now() / 1000) + 60;
    const hs = await new SignJWT({ sub: 'mallory', exp }).setProtectedHeader({ alg: 'HS256' }).setIssuer(provider.issuer).sign(publicKey);
    expect((await rejectionOf(verifier().verify(hs))).type).to.equal('InvalidAccessToken');
    const none = `${Buffer.from('{"alg":"none"}').toString('base64url')}.${Buffer.from(JSON.stringify({ sub: 'mallory', iss: provider.issuer, exp })).toString('base64url')}.`;
    expect((await rejectionOf(verifier().verify(none))).type).to.equal('InvalidAccessToken');
  });

  it('a cached token stops working when it expires', async () => {
    await createRealm('local');
    let now = Date.now();
    const v = verifier({ now: () => now });
    const token = await provider.sign({ sub: 'alice' }, { expiresIn: 5 });
    expect((await v.verify(token)).subject).to.equal('realms/local/users/alice');
    now += 10_000;
    expect((await rejectionOf(v.verify(token))).type).to.equal('InvalidAccessToken');
  });

  it('a token signed by a key the provider does not publish is InvalidAccessToken, after at most one JWKS refetch', async () => {
    await createRealm('local');
    const v = verifier({ refreshCooldownMs: 60_000 });
    const fetchesBefore = provider.jwksRequests.length;
    for (let i = 0; i < 3; i++) {
      const r = await rejectionOf(v.verify(await provider.sign({ sub: `mallory${i}` }, { unpublishedKey: true })));
      expect(r.type).to.equal('InvalidAccessToken');
    }
    expect(provider.jwksRequests.length - fetchesBefore).to.equal(1);
  });

  it('a token whose issuer is no realm is UnknownAccessTokenIssuer', async () => {
    const r = await rejectionOf(verifier().verify(await provider.sign({ sub: 'alice' })));
    expect(r.type).to.equal('UnknownAccessTokenIssuer');
  });

  it('key rotation at the provider needs no realm update', async () => {
    await createRealm('local');
    const v = verifier();
    expect((await v.verify(await provider.sign({ sub: 'alice' }))).subject).to.equal('realms/local/users/alice');
    await provider.rotate();
    expect((await v.verify(await provider.sign({ sub: 'bob' }))).subject).to.equal('realms/local/users/bob');
  });

  it('a token of a deprecated realm is refused, even one verified before', async () => {
    await createRealm('local');
    const v = verifier();
    const token = await provider.sign({ sub: 'alice' });
    await v.verify(token);
    apply({ ...at, type: 'Deprecate', label: 'local', rev: 1 });
    expect((await rejectionOf(v.verify(token))).type).to.equal('UnknownAccessTokenIssuer');
  });

  it('with accepted audiences, a token for another audience or without one is refused', async () => {
    await createRealm('local', { acceptedAudiences: ['registry', 'other'] });
    const v = verifier();
    expect((await v.verify(await provider.sign({ sub: 'alice', aud: 'registry' }))).subject).to.equal('realms/local/users/alice');
    expect((await v.verify(await provider.sign({ sub: 'alice', aud: ['x', 'other'] }))).subject).to.equal('realms/local/users/alice');
    const wrong = await rejectionOf(v.verify(await provider.sign({ sub: 'alice', aud: 'someone-else' })));
    expect(wrong.type).to.equal('InvalidAccessToken');
    expect((await rejectionOf(v.verify(await provider.sign({ sub: 'alice' })))).type).to.equal('InvalidAccessToken');
  });

  it('a token without an issuer is AccessTokenDoesNotContainAnIssuer', async () => {
    await createRealm('local');
    expect((await rejectionOf(verifier().verify(await provider.sign({ sub: 'alice' }, { noIssuer: true })))).type).to.equal(
      'AccessTokenDoesNotContainAnIssuer',
    );
  });

  it('a token without a subject is AccessTokenDoesNotContainSubject', async () => {
    await createRealm('local');
    expect((await rejectionOf(verifier().verify(await provider.sign({})))).type).to.equal('AccessTokenDoesNotContainSubject');
  });
});
