import type { RequestHandler, Response } from 'express';
import type { Caller } from '../kernel/Caller.js';

/** Turns a request's credentials into a caller. */
export type Authenticator = (credentials: { authorization?: string; accessToken?: string }) => Promise<Caller>;

/**
 * Resolves the caller once, before the router: routes and services never read credentials.
 * Browsers' EventSource cannot set headers, so event streams also take `?access_token=`.
 */
export const authenticate =
  (authenticator: Authenticator): RequestHandler =>
  (req, res, next) => {
    const token = req.path.endsWith('/events') && typeof req.query['access_token'] === 'string' ? req.query['access_token'] : undefined;
    const authorization = req.headers.authorization;
    authenticator({ ...(authorization !== undefined ? { authorization } : {}), ...(token !== undefined ? { accessToken: token } : {}) })
      .then((caller) => {
        res.locals['caller'] = caller;
        next();
      })
      .catch(next);
  };

export const callerOf = (res: Response): Caller => {
  const caller = res.locals['caller'] as Caller | undefined;
  if (!caller) throw new Error('the caller is resolved before the router; this request skipped it');
  return caller;
};
