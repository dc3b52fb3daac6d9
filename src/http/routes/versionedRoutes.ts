import type { Request, Response, Router } from 'express';
import type { KindQueries } from '../../catalogue/KindQueries.js';
import type { Selector } from '../../domain/resources/resourcePorts.js';
import type { ProjectService } from '../../domain/projects/ProjectService.js';
import type { Versioned } from '../../domain/versioned.js';
import type { Caller } from '../../kernel/Caller.js';
import type { ItemRef, ItemTarget } from '../../kernel/ItemRef.js';
import type { JsonObject } from '../../kernel/json.js';
import type { Addresses } from '../../kernel/Addresses.js';
import type { CheckedPermission as Permission } from '../../kernel/permissions.js';
import { listingRequest, nextAddress } from '../listingParams.js';
import { requiredRev, selector, single } from '../params.js';
import { FETCH, LISTING } from '../reads.js';
import type { ItemPath } from '../requestEdge.js';
import { pageBody } from '../render/listing.js';
import { projectEndpoints } from '../projectEndpoints.js';
import { itemOf, projectOf } from '../route.js';
import type { Context, Handler, Routes } from '../route.js';
import { sendJsonLd as send, tagsBody } from './itemResponses.js';
import { tagBody } from './tagBody.js';

/** What the lifecycle routes ask of a kind kept whole per revision (views, resolvers). */
export interface VersionedService<S> {
  create(item: ItemTarget, payload: unknown, caller: Caller): Promise<S>;
  update(item: ItemRef, rev: number, payload: unknown, caller: Caller): Promise<S>;
  tag(item: ItemRef, rev: number, tag: string, targetRev: number, caller: Caller): Promise<S>;
  deprecate(item: ItemRef, rev: number, caller: Caller): Promise<S>;
  fetch(item: ItemRef, selector?: Selector): S;
}

export interface VersionedRoutes<S extends Versioned<{ source: JsonObject }>> {
  /** The project's path (`/v1/{kind}/:org/:project`); an item's is `{path}/:id`. */
  path: string;
  kind: 'views' | 'resolvers';
  /** The item's noun in the summaries ("a view") and the types a create takes. */
  noun: string;
  types: string;
  writePermission: Permission;
  /** The item of `{path}/:id`, with the kind's own rules for its segment. */
  item: ItemPath;
  service: VersionedService<S>;
  listing: KindQueries<S>;
  projects: ProjectService;
  addresses: Addresses;
  body(s: S, at: Addresses): JsonObject;
  metadata(s: S, at: Addresses): JsonObject;
}

/**
 * The lifecycle routes of a kind Delta reads with `resources/read` and writes with its own
 * permission: the project's listing and create, an item's fetch, create-or-update, deprecation,
 * source and tags. Returns what the kind's other routes share: the write endpoint and how a written item answers.
 */
export const versionedRoutes = <S extends Versioned<{ source: JsonObject }>>(routes: Routes, router: Router, k: VersionedRoutes<S>) => {
  const { read, write } = projectEndpoints(k.writePermission);
  const { service, item, noun, addresses } = k;
  const S = `${k.path}/:id`;
  const created: ItemPath = { ...(item.rules ? { rules: item.rules } : {}) };
  const written = (res: Response, status: number) => (s: S) => send(res, k.metadata(s, addresses), status);
  const list = async (req: Request, res: Response, ctx: Context) => {
    k.projects.fetch(projectOf(req));
    const page = await k.listing.list(listingRequest(req, { kind: k.kind, project: projectOf(req) }, ctx.access));
    send(
      res,
      pageBody(page, (s) => k.metadata(s, addresses), page.next && nextAddress(addresses, req, page.next)),
    );
  };
  const fetched = (req: Request, ctx: Context) => service.fetch(itemOf(ctx), selector(req.query));

  routes.add(router, k.path, {
    get: read(`List ${k.kind} of a project`, list, LISTING),
    post: write(
      `Create ${noun} (${k.types})`,
      async (req, res, ctx) => written(res, 201)(await service.create(ctx.item!, req.body, ctx.caller)),
      'json',
      true,
      created,
    ),
  });
  const tag: Handler = async (req, res, ctx) => {
    const rev = requiredRev(req.query);
    const body = tagBody(req.body);
    written(res, 201)(await service.tag(itemOf(ctx), rev, body.tag, body.rev, ctx.caller));
  };
  routes.add(router, S, {
    get: read(`Fetch ${noun} (?rev or ?tag)`, (req, res, ctx) => send(res, k.body(fetched(req, ctx), addresses)), FETCH, item),
    put: write(
      `Create ${noun} with this id, or update it (?rev)`,
      async (req, res, ctx) => {
        if (single(req.query, 'rev') === undefined) return written(res, 201)(await service.create(itemOf(ctx), req.body, ctx.caller));
        written(res, 200)(await service.update(itemOf(ctx), requiredRev(req.query), req.body, ctx.caller));
      },
      'json',
      true,
      item,
    ),
    delete: write(
      `Deprecate ${noun} (?rev)`,
      async (req, res, ctx) => written(res, 200)(await service.deprecate(itemOf(ctx), requiredRev(req.query), ctx.caller)),
      'none',
      true,
      item,
    ),
    // @bbp/nexus-sdk 1.3 (`View.tag`, `Resolver.tag`) posts the tag to the item itself rather than to `/tags`.
    post: write(`Tag a revision of ${noun} (?rev), where @bbp/nexus-sdk 1.3 sends it`, tag, 'json', true, item),
  });
  routes.add(router, `${S}/source`, {
    get: read(`The ${noun.replace(/^an? /, '')} payload as sent`, (req, res, ctx) => send(res, fetched(req, ctx).value.source), FETCH, item),
  });
  routes.add(router, `${S}/tags`, {
    get: read(`Tags of ${noun}`, (req, res, ctx) => send(res, tagsBody(fetched(req, ctx).tags)), FETCH, item),
    post: write(`Tag a revision of ${noun} (?rev)`, tag, 'json', true, item),
  });
  return { read, write, written };
};
