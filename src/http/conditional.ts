import type { Request, Response } from 'express';
import { rejections } from '../domain/rejections.js';

/**
 * Conditional fetches: a revision never changes, so its ETag (the log position of its last event
 * and the representation) and its Last-Modified are known before any work. `If-None-Match` or
 * `If-Modified-Since` that still hold answer 304 without a body; an `If-Match` that does not is 412.
 * Returns whether the response was answered.
 */
export const notModified = (req: Request, res: Response, position: number, variant: string, modified: string): boolean => {
  const etag = `"${position}-${variant.replace(/[^A-Za-z0-9.+/-]/g, '_')}"`;
  const lastModified = new Date(modified).toUTCString();
  res.setHeader('ETag', etag);
  res.setHeader('Last-Modified', lastModified);
  const ifMatch = req.get('if-match');
  if (ifMatch !== undefined && ifMatch.trim() !== '*' && !ifMatch.split(',').some((tag) => tag.trim() === etag)) throw rejections.preconditionFailed(etag);
  if (!unchanged(req, etag, lastModified)) return false;
  res.status(304).end();
  return true;
};

/** Weak comparison (RFC 9110 §8.8.3.2): `W/"x"` and `"x"` name the same representation here. */
const opaque = (tag: string) => tag.trim().replace(/^W\//, '');

/**
 * RFC 9110 §13.2.2 for GET and HEAD: `If-None-Match` decides when present, else `If-Modified-Since`.
 * The request's `Cache-Control: no-cache` is addressed to caches, not to the origin server (§5.2.1.4):
 * WHATWG `fetch` adds it to every conditional request it makes itself, and those must still get 304.
 * (Express's `req.fresh` reads it as "never fresh", which is a cache's rule.)
 */
const unchanged = (req: Request, etag: string, lastModified: string): boolean => {
  if (req.method !== 'GET' && req.method !== 'HEAD') return false;
  const ifNoneMatch = req.get('if-none-match');
  if (ifNoneMatch !== undefined) return ifNoneMatch.trim() === '*' || ifNoneMatch.split(',').some((tag) => opaque(tag) === opaque(etag));
  const ifModifiedSince = Date.parse(req.get('if-modified-since') ?? '');
  return !Number.isNaN(ifModifiedSince) && Date.parse(lastModified) <= ifModifiedSince;
};
