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
  res.setHeader('ETag', etag);
  res.setHeader('Last-Modified', new Date(modified).toUTCString());
  const ifMatch = req.get('if-match');
  if (ifMatch !== undefined && ifMatch.trim() !== '*' && !ifMatch.split(',').some((tag) => tag.trim() === etag)) throw rejections.preconditionFailed(etag);
  if (!req.fresh) return false;
  res.status(304).end();
  return true;
};
