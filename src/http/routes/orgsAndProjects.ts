import type { Request, Router } from 'express';
import { mayReadOrg, mayReadProject } from '../../kernel/ProjectAccess.js';
import type { OrgService } from '../../domain/orgs/OrgService.js';
import type { ProjectService } from '../../domain/projects/ProjectService.js';
import { rejections } from '../../domain/rejections.js';
import { context } from '../../kernel/vocabulary.js';
import { bool, integer, requiredRev, single } from '../params.js';
import { orgBody, projectBody } from '../render/orgsProjects.js';
import { onOrg, onProject, onRoot, projectOf } from '../route.js';
import type { Routes } from '../route.js';
import type { Addresses } from '../../kernel/Addresses.js';
import type { ProjectStatistics } from '../../domain/projects/projectStatistics.js';
import type { ProjectRef } from '../../kernel/labels.js';
import { FETCH, STATES } from '../reads.js';

interface Deps {
  orgs: OrgService;
  projects: ProjectService;
  addresses: Addresses;
  /** The project's statistics, counted over its resources and schemas. */
  statistics(ref: ProjectRef): Promise<ProjectStatistics>;
}

const description = (body: unknown): string | undefined => {
  if (body === undefined) return undefined;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw rejections.malformedContent('The payload must be a JSON object.');
  const value = (body as Record<string, unknown>)['description'];
  if (value !== undefined && typeof value !== 'string') throw rejections.malformedContent("'description' must be a string.");
  return value;
};

/** `from`/`size` paging and the `deprecated` filter of the organization and project listings. */
const page = <T extends { deprecated: boolean }>(req: Request, items: T[]) => {
  const from = integer(req.query, 'from', 0, 10_000) ?? 0;
  const size = integer(req.query, 'size', 1, 1000) ?? 20;
  const deprecated = bool(req.query, 'deprecated');
  const label = single(req.query, 'label');
  const kept = items
    .filter((i) => deprecated === undefined || i.deprecated === deprecated)
    .filter((i) => label === undefined || (i as unknown as { label: string }).label.includes(label));
  return { total: kept.length, items: kept.slice(from, from + size) };
};

const listing = (total: number, results: unknown[]) => ({
  '@context': [context('metadata'), context('search')],
  _total: total,
  _results: results,
});

export const orgAndProjectRoutes = (routes: Routes, router: Router, { orgs, projects, addresses, statistics }: Deps): void => {
  routes.add(router, '/v1/orgs', {
    get: {
      guard: { permission: 'organizations/read', within: onRoot },
      reads: FETCH,
      body: 'none',
      handle: (req, res, { access }) => {
        const { total, items } = page(
          req,
          orgs.list().filter((o) => mayReadOrg(access, o.label)),
        );
        res.json(
          listing(
            total,
            items.map((o) => orgBody(o, addresses)),
          ),
        );
      },
    },
  });
  routes.add(router, '/v1/orgs/:org', {
    get: {
      guard: { permission: 'organizations/read', on: onOrg },
      reads: FETCH,
      body: 'none',
      handle: (req, res) => void res.json(orgBody(orgs.fetch(req.params['org'] as string, integer(req.query, 'rev', 1)), addresses)),
    },
    put: {
      guard: { permission: { create: 'organizations/create', update: 'organizations/write' }, on: onOrg },
      reads: STATES,
      body: 'json',
      handle: async (req, res, { caller }) => {
        const label = req.params['org'] as string;
        const rev = integer(req.query, 'rev', 1);
        if (rev === undefined) res.status(201).json(orgBody(await orgs.create(label, description(req.body), caller), addresses, false));
        else res.json(orgBody(await orgs.update(label, rev, description(req.body), caller), addresses, false));
      },
    },
    delete: {
      guard: { permission: 'organizations/write', on: onOrg },
      reads: STATES,
      body: 'none',
      handle: async (req, res, { caller }) =>
        void res.json(orgBody(await orgs.deprecate(req.params['org'] as string, requiredRev(req.query), caller), addresses, false)),
    },
  });
  routes.add(router, '/v1/projects', {
    get: {
      guard: { permission: 'projects/read', within: onRoot },
      reads: FETCH,
      body: 'none',
      handle: (req, res, { access }) => {
        const { total, items } = page(
          req,
          projects.list().filter((p) => mayReadProject(access, `${p.org}/${p.label}`)),
        );
        res.json(
          listing(
            total,
            items.map((p) => projectBody(p, addresses)),
          ),
        );
      },
    },
  });
  routes.add(router, '/v1/projects/:org', {
    get: {
      guard: { permission: 'projects/read', within: onOrg },
      reads: FETCH,
      body: 'none',
      handle: (req, res, { access }) => {
        orgs.fetch(req.params['org'] as string);
        const { total, items } = page(
          req,
          projects.list(req.params['org'] as string).filter((p) => mayReadProject(access, `${p.org}/${p.label}`)),
        );
        res.json(
          listing(
            total,
            items.map((p) => projectBody(p, addresses)),
          ),
        );
      },
    },
  });
  routes.add(router, '/v1/projects/:org/:project', {
    get: {
      guard: { permission: 'projects/read', on: onProject },
      reads: FETCH,
      body: 'none',
      handle: (req, res) => void res.json(projectBody(projects.fetch(projectOf(req), integer(req.query, 'rev', 1)), addresses)),
    },
    put: {
      guard: { permission: { create: 'projects/create', update: 'projects/write' }, on: onProject },
      reads: STATES,
      body: 'json',
      handle: async (req, res, { caller }) => {
        const [org, label] = [req.params['org'] as string, req.params['project'] as string];
        const rev = integer(req.query, 'rev', 1);
        if (rev === undefined) res.status(201).json(projectBody(await projects.create(org, label, req.body, caller), addresses, false));
        else res.json(projectBody(await projects.update(org, label, rev, req.body, caller), addresses, false));
      },
    },
    delete: {
      // Deletion (`prune=true`) needs Delta's `projects/delete`; deprecation `projects/write`.
      guard: { permission: 'projects/write', on: onProject, resolve: (req) => (bool(req.query, 'prune') === true ? 'projects/delete' : undefined) },
      reads: STATES,
      body: 'none',
      handle: async (req, res, { caller }) => {
        const [org, label] = [req.params['org'] as string, req.params['project'] as string];
        if (bool(req.query, 'prune') === true) res.json(projectBody(await projects.delete(org, label, requiredRev(req.query), caller), addresses, false, true));
        else res.json(projectBody(await projects.deprecate(org, label, requiredRev(req.query), caller), addresses, false));
      },
    },
  });
  // Delta's shape (projects-api.md, "Fetch statistics"), guarded as Delta guards it: by `resources/read`.
  routes.add(router, '/v1/projects/:org/:project/statistics', {
    get: {
      guard: { permission: 'resources/read', on: onProject },
      reads: FETCH,
      body: 'none',
      handle: async (req, res) => {
        const ref = projectOf(req);
        projects.fetch(ref);
        res.json({ '@context': context('statistics'), ...(await statistics(ref)) });
      },
    },
  });
};
