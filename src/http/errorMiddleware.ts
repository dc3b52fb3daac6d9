import type { ErrorRequestHandler, RequestHandler } from 'express';
import type { Log } from '../kernel/Log.js';
import { rejections } from '../domain/rejections.js';
import { EventLogUnavailable } from '../events/EventLog.js';
import { Rejection } from '../kernel/Rejection.js';
import { SparqlRequestFailed } from '../store/SparqlHttpClient.js';
import { context } from '../kernel/vocabulary.js';
import { statusOf } from './statusOf.js';

/** Errors raised by express and its body parser, as rejections. */
const fromFramework = (error: { type?: string; status?: number; limit?: number; message?: string }): Rejection | undefined => {
  if (error instanceof EventLogUnavailable) return rejections.eventLogUnavailable();
  // A store's status is not the client's: one that refused a request this service built is our fault
  // (logged, 500), one away or late is transient (503). Checked before the framework's statuses below.
  if (error instanceof SparqlRequestFailed) return error.unavailable ? rejections.storeUnavailable() : undefined;
  if (error.type === 'entity.too.large') return rejections.payloadTooLarge(error.limit ?? 0);
  if (error instanceof URIError || (error.status === 400 && /decode param/i.test(error.message ?? '')))
    return rejections.invalidResourceId(error.message ?? 'malformed percent-encoding');
  if (error.status && error.status >= 400 && error.status < 500) return rejections.malformedContent(error.message ?? 'The request could not be read.');
  return undefined;
};

/** Renders every failure as the typed error body; unexpected ones are logged and never leak details. */
export const errorMiddleware =
  (log: Log, moduleStatuses: Readonly<Record<string, number>> = {}): ErrorRequestHandler =>
  (error, _req, res, _next) => {
    const raised: Rejection | undefined = error instanceof Rejection ? error : fromFramework(error);
    const known = raised && statusOf(raised.type, {}, moduleStatuses) !== undefined ? raised : undefined;
    if (!known) log.error('unexpected error', { error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
    const body = known ?? rejections.unexpected();
    const status = statusOf(body.type, body.fields, moduleStatuses) ?? 500;
    if (body.type === 'HttpMethodNotAllowed') res.setHeader('Allow', (body.fields['allowed'] as string[]).join(', '));
    if (typeof body.fields['retryAfter'] === 'number') res.setHeader('Retry-After', String(body.fields['retryAfter']));
    if (res.headersSent) {
      res.end();
      return;
    }
    const { allowed: _allowed, relayedStatus: _relayed, retryAfter: _retryAfter, ...fields } = body.fields;
    res
      .status(status)
      .type('application/ld+json')
      .send(JSON.stringify({ '@context': context('error'), '@type': body.type, reason: body.reason, ...fields }));
  };

export const notFound: RequestHandler = (_req, _res, next) => next(rejections.routeNotFound());
