import type { NextFunction, Request, Response, Router } from 'express';
import { rejections } from '../../domain/rejections.js';
import type { EventScope } from '../../events/sse/EventScope.js';
import { aclPath, STREAM_KINDS } from '../../events/sse/EventScope.js';
import type { EventStreams } from '../../events/sse/EventStreams.js';
import type { Caller } from '../caller.js';
import { callerOf } from '../caller.js';
import { single } from '../params.js';
import type { Handler } from '../route.js';
import { route } from '../route.js';

interface Deps {
  streams: EventStreams;
  orgExists(label: string): boolean;
  projectExists(ref: string): boolean;
  /** Whether the caller holds `events/read` on the path; access control plugs in here (everyone may until it exists). */
  canReadEvents?(caller: Caller, path: string): Promise<boolean> | boolean;
}

/** `Last-Event-Id`: the position to resume after; ids are positions in the log, valid across every scope. */
const lastEventId = (req: Request): number => {
  const raw = req.get('last-event-id')?.trim();
  if (raw === undefined || raw === '') return 0;
  if (!/^\d{1,15}$/.test(raw)) throw rejections.malformedHeader('Last-Event-Id', `expected the id of an event (a non-negative integer), got '${raw}'.`);
  return Number(raw);
};

/**
 * Browsers' EventSource cannot set headers: an `access_token` query parameter stands for the
 * `Authorization` header on event streams, so identity resolution sees a bearer token either way.
 */
const withQueryToken = (req: Request): Caller => {
  const token = single(req.query, 'access_token');
  if (token !== undefined && req.headers.authorization === undefined) req.headers.authorization = `Bearer ${token}`;
  return callerOf(req);
};

/** Event streams (spec §4.5, §6): the global one, and per kind for all, one organization or one project. */
export const eventRoutes = (router: Router, deps: Deps): void => {
  const scopeOf = (req: Request, kind: EventScope['kind']): EventScope => {
    const org = req.params['org'] as string | undefined;
    const project = req.params['project'] as string | undefined;
    if (org === undefined) return { kind };
    if (!deps.orgExists(org)) throw rejections.organizationNotFound(org);
    if (project === undefined) return { kind, org };
    const ref = `${org}/${project}`;
    if (!deps.projectExists(ref)) throw rejections.projectNotFound(ref);
    return { kind, org, project: ref };
  };

  const authorize = async (req: Request, scope: EventScope): Promise<void> => {
    const caller = withQueryToken(req);
    const allowed = deps.canReadEvents ? await deps.canReadEvents(caller, aclPath(scope)) : true;
    if (!allowed) throw rejections.authorizationFailed();
  };

  const stream = (kind: EventScope['kind']): Handler => async (req, res) => {
    const scope = scopeOf(req, kind);
    const after = lastEventId(req);
    await authorize(req, scope);
    await deps.streams.serve(res, scope, after);
  };

  /** HEAD checks the permission without starting a stream. */
  const check = (kind: EventScope['kind']): Handler => async (req, res) => {
    await authorize(req, scopeOf(req, kind));
    res.status(200).end();
  };

  route(router, '/v1/events', { get: stream(undefined), head: check(undefined) });
  for (const kind of STREAM_KINDS) {
    route(router, `/v1/${kind}/events`, { get: stream(kind), head: check(kind) });
    // These paths also read as item paths (a project or a schema id named `events`): only GET and HEAD
    // are taken here, every other method falls through to the item routes.
    for (const path of [`/v1/${kind}/:org/events`, `/v1/${kind}/:org/:project/events`]) {
      // HEAD first: a GET layer would otherwise answer HEAD too.
      router.head(path, run(check(kind)));
      router.get(path, run(stream(kind)));
    }
  }
};

const run = (handler: Handler) => (req: Request, res: Response, next: NextFunction) => {
  Promise.resolve()
    .then(() => handler(req, res))
    .catch(next);
};
