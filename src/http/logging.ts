import { randomUUID } from 'node:crypto';
import type { RequestHandler } from 'express';
import { pino } from 'pino';
import type { Logger } from 'pino';
import type { Caller } from '../kernel/Caller.js';
import type { Log } from '../kernel/Log.js';

/** Lines are written together once this many bytes wait, and at the latest this long after the first. */
const BATCH_BYTES = 4_096;
const BATCH_MILLIS = 100;

/**
 * JSON lines on stdout at `level` (`silent` turns them off), written asynchronously so a request
 * never waits for the log's write, and in batches: one write per line cost a system call per
 * request on the event loop (a tenth of a small request's CPU under load). Lines wait at most
 * BATCH_MILLIS; pino writes what waits when the process exits.
 */
export const createLogger = (level: string): Logger => {
  const destination = pino.destination({ dest: 1, sync: false, minLength: BATCH_BYTES });
  let waiting = false;
  setInterval(() => {
    if (!waiting) return;
    waiting = false;
    destination.flush();
  }, BATCH_MILLIS).unref();
  return pino(
    {
      level,
      base: { service: 'registry' },
      timestamp: pino.stdTimeFunctions.isoTime,
      hooks: {
        streamWrite: (line) => {
          waiting = true;
          return line;
        },
      },
    },
    destination,
  );
};

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
