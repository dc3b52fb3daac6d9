import express from 'express';
import type { RequestHandler } from 'express';
import { rejections } from '../domain/rejections.js';

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json$|^application\/ld\+json$/i;

/** Deeper JSON is refused: every step that reads a payload (expansion, RDF, links) stays far from the stack's limit. */
export const MAX_NESTING = 100;

/** How deep objects and arrays nest in a parsed JSON value (a scalar is 0), counted without recursion. */
export const nesting = (value: unknown): number => {
  let deepest = 0;
  const pending: [unknown, number][] = [[value, 0]];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const [v, depth] = next;
    if (v === null || typeof v !== 'object') continue;
    deepest = Math.max(deepest, depth + 1);
    if (deepest > MAX_NESTING) return deepest;
    for (const child of Array.isArray(v) ? v : Object.values(v)) if (child !== null && typeof child === 'object') pending.push([child, depth + 1]);
  }
  return deepest;
};

/** What a route reads from the request body; each kind has its own size limit. */
export type BodyKind = 'json' | 'none' | 'multipart' | 'sparql';

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
    let body: unknown;
    try {
      body = JSON.parse(raw.toString('utf8'));
    } catch (error) {
      return next(rejections.malformedContent(`The request content was malformed: ${(error as Error).message}`));
    }
    if (nesting(body) > MAX_NESTING)
      return next(
        rejections.malformedContent(
          `The request content nests objects and arrays more than ${MAX_NESTING} levels deep; flatten it (JSON-LD nodes can refer to each other by @id).`,
        ),
      );
    req.body = body;
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

/**
 * A `multipart/form-data` body (file uploads) is left streaming: the route reads it only once
 * authorized (its type checked then, see multipart.ts), and its service streams the file part to
 * its storage. Nothing is buffered, so no size limit applies here: storages enforce theirs.
 */
const multipartBody: RequestHandler[] = noBody;

/**
 * A SPARQL 1.1 Protocol body: the query itself (`application/sparql-query`), a form
 * (`application/x-www-form-urlencoded`, read as `URLSearchParams`: its names repeat), or an update
 * (`application/sparql-update`), kept as text for the endpoint to refuse; any other type is
 * noted for the route to refuse (415) once the caller is authorized.
 */
const sparqlBody = (limit: number): RequestHandler[] => [
  express.raw({ type: () => true, limit }),
  (req, _res, next) => {
    const raw = req.body as Buffer | undefined;
    if (!Buffer.isBuffer(raw) || raw.length === 0) {
      req.body = undefined;
      return next();
    }
    const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
    const text = raw.toString('utf8');
    if (type === 'application/sparql-query') req.body = { query: text };
    else if (type === 'application/sparql-update') req.body = { update: text };
    else if (type === 'application/x-www-form-urlencoded') req.body = { form: new URLSearchParams(text) };
    // Refused by the route, after authorization: a caller without permission learns nothing.
    else req.body = { unsupported: type || 'none' };
    next();
  },
];

/** The body readers of every kind, built once from the configured limits. */
export const bodyReaders = (limits: BodyLimits): Record<BodyKind, RequestHandler[]> => ({
  json: jsonBody(limits.json),
  none: noBody,
  multipart: multipartBody,
  sparql: sparqlBody(limits.json),
});
