import type { RequestHandler } from 'express';
import cors from 'cors';

/**
 * Browsers: any origin by default (credentials travel in the Authorization header, never cookies),
 * else the comma-separated origins configured. Only requests from a browser (with an Origin) need
 * the CORS headers.
 */
export const corsHeaders = (origins: string | undefined): RequestHandler => {
  const headers = cors({
    origin: origins === undefined || origins === '*' ? '*' : origins.split(',').map((o) => o.trim()),
    methods: ['GET', 'HEAD', 'PUT', 'POST', 'PATCH', 'DELETE'],
    allowedHeaders: ['Authorization', 'Content-Type', 'Accept', 'Last-Event-Id', 'If-None-Match', 'If-Match', 'If-Modified-Since', 'X-Request-Id'],
    exposedHeaders: ['Location', 'ETag', 'Last-Modified', 'Last-Event-Id', 'X-Request-Id', 'Allow'],
    maxAge: 600,
  });
  return (req, res, next) => (req.headers.origin === undefined ? next() : headers(req, res, next));
};
