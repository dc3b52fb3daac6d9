import type { KeyObject } from 'node:crypto';

/** The issue-tracker integration (spec §4.8): where the tracker is and how this service signs as its OAuth 1.0a consumer. */
export interface TrackerOptions {
  /** The tracker's base address, without a trailing slash. */
  base: string;
  consumerKey: string;
  /** The consumer's RSA private key (RSA-SHA1 signatures). */
  privateKey: KeyObject;
  /** Bound of every request to the tracker, in ms; beyond it the call is 502. */
  timeoutMillis: number;
  /** 32 bytes for the AES-GCM encryption of the stored user tokens; derived from `privateKey` when absent. */
  tokenKey?: Buffer;
}
