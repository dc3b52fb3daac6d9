import type { Request, Response, Router } from 'express';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Addresses } from '../../kernel/Addresses.js';
import { bool } from '../../http/params.js';
import { itemOf } from '../../http/route.js';
import type { ItemPath } from '../../http/requestEdge.js';
import { archiveRejections } from './archiveRejections.js';
import type { Context, Endpoint, Handler, Routes } from '../../http/route.js';
import { projectEndpoint } from '../../http/projectEndpoints.js';
import { sendJsonLd as send } from '../../http/routes/itemResponses.js';
import { contentDisposition } from '../../http/contentDisposition.js';
import type { ArchiveService } from './ArchiveService.js';
import { archiveBody, archiveMetadata, archiveSelf } from './archiveJson.js';
import { tarStream, zipStream } from './archiveWriters.js';
import { callerKey } from '../../http/CallerConcurrency.js';
import { FETCH, STATES } from '../../http/reads.js';
import type { Reads } from '../../http/reads.js';

interface Deps {
  archives: ArchiveService;
  addresses: Addresses;
}

const T = '/v1/archives/:org/:project';

/** Delta 1.10: archives are made and read with `resources/read` on the project; each entry's own permission is checked at download. */
const endpoint = (
  summary: string,
  reads: Reads,
  handle: Handler,
  item: ItemPath,
  body: 'json' | 'none' = 'none',
  costly?: (req: Request) => boolean,
): Endpoint => projectEndpoint('resources/read', handle, { reads, body, summary, item, ...(costly ? { costly } : {}) });

/** The archive of `{T}/:id`, and a POST's (none: the payload's `@id` or a new one); a bad id is `InvalidArchiveId`. */
const RULES = { invalidId: archiveRejections.invalidArchiveId };
const ITEM: ItemPath = { id: 'id', rules: RULES };
const NEW: ItemPath = { rules: RULES };

/** The archive format an `Accept` header names: zip (as Delta 1.10 offers it), tar, or none (the JSON-LD description). */
const formatOf = (req: Request): 'zip' | 'tar' | undefined => {
  const accept = (req.get('accept') ?? '').toLowerCase();
  if (/application\/(x-)?zip/.test(accept)) return 'zip';
  if (accept.includes('application/x-tar')) return 'tar';
  return undefined;
};

const ARCHIVE_TYPES = ['*/*', 'application/*', 'application/zip', 'application/x-zip', 'application/x-tar'];

/**
 * Whether a creation asks for the archive itself, as Delta's `Zip.checkHeader` decides it: some
 * media range of `Accept` (none at all reads as `*\/*`) that a zip (or a tar, as served here)
 * matches, `*\/*` included.
 */
const asksForArchive = (req: Request): boolean =>
  (req.get('accept')?.trim() || '*/*').split(',').some((range) => {
    const [type, ...params] = range.split(';').map((p) => p.trim().toLowerCase());
    const q = params.find((p) => /^q\s*=/.test(p));
    return ARCHIVE_TYPES.includes(type ?? '') && !(q !== undefined && Number(q.split('=')[1]) === 0);
  });

/**
 * Archives. Creating (POST, or PUT with an id) answers as Delta's `emitCreatedArchive`: 303 to
 * where the archive is downloaded when the request asks for the archive itself, else 201 with its
 * metadata. A download (an `Accept` of zip or tar) counts against the caller's share of costly requests.
 */
export const archiveRoutes = (routes: Routes, router: Router, { archives, addresses }: Deps): void => {
  const created = async (req: Request, res: Response, ctx: Context) => {
    const record = await archives.create(ctx.item!, req.body, ctx.caller, callerKey(ctx.caller, req));
    const metadata = archiveMetadata(record, addresses, archives.secondsLeft(record));
    if (!asksForArchive(req)) return send(res, metadata, 201);
    res.location(archiveSelf(addresses, record));
    send(res, metadata, 303);
  };
  routes.add(router, T, {
    post: {
      ...endpoint('Create an archive: 201 with its metadata, or 303 to where it is downloaded when Accept asks for the archive', STATES, created, NEW, 'json'),
      indexing: true,
    },
  });
  const download = async (req: Request, res: Response, ctx: Context) => {
    const record = await archives.fetch(itemOf(ctx));
    const format = formatOf(req);
    if (format === undefined) return send(res, archiveBody(record, addresses, archives.secondsLeft(record)));
    // Every entry is checked before the status goes out: a refusal is still a typed error.
    const members = await archives.members(record, ctx.caller, bool(req.query, 'ignoreNotFound') === true);
    const name = `${record.id.split(/[/#]/).pop() || 'archive'}.${format}`;
    res.status(200);
    res.setHeader('Content-Type', format === 'zip' ? 'application/zip' : 'application/x-tar');
    res.setHeader('Content-Disposition', contentDisposition(name));
    // Already packed bytes: the compression middleware must leave them alone.
    res.setHeader('Cache-Control', 'no-store, no-transform');
    // Pulled chunk by chunk: a member's bytes are read only as fast as the client takes them.
    await pipeline(Readable.from(format === 'zip' ? zipStream(members) : tarStream(members)), res);
  };
  routes.add(router, `${T}/:id`, {
    get: endpoint(
      'Fetch an archive: its description, or the archive itself (Accept: application/zip or application/x-tar; ?ignoreNotFound)',
      FETCH,
      download,
      ITEM,
      'none',
      (req) => formatOf(req) !== undefined,
    ),
    put: {
      ...endpoint(
        'Create an archive with this id: 201 with its metadata, or 303 to where it is downloaded when Accept asks for the archive',
        STATES,
        created,
        ITEM,
        'json',
      ),
      indexing: true,
    },
  });
};
