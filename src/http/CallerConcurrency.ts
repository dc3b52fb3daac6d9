import type { Request } from 'express';
import type { Caller } from '../kernel/Caller.js';
import { anonymousCaller } from '../kernel/Caller.js';
import { rejections } from '../domain/rejections.js';
import type { CostlyShares } from './CostlyShares.js';

/**
 * Who a costly request counts against: an authenticated caller by its subject, wherever it comes
 * from; an anonymous one by the address it connects from (the socket's, never a forwarded header a
 * client could write). Anonymous callers behind one proxy share its address, hence one share.
 */
export const callerKey = (caller: Caller, req: Request): string =>
  caller.subject === anonymousCaller.subject ? `address ${req.socket.remoteAddress ?? 'unknown'}` : `subject ${caller.subject}`;

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
