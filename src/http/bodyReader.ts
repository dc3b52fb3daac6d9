import express from 'express';
import type { RequestHandler } from 'express';
import { rejections } from '../domain/rejections.js';

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json$|^application\/ld\+json$/i;

/**
 * Reads a request body of at most `limit` bytes and parses it as JSON, keeping `null`s (the source
 * is stored exactly as sent). `req.body` is undefined when there is no body; a body that is not
 * JSON-typed, not JSON, or too large is rejected before any service sees it.
 */
export const bodyReader = (limit: number): RequestHandler[] => [
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
