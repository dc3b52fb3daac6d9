import type { RequestHandler } from 'express';
import compression from 'compression';
import { constants as zlibConstants } from 'node:zlib';

/** Methods whose answers are an item's metadata or an error, never large enough to compress. */
const METADATA_ANSWERS = new Set(['PUT', 'PATCH', 'DELETE']);

/**
 * JSON answers from 1 KiB compressed (gzip or br as the client accepts); event streams never
 * buffered, file downloads never touched (their byte ranges address the stored bytes).
 */
export const compressedAnswers = (): RequestHandler => {
  const compress = compression({
    // From 1 KiB (a page of a listing is 10-20 KiB of JSON): below, the gain is under a packet.
    threshold: 1024,
    // Brotli at its default quality (11) costs more than the rest of a request: a fast level keeps most of the gain.
    brotli: { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 4 } },
    filter: (req, res) =>
      !String(res.getHeader('Content-Type') ?? '').startsWith('text/event-stream') &&
      res.getHeader('Accept-Ranges') === undefined &&
      compression.filter(req, res),
  });
  // The middleware wraps every response (its headers, Vary, each write): skipped where it could never
  // compress, for a client that accepts no encoding and for writes, whose answers are metadata.
  return (req, res, next) => (req.headers['accept-encoding'] === undefined || METADATA_ANSWERS.has(req.method) ? next() : compress(req, res, next));
};
