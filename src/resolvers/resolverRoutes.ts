import type { Request, Response, Router } from 'express';
import type { KindQueries } from '../catalogue/KindQueries.js';
import type { Addresses } from '../kernel/Addresses.js';
import type { ProjectService } from '../domain/projects/ProjectService.js';
import { bool, selector } from '../http/params.js';
import { itemOf, segment } from '../http/route.js';
import type { Context, Routes } from '../http/route.js';
import { sendJsonLd as send } from '../http/routes/itemResponses.js';
import type { ItemReader } from '../modules/Platform.js';
import type { ResolverState } from './Resolver.js';
import type { ResolverService } from './ResolverService.js';
import type { Resolution, ResolutionOutcome } from './Resolution.js';
import { describeRef, resolutionReport, resolverReport } from './Resolution.js';
import { resolverBody, resolverMetadata } from './resolverJson.js';
import { resolverRejections } from './resolverRejections.js';
import { FETCH } from '../http/reads.js';
import type { ItemPath } from '../http/requestEdge.js';
import { versionedRoutes } from '../http/routes/versionedRoutes.js';

interface Deps {
  resolvers: ResolverService;
  resolution: Resolution;
  queries: KindQueries<ResolverState>;
  projects: ProjectService;
  items: ItemReader;
  addresses: Addresses;
}

const T = '/v1/resolvers/:org/:project';

/** The resolver of `{T}/:id`. */
const ITEM: ItemPath = { id: 'id', rules: { invalidId: resolverRejections.invalidId } };
/** The item resolved: its own rejection of a segment that is no IRI. */
const RESOLVED: ItemPath = { id: 'resourceId', rules: { invalidId: resolverRejections.invalidResolvedResourceId } };

/** Resolvers (Delta's resolvers API): lifecycle, listing, and resolution through every resolver (`_`) or one. */
export const resolverRoutes = (routes: Routes, router: Router, { resolvers, resolution, queries, projects, items, addresses }: Deps): void => {
  // Delta: resolvers are read with `resources/read` and written with `resolvers/write` on the project.
  const { read } = versionedRoutes(routes, router, {
    path: T,
    kind: 'resolvers',
    noun: 'a resolver',
    types: 'InProject, CrossProject',
    writePermission: 'resolvers/write',
    item: ITEM,
    service: resolvers,
    listing: queries,
    projects,
    addresses,
    body: resolverBody,
    metadata: resolverMetadata,
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
