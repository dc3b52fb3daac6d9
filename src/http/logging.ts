import { randomUUID } from 'node:crypto';
import type { RequestHandler } from 'express';
import { pino } from 'pino';
import type { Logger } from 'pino';
import type { Caller } from '../kernel/Caller.js';
import type { Log } from '../kernel/Log.js';

/**
 * JSON lines on stdout at `level` (`silent` turns them off), written asynchronously so a request
 * never waits for the log's write.
 */
export const createLogger = (level: string): Logger =>
  pino({ level, base: { service: 'registry' }, timestamp: pino.stdTimeFunctions.isoTime }, pino.destination({ dest: 1, sync: false, minLength: 0 }));

/** The service's `Log` over a pino logger. */
export const pinoLog = (logger: Logger): Log => ({
  info: (message, fields) => logger.info(fields ?? {}, message),
  warn: (message, fields) => logger.warn(fields ?? {}, message),
  error: (message, fields) => logger.error(fields ?? {}, message),
});

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * One JSON line per request, when it ends: its id (taken from `X-Request-Id` when sane, else new,
 * and echoed), method, route, status, duration and the caller's subject. Headers and bodies are
 * left out, so no token or secret reaches the log. (One line per request and no child logger:
 * pino-http's per-request child cost a tenth of a small request.)
 */
export const requestLogging =
  (logger: Logger): RequestHandler =>
  (req, res, next) => {
    const given = req.headers['x-request-id'];
    const id = typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    res.setHeader('X-Request-Id', id);
    if (!logger.isLevelEnabled('info')) return next();
    const started = performance.now();
    res.once('finish', () => {
      const status = res.statusCode;
      const caller = res.locals['caller'] as Caller | undefined;
      const line = {
        req: { id, method: req.method, path: req.path },
        route: (req.route as { path?: string } | undefined)?.path ?? 'unmatched',
        status,
        durationMs: Math.round((performance.now() - started) * 100) / 100,
        ...(caller ? { subject: caller.subject } : {}),
      };
      if (status >= 500) logger.error(line, 'request failed');
      else if (status >= 400) logger.warn(line, 'request refused');
      else logger.info(line, 'request completed');
    });
    next();
  };
