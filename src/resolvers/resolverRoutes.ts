import type { Request, Response, Router } from 'express';
import type { KindQueries } from '../catalogue/KindQueries.js';
import type { Addresses } from '../kernel/Addresses.js';
import type { ProjectService } from '../domain/projects/ProjectService.js';
import { listingRequest, nextAddress } from '../http/listingParams.js';
import { bool, requiredRev, selector, single } from '../http/params.js';
import { pageBody } from '../http/render/listing.js';
import { itemOf, projectOf, segment } from '../http/route.js';
import { projectEndpoints } from '../http/projectEndpoints.js';
import type { Context, Handler, Routes } from '../http/route.js';
import { tagBody } from '../http/routes/tagBody.js';
import { sendJsonLd as send, tagsBody } from '../http/routes/itemResponses.js';
import type { ItemReader } from '../modules/Platform.js';
import type { ResolverState } from './Resolver.js';
import type { ResolverService } from './ResolverService.js';
import type { Resolution, ResolutionOutcome } from './Resolution.js';
import { describeRef, resolutionReport, resolverReport } from './Resolution.js';
import { resolverBody, resolverMetadata } from './resolverJson.js';
import { resolverRejections } from './resolverRejections.js';
import { FETCH, LISTING } from '../http/reads.js';
import type { ItemPath } from '../http/requestEdge.js';

interface Deps {
  resolvers: ResolverService;
  resolution: Resolution;
  queries: KindQueries<ResolverState>;
  projects: ProjectService;
  items: ItemReader;
  addresses: Addresses;
}

const T = '/v1/resolvers/:org/:project';
const S = `${T}/:id`;

/** Delta: resolvers are read with `resources/read` and written with `resolvers/write` on the project. */
const { read, write } = projectEndpoints('resolvers/write');
/** The resolver of `S`, and its POST's (none: the payload's `@id` or a new one). */
const ITEM: ItemPath = { id: 'id', rules: { invalidId: resolverRejections.invalidResolverId } };
const NEW: ItemPath = { rules: ITEM.rules! };
/** The item resolved: its own rejection of a segment that is no IRI. */
const RESOLVED: ItemPath = { id: 'resourceId', rules: { invalidId: resolverRejections.invalidResolvedResourceId } };

/** Resolvers (Delta's resolvers API): lifecycle, listing, and resolution through every resolver (`_`) or one. */
export const resolverRoutes = (routes: Routes, router: Router, { resolvers, resolution, queries, projects, items, addresses }: Deps): void => {
  const written = (res: Response, status: number) => (s: ResolverState) => send(res, resolverMetadata(s, addresses), status);
  const list = async (req: Request, res: Response, ctx: Context) => {
    projects.fetch(projectOf(req));
    const page = await queries.list(listingRequest(req, { kind: 'resolvers', project: projectOf(req) }, ctx.access));
    send(
      res,
      pageBody(page, (s) => resolverMetadata(s, addresses), page.next && nextAddress(addresses, req, page.next)),
    );
  };

  routes.add(router, T, {
    get: read('List resolvers of a project', list, LISTING),
    post: write(
      'Create a resolver (InProject, CrossProject)',
      async (req, res, ctx) => {
        written(res, 201)(await resolvers.create(ctx.item!, req.body, ctx.caller));
      },
      'json',
      true,
      NEW,
    ),
  });
  const tag: Handler = async (req, res, ctx) => {
    const rev = requiredRev(req.query);
    const body = tagBody(req.body);
    written(res, 201)(await resolvers.tag(itemOf(ctx), rev, body.tag, body.rev, ctx.caller));
  };
  routes.add(router, S, {
    get: read(
      'Fetch a resolver (?rev or ?tag)',
      (req, res, ctx) => send(res, resolverBody(resolvers.fetch(itemOf(ctx), selector(req.query)), addresses)),
      FETCH,
      ITEM,
    ),
    put: write(
      'Create a resolver with this id, or update it (?rev)',
      async (req, res, ctx) => {
        if (single(req.query, 'rev') === undefined) return written(res, 201)(await resolvers.create(itemOf(ctx), req.body, ctx.caller));
        written(res, 200)(await resolvers.update(itemOf(ctx), requiredRev(req.query), req.body, ctx.caller));
      },
      'json',
      true,
      ITEM,
    ),
    delete: write(
      'Deprecate a resolver (?rev)',
      async (req, res, ctx) => {
        written(res, 200)(await resolvers.deprecate(itemOf(ctx), requiredRev(req.query), ctx.caller));
      },
      'none',
      true,
      ITEM,
    ),
    // @bbp/nexus-sdk 1.3 (`Resolver.tag`) posts the tag to the resolver itself rather than to `/tags`.
    post: write('Tag a revision of a resolver (?rev), where @bbp/nexus-sdk 1.3 sends it', tag, 'json', true, ITEM),
  });
  routes.add(router, `${S}/source`, {
    get: read('The resolver payload as sent', (req, res, ctx) => send(res, resolvers.fetch(itemOf(ctx), selector(req.query)).value.source), FETCH, ITEM),
  });
  routes.add(router, `${S}/tags`, {
    get: read('Tags of a resolver', (req, res, ctx) => send(res, tagsBody(resolvers.fetch(itemOf(ctx), selector(req.query)).tags)), FETCH, ITEM),
    post: write('Tag a revision of a resolver (?rev)', tag, 'json', true, ITEM),
  });

  /** The resolved item, its source, or the report of the attempt (`showReport=true`). */
  const resolved = (source: boolean) => async (req: Request, res: Response, ctx: Context) => {
    const { project: ref, id: target } = itemOf(ctx);
    const sel = selector(req.query);
    const via = segment(req, 'resolver');
    const outcome: ResolutionOutcome =
      via === '_' ? await resolution.resolve(ref, target, sel, ctx.caller) : await resolution.resolveWith(resolvers.named(ref, via), target, sel, ctx.caller);
    const report = via === '_' ? resolutionReport(outcome.history) : resolverReport(outcome.history[0]!);
    if (!source && bool(req.query, 'showReport') === true) return send(res, report);
    if (!outcome.found) {
      if (via === '_') throw resolverRejections.invalidResolution(describeRef(target, sel), ref, report);
      throw resolverRejections.invalidResolverResolution(describeRef(target, sel), outcome.history[0]!.resolverId, ref, report);
    }
    const { kind, project: where } = outcome.found;
    if (source) return send(res, await items.source(kind, where, target, sel, bool(req.query, 'annotate') === true));
    send(res, await items.body(kind, where, target, sel));
  };
  routes.add(router, `${T}/:resolver/:resourceId`, {
    get: read('Resolve a resource through every resolver (_) or one (?rev, ?tag, ?showReport)', resolved(false), FETCH, RESOLVED),
  });
  routes.add(router, `${T}/:resolver/:resourceId/source`, {
    get: read('The payload of a resource found by resolution (?annotate)', resolved(true), FETCH, RESOLVED),
  });
};
