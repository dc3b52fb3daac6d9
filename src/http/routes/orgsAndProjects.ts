import type { Router } from 'express';
import type { OrgService } from '../../domain/orgs/OrgService.js';
import type { ProjectService } from '../../domain/projects/ProjectService.js';
import { rejections } from '../../domain/rejections.js';
import { context } from '../../domain/vocabulary.js';
import { callerOf } from '../caller.js';
import { bool, integer, requiredRev, single } from '../params.js';
import { orgBody, projectBody } from '../render/orgsProjects.js';
import { projectOf, route } from '../route.js';
import type { Request } from 'express';

interface Deps {
  orgs: OrgService;
  projects: ProjectService;
  baseUrl: string;
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
  const kept = items.filter((i) => deprecated === undefined || i.deprecated === deprecated).filter((i) => label === undefined || (i as unknown as { label: string }).label.includes(label));
  return { total: kept.length, items: kept.slice(from, from + size) };
};

const listing = (total: number, results: unknown[]) => ({
  '@context': [context('metadata'), context('search')],
  _total: total,
  _results: results,
});

export const orgAndProjectRoutes = (router: Router, { orgs, projects, baseUrl }: Deps): void => {
  route(router, '/v1/orgs', {
    get: (req, res) => {
      const { total, items } = page(req, orgs.list());
      res.json(listing(total, items.map((o) => orgBody(o, baseUrl))));
    },
  });
  route(router, '/v1/orgs/:org', {
    get: (req, res) => {
      res.json(orgBody(orgs.fetch(req.params['org'] as string), baseUrl));
    },
    put: async (req, res) => {
      const label = req.params['org'] as string;
      const rev = integer(req.query, 'rev', 1);
      const caller = callerOf(req);
      if (rev === undefined) res.status(201).json(orgBody(await orgs.create(label, description(req.body), caller.subject), baseUrl, false));
      else res.json(orgBody(await orgs.update(label, rev, description(req.body), caller.subject), baseUrl, false));
    },
    delete: async (req, res) => {
      res.json(orgBody(await orgs.deprecate(req.params['org'] as string, requiredRev(req.query), callerOf(req).subject), baseUrl, false));
    },
  });
  route(router, '/v1/projects', {
    get: (req, res) => {
      const { total, items } = page(req, projects.list());
      res.json(listing(total, items.map((p) => projectBody(p, baseUrl))));
    },
  });
  route(router, '/v1/projects/:org', {
    get: (req, res) => {
      orgs.fetch(req.params['org'] as string);
      const { total, items } = page(req, projects.list(req.params['org'] as string));
      res.json(listing(total, items.map((p) => projectBody(p, baseUrl))));
    },
  });
  route(router, '/v1/projects/:org/:project', {
    get: (req, res) => {
      res.json(projectBody(projects.fetch(projectOf(req)), baseUrl));
    },
    put: async (req, res) => {
      const [org, label] = [req.params['org'] as string, req.params['project'] as string];
      const rev = integer(req.query, 'rev', 1);
      const subject = callerOf(req).subject;
      if (rev === undefined) res.status(201).json(projectBody(await projects.create(org, label, req.body, subject), baseUrl, false));
      else res.json(projectBody(await projects.update(org, label, rev, req.body, subject), baseUrl, false));
    },
    delete: async (req, res) => {
      const [org, label] = [req.params['org'] as string, req.params['project'] as string];
      res.json(projectBody(await projects.deprecate(org, label, requiredRev(req.query), callerOf(req).subject), baseUrl, false));
    },
  });
};
