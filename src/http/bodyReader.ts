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
 * A whole body of at most `limit` bytes (413 beyond), read by `read` with its media type into
 * `req.body`; undefined when there is none. What `read` throws goes to the error middleware.
 */
const wholeBody = (limit: number, read: (raw: Buffer, mediaType: string) => unknown): RequestHandler[] => [
  express.raw({ type: () => true, limit }),
  (req, _res, next) => {
    const raw = req.body as Buffer | undefined;
    if (!Buffer.isBuffer(raw) || raw.length === 0) {
      req.body = undefined;
      return next();
    }
    try {
      req.body = read(raw, (req.headers['content-type'] ?? '').split(';')[0]!.trim());
    } catch (error) {
      return next(error);
    }
    next();
  },
];

/**
 * A JSON body of at most `limit` bytes, parsed keeping `null`s (the source is stored exactly as
 * sent). `req.body` is undefined when there is no body; a body that is not JSON-typed, not JSON,
 * or too large is rejected before any service sees it.
 */
const jsonBody = (limit: number): RequestHandler[] =>
  wholeBody(limit, (raw, type) => {
    if (!JSON_TYPE.test(type)) throw rejections.unsupportedContentType(type || 'none');
    let body: unknown;
    try {
      body = JSON.parse(raw.toString('utf8'));
    } catch (error) {
      throw rejections.malformedContent(`The request content was malformed: ${(error as Error).message}`);
    }
    if (nesting(body) > MAX_NESTING)
      throw rejections.malformedContent(
        `The request content nests objects and arrays more than ${MAX_NESTING} levels deep; flatten it (JSON-LD nodes can refer to each other by @id).`,
      );
    return body;
  });

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
const sparqlBody = (limit: number): RequestHandler[] =>
  wholeBody(limit, (raw, mediaType) => {
    const type = mediaType.toLowerCase();
    const text = raw.toString('utf8');
    // `text/plain`: how the Nexus sdk sends a view's query.
    if (type === 'application/sparql-query' || type === 'text/plain') return { query: text };
    if (type === 'application/sparql-update') return { update: text };
    if (type === 'application/x-www-form-urlencoded') return { form: new URLSearchParams(text) };
    // Refused by the route, after authorization: a caller without permission learns nothing.
    return { unsupported: type || 'none' };
  });

/** The body readers of every kind, built once from the configured limits. */
export const bodyReaders = (limits: BodyLimits): Record<BodyKind, RequestHandler[]> => ({
  json: jsonBody(limits.json),
  none: noBody,
  multipart: multipartBody,
  sparql: sparqlBody(limits.json),
});
