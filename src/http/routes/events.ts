import type { Request, Router } from 'express';
import { rejections } from '../../domain/rejections.js';
import type { EventScope } from '../../streams/EventScope.js';
import type { EventStreams } from '../../streams/EventStreams.js';
import { onOrg, onProject, onRoot } from '../route.js';
import type { AclTarget, Endpoint, Handler, Routes } from '../route.js';
import { FETCH, NOTHING } from '../reads.js';
import { callerKey } from '../CallerConcurrency.js';
import type { Reads } from '../reads.js';

/** A stream reads the log itself, from where the client asks. */
const STREAM = NOTHING;
/** HEAD checks the permission and the scope on the states (and waits for the catalogue, as other reads do). */
const CHECK = FETCH;

interface Deps {
  streams: EventStreams;
  orgExists(label: string): boolean;
  projectExists(ref: string): boolean;
  /** The kinds with their own streams. */
  streamKinds: readonly NonNullable<EventScope['kind']>[];
}

/** `Last-Event-Id`: the position to resume after; ids are positions in the log, valid across every scope. */
const lastEventId = (req: Request): number => {
  const raw = req.get('last-event-id')?.trim();
  if (raw === undefined || raw === '') return 0;
  if (!/^\d{1,15}$/.test(raw)) throw rejections.malformedHeader('Last-Event-Id', `expected the id of an event (a non-negative integer), got '${raw}'.`);
  return Number(raw);
};

/** Event streams (spec §4.5, §6): the global one, and per kind for all, one organization or one project; `events/read` on the scope's path. */
export const eventRoutes = (routes: Routes, router: Router, deps: Deps): void => {
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

  const stream =
    (kind: EventScope['kind']): Handler =>
    async (req, res, ctx) => {
      const scope = scopeOf(req, kind);
      await deps.streams.serve(res, scope, lastEventId(req), callerKey(ctx.caller, req));
    };

  /** HEAD checks the permission without starting a stream. */
  const check =
    (kind: EventScope['kind']): Handler =>
    (req, res) => {
      scopeOf(req, kind);
      res.status(200).end();
    };

  const guarded = (on: AclTarget, reads: Reads, handle: Handler, summary?: string): Endpoint => ({
    guard: { permission: 'events/read', on },
    reads,
    body: 'none',
    handle,
    ...(summary ? { summary } : {}),
  });
  const streamText = (kind: string, scope: string) => `Server-sent event stream (${kind}${scope})`;
  const checkText = (kind: string, scope: string) => `Check the permission to read the event stream (${kind}${scope})`;

  routes.add(router, '/v1/events', { get: guarded(onRoot, STREAM, stream(undefined)), head: guarded(onRoot, CHECK, check(undefined)) });
  for (const kind of deps.streamKinds) {
    routes.add(router, `/v1/${kind}/events`, {
      get: guarded(onRoot, STREAM, stream(kind), streamText(kind, '')),
      head: guarded(onRoot, CHECK, check(kind), checkText(kind, '')),
    });
    // These paths also read as item paths (a project or a schema id named `events`): only GET and HEAD
    // are taken here, every other method falls through to the item routes. HEAD first: a GET layer
    // would otherwise answer HEAD too.
    for (const [path, on, scope] of [
      [`/v1/${kind}/:org/events`, onOrg, ' of one organization'],
      [`/v1/${kind}/:org/:project/events`, onProject, ' of one project'],
    ] as const) {
      routes.only(router, 'head', path, guarded(on, CHECK, check(kind), checkText(kind, scope)));
      routes.only(router, 'get', path, guarded(on, STREAM, stream(kind), streamText(kind, scope)));
    }
  }
};
