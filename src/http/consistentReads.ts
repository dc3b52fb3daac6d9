import type { Request, RequestHandler } from 'express';
import type { Follower, ReadBarrier } from '../projection/ReadBarrier.js';

/**
 * Before authentication (ACL decisions read the ACL states) and before any handler: notes the log
 * head as the request arrives and waits until what the request reads from has applied it. Writes
 * go through it too, so a command is evaluated against a state no older than the request.
 * Event streams read the log themselves; health and metrics must answer whatever the log does.
 */
export const consistentReads =
  (barrier: ReadBarrier, readsFrom: (req: Request) => readonly Follower[]): RequestHandler =>
  (req, _res, next) => {
    if (!req.path.startsWith('/v1/') || (req.method === 'GET' && req.path.endsWith('/events'))) return next();
    barrier
      .note()
      .then((head) => barrier.reach(head, readsFrom(req)))
      .then(() => next(), next);
  };
