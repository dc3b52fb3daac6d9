import type { NextFunction, Request, Response, Router } from 'express';
import { projectRef } from '../domain/labels.js';
import type { ProjectRef } from '../domain/labels.js';
import { rejections } from '../domain/rejections.js';

export type Handler = (req: Request, res: Response) => Promise<void> | void;
type Method = 'get' | 'put' | 'post' | 'delete' | 'head';

/**
 * Registers the handlers of one path; any other method on it is 405 with an `Allow` header.
 * Handlers may be async: their rejections reach the error middleware.
 */
export const route = (router: Router, path: string, handlers: Partial<Record<Method, Handler>>): void => {
  const r = router.route(path);
  for (const [method, handler] of Object.entries(handlers) as [Method, Handler][]) {
    r[method]((req: Request, res: Response, next: NextFunction) => {
      Promise.resolve()
        .then(() => handler(req, res))
        .catch(next);
    });
  }
  const allowed = Object.keys(handlers).map((m) => m.toUpperCase());
  if (allowed.includes('GET') && !allowed.includes('HEAD')) allowed.push('HEAD');
  r.all((_req: Request, _res: Response, next: NextFunction) => next(rejections.methodNotAllowed(allowed)));
};

/**
 * A path parameter decoded from the raw request path: `+` is a space there (clients send spaces as
 * `+` or `%20`), while `%2B` stays a plus. Express' own decoding cannot tell the two apart.
 */
export const segment = (req: Request, name: string): string => {
  const routePath = String((req.route as { path: string }).path).split('/');
  const index = routePath.indexOf(`:${name}`);
  const raw = (req.originalUrl.split('?')[0] ?? '').split('/')[index];
  if (raw === undefined) return req.params[name] as string;
  try {
    return decodeURIComponent(raw.replace(/\+/g, '%20'));
  } catch {
    throw rejections.invalidResourceId(raw);
  }
};

/** The project a path names with its `:org` and `:project` parameters. */
export const projectOf = (req: Request): ProjectRef => projectRef(req.params['org'] as string, req.params['project'] as string);
