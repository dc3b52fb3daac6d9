import type { Request } from 'express';
import { anonymous } from '../domain/Subject.js';

/** Who is calling. Until realms are configured every caller acts as the anonymous subject. */
export interface Caller {
  subject: string;
}

export const callerOf = (_req: Request): Caller => ({ subject: anonymous });
