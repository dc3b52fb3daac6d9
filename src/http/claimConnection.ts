import type { RequestHandler } from 'express';
import { rejections } from '../domain/rejections.js';
import { callerOf } from './authenticate.js';
import { callerKey } from './CallerConcurrency.js';
import type { ConnectionShares } from './ConnectionShares.js';

/**
 * Counts the request's connection against its caller too (subject, or client address behind a
 * trusted proxy): a caller spread over many addresses, or many clients behind one balancer, holds
 * only its share. Over it, the request is refused and its connection closed: keeping it would keep
 * the share taken.
 */
export const claimConnection =
  (connections: ConnectionShares): RequestHandler =>
  (req, res, next) => {
    if (connections.claim(req.socket, callerKey(callerOf(res), req))) return next();
    res.set('Connection', 'close');
    next(rejections.tooManyClientConnections(connections.limits.maxConnectionsPerClient));
  };
