import type { Request } from 'express';
import type { Caller } from '../kernel/Caller.js';
import { anonymousCaller } from '../kernel/Caller.js';
import { rejections } from '../domain/rejections.js';
import type { CostlyShares } from './CostlyShares.js';
import { clientAddressKey } from './ConnectionShares.js';

/**
 * Who a request counts against (its costly share, its connections, its event streams): an
 * authenticated caller by its subject, wherever it comes from; an anonymous one by its client's
 * address: the socket's, or, from a proxy listed in `TRUSTED_PROXIES`, the one its
 * `X-Forwarded-For` names (express' `trust proxy`: a header from anyone else is not read).
 */
export const callerKey = (caller: Caller, req: Request): string =>
  caller.subject === anonymousCaller.subject ? clientAddressKey(req.ip ?? req.socket.remoteAddress ?? 'unknown') : `subject ${caller.subject}`;

/**
 * A cap on the costly requests (searches, SPARQL queries) one caller has in flight at once: past it,
 * 429 TooManyRequests with `Retry-After`, so that one caller cannot queue enough work to hold
 * everyone else's (the CPU's turns and the query workers are shared by all callers). The count is
 * the shares' to keep: in process, or in Redis across every replica.
 */
export class CallerConcurrency {
  constructor(
    private readonly shares: CostlyShares,
    private readonly retryAfterSeconds = 1,
  ) {}

  async run<T>(key: string, work: () => Promise<T>): Promise<T> {
    const release = await this.shares.take(key);
    if (!release) throw rejections.tooManyRequests(this.shares.perCaller, this.retryAfterSeconds);
    try {
      return await work();
    } finally {
      await release();
    }
  }
}
