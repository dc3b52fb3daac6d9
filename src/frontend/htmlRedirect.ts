import type { NextFunction, Request, Response } from 'express';
import type { FrontendOptions } from './frontendOptions.js';

/**
 * The item fetches a browser may be sent from (spec 4.1, 4.3; Delta also does storages and files):
 * the kind, then the path segments after `/v1/{kind}/`: org, project, (schema for resources,) id.
 */
const ITEM_PATHS: Record<string, number> = { resources: 4, schemas: 3, storages: 3, files: 3 };

/** Delta's test: the `Accept` header names `text/html` itself, with no lowered quality (a `*\/*` alone is no browser). */
const wantsHtml = (accept: string | undefined): boolean =>
  (accept ?? '').split(',').some((range) => {
    const [type, ...params] = range.split(';').map((p) => p.trim().toLowerCase());
    const q = params.find((p) => p.startsWith('q='));
    return type === 'text/html' && (q === undefined || Number(q.slice(2)) === 1);
  });

/** Where the frontend shows an item: Delta's `{base}/{org}/{project}/resources/{id}`, with its `rev` or `tag`. */
const frontendAddress = (base: string, org: string, project: string, id: string, query: URLSearchParams): string => {
  const at = new URL(`${base}/${encodeURIComponent(org)}/${encodeURIComponent(project)}/resources/${encodeURIComponent(id)}`);
  for (const name of ['rev', 'tag']) {
    const value = query.get(name);
    if (value !== null) at.searchParams.set(name, value);
  }
  return at.toString();
};

/**
 * With `fusion.enable-redirects`, a browser's fetch of an item answers 303 to the frontend's page of it,
 * before authorization as in Delta (the page reads it with the caller's own token). Anything else,
 * and everything when the setting is off, goes on to the API untouched.
 */
export const htmlRedirect = (config: FrontendOptions | undefined, serviceBase: string) => (req: Request, res: Response, next: NextFunction) => {
  if (!config?.enableRedirects || (req.method !== 'GET' && req.method !== 'HEAD') || !wantsHtml(req.headers.accept)) return next();
  const url = new URL(req.originalUrl, 'http://placeholder');
  const segments = url.pathname.split('/').slice(1);
  const expected = ITEM_PATHS[segments[1] ?? ''];
  if (segments[0] !== 'v1' || expected === undefined || segments.length !== expected + 2 || segments.some((s) => s === '')) return next();
  let parts: string[];
  try {
    parts = segments.slice(2).map(decodeURIComponent);
  } catch {
    return next();
  }
  // `/v1/{kind}/{org}/{project}/events` is the project's event stream, not an item named `events`.
  if (parts[parts.length - 1] === 'events' && expected === 3) return next();
  res.vary('Accept').redirect(303, frontendAddress(config.base ?? `${serviceBase}/web`, parts[0]!, parts[1]!, parts[parts.length - 1]!, url.searchParams));
};
