import type { Request, Router } from 'express';
import { rejections } from '../../domain/rejections.js';
import type { TrackerService } from '../../tracker/TrackerService.js';
import type { Guard, Routes } from '../route.js';
import { segment } from '../route.js';
import { FETCH, STATES } from '../reads.js';

interface Deps {
  tracker: TrackerService;
}

// No ACL: the tracker decides what its user may do (spec §5); the service requires a User identity.
const guard: Guard = { public: true };

/** A JSON object body, as the tracker's create, edit and search operations take. */
const objectBody = (req: Request): Record<string, unknown> => {
  const body: unknown = req.body;
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw rejections.malformedContent('The request content must be a JSON object.');
  return body as Record<string, unknown>;
};

/** `{"value": <the code the tracker showed the user>}`, nothing else. */
const verifier = (req: Request): string => {
  const body = objectBody(req);
  const value = body['value'];
  if (typeof value !== 'string' || value === '' || Object.keys(body).length !== 1)
    throw rejections.malformedContent('The request content must be {"value": <the code given after granting access>}.');
  return value;
};

/** `recent`, the only parameter of the project listing that reaches the tracker. */
const recent = (req: Request): number | undefined => {
  const raw = req.query['recent'];
  if (raw === undefined) return undefined;
  if (typeof raw !== 'string' || !/^\d{1,9}$/.test(raw)) throw rejections.malformedQueryParam(`'recent' must be a non-negative integer, got '${String(raw)}'.`);
  return Number(raw);
};

/** Spec §4.8: the issue-tracker integration, answering the tracker's own bodies. */
export const trackerRoutes = (routes: Routes, router: Router, { tracker }: Deps): void => {
  routes.add(router, '/v1/tracker/request-token', {
    post: { guard, reads: STATES, body: 'none', handle: async (_req, res, { caller }) => void res.json(await tracker.requestToken(caller)) },
  });
  routes.add(router, '/v1/tracker/access-token', {
    post: {
      guard,
      reads: STATES,
      body: 'json',
      handle: async (req, res, { caller }) => {
        await tracker.accessToken(caller, verifier(req));
        res.json({});
      },
    },
  });
  routes.add(router, '/v1/tracker/issue', {
    post: {
      guard,
      reads: STATES,
      body: 'json',
      handle: async (req, res, { caller }) => void res.status(201).json(await tracker.createIssue(caller, objectBody(req))),
    },
  });
  routes.add(router, '/v1/tracker/issue/:issueId', {
    put: {
      guard,
      reads: STATES,
      body: 'json',
      handle: async (req, res, { caller }) => {
        await tracker.editIssue(caller, segment(req, 'issueId'), objectBody(req));
        res.status(204).end();
      },
    },
  });
  routes.add(router, '/v1/tracker/project', {
    get: { guard, reads: FETCH, body: 'none', handle: async (req, res, { caller }) => void res.json(await tracker.listProjects(caller, recent(req))) },
  });
  routes.add(router, '/v1/tracker/search', {
    post: { guard, reads: STATES, body: 'json', handle: async (req, res, { caller }) => void res.json(await tracker.search(caller, objectBody(req))) },
  });
};
