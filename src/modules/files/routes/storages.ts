import type { Request, Response, Router } from 'express';
import { summarised } from './routeSummaries.js';
import type { StorageService } from '../storages/StorageService.js';
import type { FileService } from '../files/FileService.js';
import type { StorageState } from '../storages/Storage.js';
import type { KindQueries } from '../../../catalogue/KindQueries.js';
import type { Addresses } from '../../../kernel/Addresses.js';
import { context } from '../../../kernel/vocabulary.js';
import { listingRequest, nextAddress } from '../../../http/listingParams.js';
import type { Scope } from '../../../http/listingParams.js';
import { LINKS, LISTING } from '../../../http/reads.js';
import { requiredRev, selector, single } from '../../../http/params.js';
import { pageBody } from '../../../http/render/listing.js';
import { storageBody, storageMetadata } from '../render/storages.js';
import { itemOf, onOrg, onRoot, projectOf } from '../../../http/route.js';
import type { Context, Routes } from '../../../http/route.js';
import { kindEndpoints } from '../../../http/projectEndpoints.js';
import { tagBody } from '../../../http/routes/tagBody.js';
import { linksBody, paging, sendJsonLd as send, tagsBody } from '../../../http/routes/itemResponses.js';

interface Deps {
  storages: StorageService;
  files: FileService;
  queries: KindQueries<StorageState>;
  addresses: Addresses;
}

const T = '/v1/storages/:org/:project';
const S = `${T}/:id`;

/** Spec §5: storages are read with `storages/read` and written with `storages/write` on the project. */
const { read, write } = kindEndpoints('storages/read', 'storages/write', { id: 'id' });

/** Storages (spec §4.4): create, update, tag, deprecate, fetch, source, tags, statistics, listings. */
export const storageRoutes = (table: Routes, router: Router, { storages, files, queries, addresses }: Deps): void => {
  const routes = summarised(table);
  const written = (res: Response, status: number) => (s: StorageState) => send(res, storageMetadata(s, addresses), status);
  const list = (scope: (req: Request) => Scope) => async (req: Request, res: Response, ctx: Context) => {
    const page = await queries.list(listingRequest(req, scope(req), ctx.access));
    send(
      res,
      pageBody(page, (s) => storageMetadata(s, addresses), page.next && nextAddress(addresses, req, page.next)),
    );
  };

  // Spec §4.4: the organization and global scopes list only projects where the caller has `resources/read`.
  routes.add(router, '/v1/storages', {
    get: { guard: { permission: 'resources/read', within: onRoot }, reads: LISTING, body: 'none', handle: list(() => ({ kind: 'storages' })) },
  });
  routes.add(router, '/v1/storages/:org', {
    get: {
      guard: { permission: 'resources/read', within: onOrg },
      reads: LISTING,
      body: 'none',
      handle: list((req) => ({ kind: 'storages', org: req.params['org'] as string })),
    },
  });
  routes.add(router, T, {
    get: read(
      list((req) => ({ kind: 'storages', project: projectOf(req) })),
      LISTING,
      false,
    ),
    post: write(
      async (req, res, ctx) => {
        written(res, 201)(await storages.create(ctx.item!, req.body, ctx.caller));
      },
      'json',
      {},
    ),
  });
  routes.add(router, S, {
    get: read((req, res, ctx) => send(res, storageBody(storages.fetch(itemOf(ctx), selector(req.query)), addresses))),
    put: write(async (req, res, ctx) => {
      if (single(req.query, 'rev') === undefined) return written(res, 201)(await storages.create(itemOf(ctx), req.body, ctx.caller));
      written(res, 200)(await storages.update(itemOf(ctx), requiredRev(req.query), req.body, ctx.caller));
    }),
    delete: write(async (req, res, ctx) => {
      written(res, 200)(await storages.deprecate(itemOf(ctx), requiredRev(req.query), ctx.caller));
    }, 'none'),
  });
  routes.add(router, `${S}/source`, {
    get: read((req, res, ctx) => send(res, storages.fetch(itemOf(ctx), selector(req.query)).value.source)),
  });
  routes.add(router, `${S}/tags`, {
    get: read((req, res, ctx) => {
      send(res, tagsBody(storages.fetch(itemOf(ctx), selector(req.query)).tags));
    }),
    post: write(async (req, res, ctx) => {
      const rev = requiredRev(req.query);
      const body = tagBody(req.body);
      written(res, 201)(await storages.tag(itemOf(ctx), rev, body.tag, body.rev, ctx.caller));
    }),
  });
  const links = async (req: Request, res: Response, ctx: Context, which: 'incoming' | 'outgoing') => {
    const s = storages.fetch(itemOf(ctx));
    const { from, size } = paging(req);
    const found = await queries[which](s.project, s.id, from, size);
    const results = found.items.map((l) => ({ '@id': l.id, paths: l.paths }));
    send(res, linksBody(req, addresses, found.total, results, from, size));
  };
  routes.add(router, `${S}/incoming`, { get: read((req, res, ctx) => links(req, res, ctx, 'incoming'), LINKS) });
  routes.add(router, `${S}/outgoing`, { get: read((req, res, ctx) => links(req, res, ctx, 'outgoing'), LINKS) });
  routes.add(router, `${S}/statistics`, {
    get: read(async (_req, res, ctx) => send(res, { '@context': context('storages'), ...(await files.statistics(itemOf(ctx))) })),
  });
};
