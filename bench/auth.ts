import { RealmDiscovery } from '../src/modules/iam/RealmDiscovery.js';
import { TokenVerifier } from '../src/modules/iam/TokenVerifier.js';
import { aclAllows, listingAccess } from '../src/modules/iam/aclAllows.js';
import { callerFromClaims } from '../src/kernel/Identity.js';
import { normalizeAcl, bootstrapRootAcl, type AclState } from '../src/modules/iam/acls/Acl.js';
import { activeRealmByIssuer, evaluateRealm, nextRealm, type RealmState } from '../src/modules/iam/realms/Realm.js';
import { ANONYMOUS } from '../src/kernel/Identity.js';
import { OidcIssuer } from '../test/support/oidcIssuer.js';
import { measure } from './harness.js';

/**
 * `npm run build && node dist/bench/auth.js [N]`: bearer-token verification (first sight and
 * cached) and ACL decisions. Standalone, not part of `npm run bench` yet.
 */
const n = Number(process.argv[2] ?? 2_000);
const provider = await OidcIssuer.start();
try {
  const wellKnown = await new RealmDiscovery({ timeoutMs: 2000 }).discover(provider.openIdConfig);
  const at = { instant: new Date().toISOString(), subject: 'anonymous' };
  const event = evaluateRealm(
    undefined,
    { ...at, type: 'Create', label: 'bench', fields: { name: 'b', openIdConfig: provider.openIdConfig }, wellKnown },
    new Map(),
  );
  const realms: RealmState[] = [nextRealm(undefined, event as never)!];
  const verifier = new TokenVerifier((iss) => activeRealmByIssuer(realms, iss));
  const tokens = await Promise.all(Array.from({ length: n }, (_, i) => provider.sign({ sub: `user${i}`, groups: ['g1', 'g2'] })));
  await measure('verify token (first sight)', n, 4, async (i) => void (await verifier.verify(tokens[i]!)));
  await measure('verify token (cached)', n, 4, async (i) => void (await verifier.verify(tokens[i]!)));

  const acls = new Map<string, AclState>([['/', bootstrapRootAcl(ANONYMOUS, [], at.instant, 'anonymous')]]);
  const projects: string[] = [];
  for (let o = 0; o < 100; o++)
    for (let p = 0; p < 10; p++) {
      const path = `/org${o}/p${p}`;
      projects.push(path.slice(1));
      acls.set(path, {
        ...bootstrapRootAcl(ANONYMOUS, [], at.instant, 'anonymous'),
        path,
        rev: 1,
        acl: normalizeAcl([{ identity: { type: 'Group', realm: 'bench', group: `g${p}` }, permissions: ['resources/read', 'resources/write'] }]),
      });
    }
  const caller = callerFromClaims('bench', 'alice', ['g1', 'g2']);
  await measure(
    'aclAllows (project path)',
    n * 10,
    1,
    async (i) => void aclAllows(acls, caller.identities, 'resources/read', `/${projects[i % projects.length]}`),
  );
  await measure('listingAccess over 1000 projects', n / 10, 1, async () => void listingAccess(acls, caller.identities, 'resources/read', projects));
} finally {
  await provider.stop();
}
