import type { Request, Response, Router } from 'express';
import { summarised } from './routeSummaries.js';
import { pipeline } from 'node:stream/promises';
import type { FileRead, FileService } from '../files/FileService.js';
import type { FileState } from '../files/File.js';
import type { StorageService } from '../storages/StorageService.js';
import { rejections } from '../../../domain/rejections.js';
import { fileRejections } from '../files/fileRejections.js';
import { Rejection } from '../../../kernel/Rejection.js';
import type { KindQueries } from '../../../catalogue/KindQueries.js';
import type { Addresses } from '../../../kernel/Addresses.js';
import type { ItemRef } from '../../../kernel/ItemRef.js';
import { byteRange } from './byteRange.js';
import { contentDisposition } from '../../../http/contentDisposition.js';
import { listingRequest, nextAddress } from '../../../http/listingParams.js';
import type { Scope } from '../../../http/listingParams.js';
import { FETCH, LINKS, LISTING, STATES } from '../../../http/reads.js';
import type { Reads } from '../../../http/reads.js';
import { filePart } from './multipart.js';
import { requiredRev, selector, single } from '../../../http/params.js';
import { pageBody } from '../../../http/render/listing.js';
import { fileMetadata } from '../render/files.js';
import { itemOf, onOrg, onProject, onRoot, projectOf, segment } from '../../../http/route.js';
import type { ItemPath } from '../../../http/requestEdge.js';
import type { Context, Endpoint, Handler, PermissionOf, Routes } from '../../../http/route.js';
import { tagBody } from '../../../http/routes/tagBody.js';
import { linksBody, paging, sendJsonLd as send, tagsBody } from '../../../http/routes/itemResponses.js';

interface Deps {
  files: FileService;
  storages: StorageService;
  queries: KindQueries<FileState>;
  addresses: Addresses;
}

const F = '/v1/files/:org/:project';
const I = `${F}/:id`;
/** The file of `I` (a bad id: `InvalidResourceId`, as Delta's files say). */
const ITEM: ItemPath = { id: 'id' };

/** Representations of a file's metadata; any other `Accept` (any type, included) downloads the bytes. */
const METADATA_TYPES = /application\/(ld\+)?json|application\/n-triples/i;

/** Files (Delta's files API): uploads streamed to a storage, downloads with ranges, metadata, tags, deprecation, listings, links. */
export const fileRoutes = (table: Routes, router: Router, { files, storages, queries, addresses }: Deps): void => {
  const routes = summarised(table);
  const id = (req: Request) => segment(req, 'id');
  const storageParam = (req: Request) => single(req.query, 'storage');
  // A file or storage that cannot be read (unknown, bad id) names no permission: the handler refuses the request itself.
  const quietly = async <T>(f: () => T | Promise<T>): Promise<T | undefined> => {
    try {
      return await f();
    } catch (error) {
      if (error instanceof Rejection) return undefined;
      throw error;
    }
  };
  // The file the guard read for its storage's permission: the handler hands it to the service, which does not read it again.
  const readByGuard = new WeakMap<Request, FileState>();
  // A file's storage names the permissions on its files; the declared ones stand when there is nothing to read them from.
  const fileStorage = (req: Request) =>
    quietly(async () => {
      const file = await files.find(projectOf(req), id(req));
      if (file) readByGuard.set(req, file);
      return file && storages.fetch({ project: file.project, id: file.value.storage.id }).value.fields;
    });
  /** The route's file (resolved at the edge), with its state when the guard read that same file. */
  const fileOf = (req: Request, ctx: Context): ItemRef | FileRead => {
    const item = itemOf(ctx);
    const read = readByGuard.get(req);
    return read && read.id === item.id && read.project === item.project ? { ...item, current: read } : item;
  };
  const readPermission: PermissionOf = async (req) => (await fileStorage(req))?.readPermission;
  const writePermission: PermissionOf = async (req) => (await fileStorage(req))?.writePermission;
  const uploadPermission: PermissionOf = (req) =>
    quietly(async () => {
      const named = storageParam(req);
      if (named === undefined && req.params['id'] !== undefined && single(req.query, 'rev') !== undefined) return (await fileStorage(req))?.writePermission;
      return storages.forFiles(projectOf(req), named).value.fields.writePermission;
    });

  // A file's own routes read its storage's permission and name it (`ITEM`); the project's list and upload name none.
  const read = (handle: Handler, own = true, reads: Reads = FETCH): Endpoint => ({
    guard: { permission: 'resources/read', on: onProject, ...(own ? { resolve: readPermission } : {}) },
    reads,
    body: 'none',
    handle,
    ...(own ? { item: ITEM } : {}),
  });
  const write = (handle: Handler, body: 'json' | 'none' | 'multipart', resolve: PermissionOf, item: ItemPath = ITEM): Endpoint => ({
    guard: { permission: 'files/write', on: onProject, resolve },
    reads: STATES,
    body,
    handle,
    indexing: true,
    item,
  });
  const written = (res: Response, status: number) => (f: FileState) => send(res, fileMetadata(f, addresses), status);
  const list = (scope: (req: Request) => Scope) => async (req: Request, res: Response, ctx: Context) => {
    const page = await queries.list(listingRequest(req, scope(req), ctx.access));
    send(
      res,
      pageBody(page, (f) => fileMetadata(f, addresses), page.next && nextAddress(addresses, req, page.next)),
    );
  };
  const create = async (req: Request, res: Response, ctx: Context) => {
    written(res, 201)(await files.create(ctx.item!, storageParam(req), filePart(req), ctx.caller));
  };
  const links = (req: Request, found: { total: number; items: { id: string; paths: string[] }[] }, from: number, size: number) =>
    linksBody(
      req,
      addresses,
      found.total,
      found.items.map((l) => ({ '@id': l.id, paths: l.paths })),
      from,
      size,
    );

  /** The bytes, whole or the one range asked for. */
  const download = async (req: Request, res: Response, file: FileState) => {
    const { bytes, mediaType, filename } = file.value.attributes;
    const range = byteRange(req.get('range'), bytes);
    if (range === 'unsatisfiable') {
      res.setHeader('Content-Range', `bytes */${bytes}`);
      throw fileRejections.rangeNotSatisfiable(bytes);
    }
    const stream = await files.content(file, range);
    res.status(range ? 206 : 200);
    res.setHeader('Content-Type', mediaType.startsWith('text/') && !/charset=/i.test(mediaType) ? `${mediaType}; charset=UTF-8` : mediaType);
    res.setHeader('Content-Length', String(range ? range.end - range.start + 1 : bytes));
    res.setHeader('Content-Disposition', contentDisposition(filename));
    res.setHeader('Accept-Ranges', 'bytes');
    // The bytes as stored: never compressed on the way (Content-Length and ranges count stored bytes).
    res.setHeader('Cache-Control', 'no-transform');
    if (range) res.setHeader('Content-Range', `bytes ${range.start}-${range.end}/${bytes}`);
    try {
      await pipeline(stream, res);
    } catch {
      // The client went away, or the storage failed mid-way: the response cannot be anything but cut.
      stream.destroy();
      res.destroy();
    }
  };

  routes.add(router, '/v1/files', {
    get: { guard: { permission: 'resources/read', within: onRoot }, reads: LISTING, body: 'none', handle: list(() => ({ kind: 'files' })) },
  });
  routes.add(router, '/v1/files/:org', {
    get: {
      guard: { permission: 'resources/read', within: onOrg },
      reads: LISTING,
      body: 'none',
      handle: list((req) => ({ kind: 'files', org: req.params['org'] as string })),
    },
  });
  routes.add(router, F, {
    get: read(
      list((req) => ({ kind: 'files', project: projectOf(req) })),
      false,
      LISTING,
    ),
    post: write(create, 'multipart', uploadPermission, {}),
  });
  routes.add(router, I, {
    get: read(async (req, res, ctx) => {
      const file = await files.fetch(fileOf(req, ctx), selector(req.query));
      res.vary('Accept');
      if (METADATA_TYPES.test(req.get('accept') ?? '')) return send(res, fileMetadata(file, addresses));
      await download(req, res, file);
    }),
    put: write(
      async (req, res, ctx) => {
        if (single(req.query, 'rev') === undefined) return create(req, res, ctx);
        written(res, 200)(await files.update(fileOf(req, ctx), requiredRev(req.query), storageParam(req), filePart(req), ctx.caller));
      },
      'multipart',
      uploadPermission,
    ),
    delete: write(
      async (req, res, ctx) => {
        written(res, 200)(await files.deprecate(fileOf(req, ctx), requiredRev(req.query), ctx.caller));
      },
      'none',
      writePermission,
    ),
  });
  routes.add(router, `${I}/tags`, {
    get: read(async (req, res, ctx) => {
      send(res, tagsBody((await files.fetch(fileOf(req, ctx), selector(req.query))).tags));
    }),
    post: write(
      async (req, res, ctx) => {
        const rev = requiredRev(req.query);
        const body = tagBody(req.body);
        written(res, 201)(await files.tag(fileOf(req, ctx), rev, body.tag, body.rev, ctx.caller));
      },
      'json',
      writePermission,
    ),
  });
  routes.add(router, `${I}/tags/:tag`, {
    delete: write(
      async (req, res, ctx) => {
        written(res, 200)(await files.deleteTag(fileOf(req, ctx), requiredRev(req.query), segment(req, 'tag'), ctx.caller));
      },
      'none',
      writePermission,
    ),
  });
  routes.add(router, `${I}/undeprecate`, {
    put: write(
      async (req, res, ctx) => {
        written(res, 200)(await files.undeprecate(fileOf(req, ctx), requiredRev(req.query), ctx.caller));
      },
      'none',
      writePermission,
    ),
  });
  routes.add(router, `${I}/incoming`, {
    get: read(
      async (req, res, ctx) => {
        const file = await files.fetch(fileOf(req, ctx));
        const { from, size } = paging(req);
        send(res, links(req, await queries.incoming(file.project, file.id, from, size), from, size));
      },
      true,
      LINKS,
    ),
  });
  routes.add(router, `${I}/outgoing`, {
    get: read(
      async (req, res, ctx) => {
        const file = await files.fetch(fileOf(req, ctx));
        const { from, size } = paging(req);
        send(res, links(req, await queries.outgoing(file.project, file.id, from, size), from, size));
      },
      true,
      LINKS,
    ),
  });
};
