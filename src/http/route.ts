import express from 'express';
import type { NextFunction, Request, RequestHandler, Response, Router } from 'express';
import type { AclCheck, AclPath, ProjectAccess } from '../kernel/AclCheck.js';
import type { Caller } from '../kernel/Caller.js';
import type { CheckedPermission as Permission } from '../kernel/permissions.js';
import { projectRef } from '../kernel/labels.js';
import type { ProjectRef } from '../kernel/labels.js';
import { rejections } from '../domain/rejections.js';
import { Rejection } from '../kernel/Rejection.js';
import type { BodyKind } from './bodyReader.js';
import { callerOf } from './authenticate.js';
import { callerKey } from './CallerConcurrency.js';
import type { CallerConcurrency } from './CallerConcurrency.js';
import { noteReads } from './consistentReads.js';
import { readsOf } from './reads.js';
import type { Reads } from './reads.js';
import { parseIndexing } from './requestEdge.js';
import type { ItemPath, RequestEdge } from './requestEdge.js';
import type { Indexing } from '../domain/EventWriter.js';
import type { ItemRef, ItemTarget } from '../kernel/ItemRef.js';

/**
 * What a handler is given besides the request: the caller, what it may read of a multi-project
 * scope, and what the route declared to be parsed at the edge: the item its path names (resolved
 * against the project's mappings) and the write's `indexing`.
 */
export interface Context {
  caller: Caller;
  access: ProjectAccess;
  item?: ItemTarget;
  indexing: Indexing;
}

/** The item of a route that declared an `item` with an `id`. */
export const itemOf = (ctx: Context): ItemRef => {
  if (ctx.item?.id === undefined) throw new Error('a handler read an item its route does not declare');
  return ctx.item as ItemRef;
};

export type Handler = (req: Request, res: Response, ctx: Context) => Promise<void> | void;
export type Method = 'get' | 'put' | 'post' | 'patch' | 'delete' | 'head';

/** The ACL path a route is checked on, derived from its path parameters, never from the body. */
export type AclTarget = (req: Request) => AclPath;
export const onRoot: AclTarget = () => '/';
export const onOrg: AclTarget = (req) => `/${param(req, 'org')}`;
export const onProject: AclTarget = (req) => `/${param(req, 'org')}/${param(req, 'project')}`;

/**
 * How a route is authorized:
 * - `on`: the caller must hold the permission on that path (or an ancestor), else 403 (only
 *   `when` the request asks for it, where the permission depends on a parameter); with `or`,
 *   either permission will do (the SPARQL endpoint: `resources/read` or `views/query`);
 * - `within`: a read across projects below that path: the handler gets the projects where the
 *   caller holds the permission (`ctx.access`) and filters inside its query;
 * - `public`: no permission at all, said explicitly.
 */
export type Guard =
  | { permission: Permission | Upsert; on: AclTarget; when?: (req: Request) => boolean; resolve?: PermissionOf; or?: Permission }
  | { permission: Permission; within: AclTarget }
  | { public: true };

/**
 * Where the permission is the item's own (files: their storage's `readPermission` or
 * `writePermission`), what the request needs; undefined keeps the declared permission.
 */
export type PermissionOf = (req: Request) => string | undefined | Promise<string | undefined>;

/** A `PUT` that creates without `rev` and updates with it needs a different permission for each. */
export interface Upsert {
  create: Permission;
  update: Permission;
}

export interface Endpoint {
  guard: Guard;
  /** The read models the request waits for before it is served (consistentReads): see reads.ts. */
  reads: Reads;
  body: BodyKind;
  handle: Handler;
  /** Which path parameters name an item: resolved at the edge into `ctx.item` (aliases, CURIEs, `_` as no schema). */
  item?: ItemPath;
  /** A write taking `?indexing=sync|async`: parsed at the edge into `ctx.indexing`, and the write runs under it. */
  indexing?: true;
  /** What the route does, for the OpenAPI description: a capability's routes must say it (the core's may use its table, `ROUTE_SUMMARIES`). */
  summary?: string;
  /**
   * CPU- or memory-heavy work (a search, a SPARQL query): counted against the caller's share of
   * those in flight (CallerConcurrency); a function decides from the request (its body read) when
   * only some requests of a route are (an archive's download, a multi-fetch of many entries).
   */
  costly?: true | ((req: Request) => boolean);
}

/** A route as declared, for the test that checks every route names its permission. */
export interface DeclaredRoute {
  method: Method;
  path: string;
  guard: Guard;
  reads: Reads;
  body: BodyKind;
  summary?: string;
}

const ALL: ProjectAccess = { mode: 'all' };

/**
 * The route table: every route says what it needs (permission, ACL path, what it reads, body kind)
 * and this is the only place that checks it, before the handler runs. Handlers may be async: their rejections
 * reach the error middleware. Any other method on a path is 405 with an `Allow` header.
 */
export class Routes {
  private readonly declared: DeclaredRoute[] = [];
  /**
   * The same routes again, in the same order, each only noting what it reads and leaving at once:
   * Express' own matching tells the read barrier, which runs before authentication, the route a
   * request will take (`only` routes and 405s included): no URL pattern of its own beside the table.
   */
  private readonly lookup = express.Router();

  constructor(
    private readonly acl: AclCheck,
    private readonly bodies: Record<BodyKind, RequestHandler[]>,
    /** The share of costly requests each caller may have in flight; none: unbounded. */
    private readonly costly?: CallerConcurrency,
    private readonly edge: RequestEdge = {},
  ) {}

  add(router: Router, path: string, endpoints: Partial<Record<Method, Endpoint>>): void {
    const r = router.route(path);
    const l = this.lookup.route(path);
    for (const [method, endpoint] of Object.entries(endpoints) as [Method, Endpoint][]) {
      this.declare(method, path, endpoint);
      r[method](...this.bodies[endpoint.body], this.run(endpoint));
      l[method](noting(endpoint.reads));
    }
    l.all(leave);
    const allowed = Object.keys(endpoints).map((m) => m.toUpperCase());
    if (allowed.includes('GET') && !allowed.includes('HEAD')) allowed.push('HEAD');
    r.all((_req: Request, _res: Response, next: NextFunction) => next(rejections.methodNotAllowed(allowed)));
  }

  /**
   * A route on a path that other routes also match for other methods (`/v1/resources/{org}/events`
   * reads as a project named `events` too): only this method is taken, others fall through.
   */
  only(router: Router, method: 'get' | 'head', path: string, endpoint: Endpoint): void {
    this.declare(method, path, endpoint);
    router[method](path, ...this.bodies[endpoint.body], this.run(endpoint));
    this.lookup[method](path, noting(endpoint.reads));
  }

  /** Notes on each request what the route it will take reads, for consistentReads after it; mount it before that. */
  readsLookup(): RequestHandler {
    return this.lookup;
  }

  /** Every route added so far. */
  routes(): readonly DeclaredRoute[] {
    return this.declared;
  }

  private declare(method: Method, path: string, endpoint: Endpoint): void {
    const { guard, reads, body, summary } = endpoint;
    this.declared.push({ method, path, guard, reads, body, ...(summary ? { summary } : {}) });
  }

  private run(endpoint: Endpoint) {
    return (req: Request, res: Response, next: NextFunction) => {
      Promise.resolve()
        .then(async () => {
          const caller = callerOf(res);
          const access = await this.authorize(endpoint.guard, caller, req);
          const indexing = endpoint.indexing ? parseIndexing(req.query) : 'sync';
          const item = endpoint.item && (await this.item(req, endpoint.item));
          const ctx: Context = { caller, access, indexing, ...(item ? { item } : {}) };
          const run = () => Promise.resolve(endpoint.handle(req, res, ctx));
          const handle = () => (this.edge.indexing && endpoint.indexing ? this.edge.indexing(indexing, run) : run());
          const costly = endpoint.costly === true || (endpoint.costly !== undefined && endpoint.costly(req));
          await (costly && this.costly ? this.costly.run(callerKey(caller, req), handle) : handle());
        })
        .catch(next);
    };
  }

  private async item(req: Request, path: ItemPath): Promise<ItemTarget> {
    if (!this.edge.items) throw new Error('a route declares an item but the route table resolves none');
    return this.edge.items(
      projectOf(req),
      {
        ...(path.schema === undefined ? {} : { schema: segment(req, path.schema) }),
        ...(path.id === undefined ? {} : { id: segment(req, path.id) }),
      },
      path.rules,
    );
  }

  private async authorize(guard: Guard, caller: Caller, req: Request): Promise<ProjectAccess> {
    if ('on' in guard && (guard.when?.(req) ?? true)) {
      const declared =
        typeof guard.permission === 'string' ? guard.permission : req.query['rev'] === undefined ? guard.permission.create : guard.permission.update;
      const permission = ((await guard.resolve?.(req)) ?? declared) as Permission;
      const path = guard.on(req);
      if (guard.or === undefined) await this.acl.authorize(caller, permission, path);
      else
        await this.acl.authorize(caller, permission, path).catch((error: unknown) => {
          if (error instanceof Rejection && error.type === 'AuthorizationFailed') return this.acl.authorize(caller, guard.or!, path);
          throw error;
        });
    }
    if ('within' in guard) return this.acl.access(caller, guard.permission, guard.within(req));
    return ALL;
  }
}

/** Leaves the lookup router at its first matching route, whatever else matches after it. */
const noting =
  (reads: Reads): RequestHandler =>
  (req, res, next) => {
    noteReads(res, readsOf(reads, req));
    next('router');
  };
const leave: RequestHandler = (_req, _res, next) => next('router');

const param = (req: Request, name: string): string => {
  const value = req.params[name];
  if (typeof value !== 'string') throw new Error(`route without a ':${name}' parameter used an ACL path that needs it`);
  return value;
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
