import { readFileSync } from 'node:fs';
import type { Router } from 'express';
import { assetPath } from '../util/assets.js';
import type { FrontendOptions } from './frontendOptions.js';
import { rejections } from '../domain/rejections.js';
import type { Routes } from '../http/route.js';
import { NOTHING } from '../http/reads.js';

interface Deps {
  /** The service's public base (`BASE_URL`): the API the page calls, and the frontend's own address below it. */
  base: string;
  frontend: FrontendOptions | undefined;
  /** The discovery address of an active realm, by label. */
  openIdConfig: (realm: string) => string | undefined;
}

/** The frontend's own files (no CDN, no build step): one page, one module, one style sheet. */
const FILES: Record<string, string> = { 'app.js': 'text/javascript', 'style.css': 'text/css' };
const file = (name: string) => readFileSync(assetPath('src', 'frontend', 'static', name));

/**
 * The page runs only its own script (the settings are a JSON data block, not a script) and may not be
 * framed; it calls the API and the realm's provider, wherever that is. No referrer: the callback's
 * address carries the one-time code.
 */
const PAGE_HEADERS = {
  'Content-Security-Policy':
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src *; form-action 'self'; frame-ancestors 'none'; base-uri 'none'; object-src 'none'",
  'Referrer-Policy': 'no-referrer',
  'X-Content-Type-Options': 'nosniff',
  'Cache-Control': 'no-cache',
};

/** JSON inside a `<script>` element: nothing in it may close the element. */
const inlineJson = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');

/**
 * The built-in web frontend at `/web/`: every path below it is the same page, which reads the
 * address and calls the API with the caller's own token; what it shows is what the caller may read.
 */
export const frontendRoutes = (routes: Routes, router: Router, deps: Deps): void => {
  const web = `${deps.base}/web`;
  const shell = file('index.html').toString('utf8');
  const page = () => {
    const realm = deps.frontend?.realm;
    const openIdConfig = realm === undefined ? undefined : deps.openIdConfig(realm);
    const settings = {
      api: deps.base,
      web,
      clientId: deps.frontend?.clientId ?? 'registry-web',
      ...(realm !== undefined && openIdConfig !== undefined ? { realm, openIdConfig } : {}),
    };
    return shell.replaceAll('{{web}}', new URL(web).pathname).replace('{{settings}}', inlineJson(settings));
  };
  const cache = new Map<string, Buffer>();
  routes.add(router, '/web/assets/:file', {
    get: {
      guard: { public: true },
      reads: NOTHING,
      body: 'none',
      summary: "The built-in frontend's script and style sheet",
      handle: (req, res) => {
        const name = req.params['file'] as string;
        const type = Object.hasOwn(FILES, name) ? FILES[name] : undefined;
        if (type === undefined) throw rejections.routeNotFound();
        let content = cache.get(name);
        if (!content) cache.set(name, (content = file(name)));
        res.status(200).type(type).set('Cache-Control', 'no-cache').send(content);
      },
    },
  });
  const endpoint = {
    get: {
      guard: { public: true as const },
      reads: NOTHING,
      body: 'none' as const,
      summary: 'The built-in web frontend (orgs, projects, resources, events), signing in through the configured realm',
      handle: (_req: unknown, res: import('express').Response) => void res.status(200).type('text/html').set(PAGE_HEADERS).send(page()),
    },
  };
  routes.add(router, '/web', endpoint);
  routes.add(router, '/web/{*path}', endpoint);
};
