// One-shot, before the balancer opens: registers the OpenID provider as the registry's realm and
// replaces the fresh service's root ACL (every permission to anonymous callers) with one granting
// every permission to the realm's `admins` group. Nothing is reachable from outside until this has
// succeeded (the balancer waits for it), so there is no window in which anonymous callers could
// write. Idempotent: run again on a deployment already set up, it changes nothing.
const registry = process.env.REGISTRY_URL ?? 'http://registry:8080';
const label = process.env.REALM_LABEL ?? 'registry';
const openIdConfig = process.env.REALM_OPENID_CONFIG;
const adminGroup = process.env.REALM_ADMIN_GROUP ?? 'admins';
if (!openIdConfig) throw new Error('REALM_OPENID_CONFIG is required');

const json = { 'content-type': 'application/json', accept: 'application/json' };
const call = async (method, path, body) => {
  const response = await fetch(`${registry}${path}`, { method, headers: json, ...(body ? { body: JSON.stringify(body) } : {}) });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
};
const fail = (what, answer) => {
  throw new Error(`${what}: ${answer.status} ${JSON.stringify(answer.body)}`);
};

// The replicas and the provider start in any order: wait for both (a minute or two on a first start).
for (let attempt = 0; ; attempt++) {
  const ready = await fetch(`${registry}/health/ready`).then((r) => r.ok, () => false);
  const provider = ready && (await fetch(openIdConfig).then((r) => r.ok, () => false));
  if (ready && provider) break;
  if (attempt >= 120) throw new Error(`${ready ? openIdConfig : registry} did not answer in 4 minutes`);
  await new Promise((resolve) => setTimeout(resolve, 2_000));
}

const root = await call('GET', '/v1/acls');
if (root.status !== 200) fail('reading the root ACL', root);
// A fresh service shows anonymous callers the bootstrap ACL (rev 0); once the root ACL was written,
// by this script or an operator, they see none of it (or a later revision): then nothing is done.
if (root.body._results?.[0]?._rev !== 0) {
  console.log('bootstrap: the root ACL was already written; nothing to do');
  process.exit(0);
}

const realm = await call('GET', `/v1/realms/${label}`);
if (realm.status === 404) {
  const created = await call('PUT', `/v1/realms/${label}`, { name: 'The deployment\'s OpenID provider', openIdConfig });
  if (created.status !== 201) fail(`creating realm '${label}'`, created);
  console.log(`bootstrap: realm '${label}' created from ${openIdConfig}`);
} else if (realm.status !== 200) fail(`reading realm '${label}'`, realm);

const permissions = await call('GET', '/v1/permissions');
if (permissions.status !== 200) fail('reading the permission set', permissions);
const acl = [{ identity: { realm: label, group: adminGroup }, permissions: permissions.body.permissions }];
const replaced = await call('PUT', '/v1/acls?rev=0', { acl });
if (replaced.status !== 200 && replaced.status !== 201) fail('replacing the root ACL', replaced);
console.log(`bootstrap: / now grants every permission to realms/${label}/groups/${adminGroup} only`);
