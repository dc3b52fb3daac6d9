import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { pino } from 'pino';
import type { Logger } from 'pino';
import { pinoHttp } from 'pino-http';
import type { Log } from '../kernel/Log.js';
import type { Caller } from '../kernel/Caller.js';

/** JSON lines on stdout at `level` (`silent` turns them off). */
export const createLogger = (level: string): Logger => pino({ level, base: { service: 'registry' }, timestamp: pino.stdTimeFunctions.isoTime });

/** The service's `Log` over a pino logger. */
export const pinoLog = (logger: Logger): Log => ({
  info: (message, fields) => logger.info(fields ?? {}, message),
  warn: (message, fields) => logger.warn(fields ?? {}, message),
  error: (message, fields) => logger.error(fields ?? {}, message),
});

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * One JSON line per request: its id (taken from `X-Request-Id` when sane, else new, and echoed),
 * method, route, status, duration and the caller's subject. Headers and bodies are left out, so no
 * token or secret reaches the log.
 */
export const requestLogging = (logger: Logger) =>
  pinoHttp({
    logger,
    genReqId: (req: IncomingMessage, res: ServerResponse) => {
      const given = req.headers['x-request-id'];
      const id = typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
      res.setHeader('X-Request-Id', id);
      return id;
    },
    serializers: {
      req: (req: { id: unknown; method: string; url: string }) => ({ id: req.id, method: req.method, path: req.url.split('?')[0] }),
      res: (res: { statusCode: number }) => ({ status: res.statusCode }),
    },
    customProps: (req: IncomingMessage, res: ServerResponse) => {
      const caller = (res as unknown as { locals?: { caller?: Caller } }).locals?.caller;
      const route = (req as unknown as { route?: { path?: string } }).route?.path;
      return { ...(route ? { route } : {}), ...(caller ? { subject: caller.subject } : {}) };
    },
    customLogLevel: (_req: IncomingMessage, res: ServerResponse, error?: Error) =>
      error || res.statusCode >= 500 ? 'error' : res.statusCode >= 400 ? 'warn' : 'info',
    quietReqLogger: true,
  });
