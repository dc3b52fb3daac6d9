import type { Request, Router } from 'express';
import type { AclIndex } from './AclIndex.js';
import { parseAclPath } from './AclPath.js';
import { aclBody, aclListing, identitiesBody, permissionsBody, realmBody } from './iamJson.js';
import { aclFromJson, permissionsFromJson, realmFieldsFromJson } from './iamPayloads.js';
import type { AclService } from './acls/AclService.js';
import type { PermissionsService } from './permissions/PermissionsService.js';
import type { RealmService } from './realms/RealmService.js';
import { rejections } from '../../domain/rejections.js';
import type { Addresses } from '../../kernel/Addresses.js';
import { context } from '../../kernel/vocabulary.js';
import { bool, integer, requiredRev } from '../../http/params.js';
import { onRoot } from '../../http/route.js';
import type { AclTarget, Routes } from '../../http/route.js';
import { FETCH, STATES } from '../../http/reads.js';

interface Deps {
  realms: RealmService;
  acls: AclService;
  aclIndex: AclIndex;
  permissions: PermissionsService;
  addresses: Addresses;
}

/** `rev` 0 addresses what was never written (the bootstrap root ACL, the initial permissions). */
const revOrZero = (req: Request): number => integer(req.query, 'rev', 0) ?? 0;

/** The ACL path a request names: `/v1/acls`, `/v1/acls/`, `/v1/acls/{org}`, `/v1/acls/{org}/{project}` (`*` in listings). */
const pathOf = (req: Request): string => {
  const raw = `/${[req.params['org'], req.params['project']].filter((s) => s !== undefined).join('/')}`;
  return raw.includes('*') ? raw : parseAclPath(raw);
};
/** Patterns are checked on the root: they may reach any path. */
const onAclPath: AclTarget = (req) => {
  const path = pathOf(req);
  return path.includes('*') ? '/' : path;
};

/** Identities, realms, permissions and ACLs (spec §5, wire-iam.md). */
export const iamRoutes = (routes: Routes, router: Router, { realms, acls, aclIndex, permissions, addresses }: Deps): void => {
  const base = addresses.base;
  routes.add(router, '/v1/identities', {
    get: {
      guard: { public: true },
      reads: FETCH,
      body: 'none',
      summary: "The caller's identities",
      handle: (_req, res, { caller }) => void res.json(identitiesBody(base, caller)),
    },
  });

  routes.add(router, '/v1/realms', {
    get: {
      guard: { permission: 'realms/read', on: onRoot },
      reads: FETCH,
      body: 'none',
      summary: 'List realms',
      handle: (req, res) => {
        const deprecated = bool(req.query, 'deprecated');
        const all = realms.list().filter((r) => deprecated === undefined || r.deprecated === deprecated);
        res.json({ '@context': [context('metadata'), context('search'), context('realms')], _total: all.length, _results: all.map((r) => realmBody(base, r)) });
      },
    },
  });
  routes.add(router, '/v1/realms/:realm', {
    get: {
      guard: { permission: 'realms/read', on: onRoot },
      reads: FETCH,
      body: 'none',
      summary: 'Fetch a realm (?rev)',
      handle: (req, res) => void res.json(realmBody(base, realms.fetch(req.params['realm'] as string, integer(req.query, 'rev', 1)))),
    },
    put: {
      guard: { permission: 'realms/write', on: onRoot },
      reads: STATES,
      body: 'json',
      summary: 'Create (no rev) or update (?rev) a realm from its OpenID discovery address',
      handle: async (req, res, { caller }) => {
        const label = req.params['realm'] as string;
        const fields = realmFieldsFromJson(req.body);
        const rev = integer(req.query, 'rev', 1);
        if (rev === undefined) res.status(201).json(realmBody(base, await realms.create(label, fields, caller), false));
        else res.json(realmBody(base, await realms.update(label, rev, fields, caller), false));
      },
    },
    delete: {
      guard: { permission: 'realms/write', on: onRoot },
      reads: STATES,
      body: 'none',
      summary: 'Deprecate a realm (?rev)',
      handle: async (req, res, { caller }) =>
        void res.json(realmBody(base, await realms.deprecate(req.params['realm'] as string, requiredRev(req.query), caller), false)),
    },
  });

  routes.add(router, '/v1/permissions', {
    get: {
      guard: { permission: 'permissions/read', on: onRoot },
      reads: FETCH,
      body: 'none',
      summary: 'Fetch the permission set (?rev)',
      handle: (req, res) => void res.json(permissionsBody(base, permissions.fetch(integer(req.query, 'rev', 0)))),
    },
    put: {
      guard: { permission: 'permissions/write', on: onRoot },
      reads: STATES,
      body: 'json',
      summary: 'Replace the permission set (?rev); the minimum stays',
      handle: async (req, res, { caller }) => {
        const { op, permissions: list } = permissionsFromJson(req.body, false);
        res.json(permissionsBody(base, await permissions.write(op, revOrZero(req), list, caller), false));
      },
    },
    patch: {
      guard: { permission: 'permissions/write', on: onRoot },
      reads: STATES,
      body: 'json',
      summary: 'Append to or subtract from the permission set (?rev)',
      handle: async (req, res, { caller }) => {
        const { op, permissions: list } = permissionsFromJson(req.body, true);
        res.json(permissionsBody(base, await permissions.write(op, revOrZero(req), list, caller), false));
      },
    },
    delete: {
      guard: { permission: 'permissions/write', on: onRoot },
      reads: STATES,
      body: 'none',
      summary: 'Reset the permission set to the minimum (?rev)',
      handle: async (req, res, { caller }) => void res.json(permissionsBody(base, await permissions.delete(revOrZero(req), caller), false)),
    },
  });

  // Express matches '/v1/acls/' (the root as clients spell it) on '/v1/acls'.
  for (const [path, of] of [
    ['/v1/acls', '/'],
    ['/v1/acls/:org', '/{org}'],
    ['/v1/acls/:org/:project', '/{org}/{project}'],
  ] as const) {
    routes.add(router, path, {
      get: {
        // Reading one's own entries needs nothing; everyone's (`self=false`) needs `acls/read`.
        guard: { permission: 'acls/read', on: onAclPath, when: (req) => bool(req.query, 'self') === false },
        reads: FETCH,
        body: 'none',
        summary: `Fetch the ACL of ${of} (ancestors, self, rev)`,
        handle: (req, res, { caller }) => {
          const ancestors = bool(req.query, 'ancestors') ?? false;
          const rev = integer(req.query, 'rev', 0);
          if (ancestors && rev !== undefined) throw rejections.malformedQueryParam("Query parameters 'rev' and 'ancestors' cannot be used together.");
          const found = aclIndex.query(pathOf(req), caller, { self: bool(req.query, 'self') ?? true, ancestors });
          // `?rev=` reads the ACL as it was at that revision (a path that never had it lists nothing).
          const selected = rev === undefined ? found : found.flatMap((acl) => aclIndex.at(acl.path, rev, caller, bool(req.query, 'self') ?? true) ?? []);
          res.json(aclListing(base, selected));
        },
      },
      ...(path.includes('*')
        ? {}
        : {
            put: {
              guard: { permission: 'acls/write', on: onAclPath },
              reads: STATES,
              body: 'json',
              summary: `Replace the ACL of ${of} (?rev)`,
              handle: async (req, res, { caller }) => {
                const { acl } = aclFromJson(req.body, false);
                const rev = revOrZero(req);
                const written = await acls.write(pathOf(req), 'Replace', rev, acl, caller);
                res.status(written.rev === 1 ? 201 : 200).json(aclBody(base, written, false));
              },
            },
            patch: {
              guard: { permission: 'acls/write', on: onAclPath },
              reads: STATES,
              body: 'json',
              summary: `Append to or subtract from the ACL of ${of} (?rev)`,
              handle: async (req, res, { caller }) => {
                const { op, acl } = aclFromJson(req.body, true);
                res.json(aclBody(base, await acls.write(pathOf(req), op, revOrZero(req), acl, caller), false));
              },
            },
            delete: {
              guard: { permission: 'acls/write', on: onAclPath },
              reads: STATES,
              body: 'none',
              summary: `Delete the ACL of ${of} (?rev)`,
              handle: async (req, res, { caller }) => void res.json(aclBody(base, await acls.delete(pathOf(req), requiredRev(req.query), caller), false)),
            },
          }),
    });
  }
};
