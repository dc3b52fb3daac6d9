import express from 'express';
import type { RequestHandler } from 'express';
import { rejections } from '../domain/rejections.js';

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json$|^application\/ld\+json$/i;

/** What a route reads from the request body; each kind has its own size limit. */
export type BodyKind = 'json' | 'none';

export interface BodyLimits {
  /** Largest JSON body, in bytes (413 beyond). */
  json: number;
}

/**
 * A JSON body of at most `limit` bytes, parsed keeping `null`s (the source is stored exactly as
 * sent). `req.body` is undefined when there is no body; a body that is not JSON-typed, not JSON,
 * or too large is rejected before any service sees it.
 */
const jsonBody = (limit: number): RequestHandler[] => [
  express.raw({ type: () => true, limit }),
  (req, _res, next) => {
    const raw = req.body as Buffer | undefined;
    if (!Buffer.isBuffer(raw) || raw.length === 0) {
      req.body = undefined;
      return next();
    }
    const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim();
    if (!JSON_TYPE.test(type)) return next(rejections.unsupportedContentType(type || 'none'));
    try {
      req.body = JSON.parse(raw.toString('utf8'));
    } catch (error) {
      return next(rejections.malformedContent(`The request content was malformed: ${(error as Error).message}`));
    }
    next();
  },
];

/** Routes that take no body leave it unread: it is never parsed nor buffered. */
const noBody: RequestHandler[] = [
  (req, _res, next) => {
    req.body = undefined;
    next();
  },
];

/** The body readers of every kind, built once from the configured limits. */
export const bodyReaders = (limits: BodyLimits): Record<BodyKind, RequestHandler[]> => ({
  json: jsonBody(limits.json),
  none: noBody,
});
