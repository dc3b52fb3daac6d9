import { createLocalJWKSet, errors, type JWK, type JWSHeaderParameters, type FlattenedJWSInput, type CryptoKey } from 'jose';
import { fetchJwks } from './fetchJwks.js';

export interface RealmKeysOptions {
  timeoutMs: number;
  /** Least time between two JWKS fetches for unknown `kid`s, successful or not. */
  refreshCooldownMs: number;
  now?: () => number;
}

/**
 * A realm's verification keys: those stored at discovery first; a token signed by a key they lack
 * refetches the JWKS once per cooldown, so a provider's key rotation needs no realm update while a
 * flood of tokens with made-up `kid`s costs one fetch per cooldown.
 */
export class RealmKeys {
  private keySet: ReturnType<typeof createLocalJWKSet>;
  private lastFetch = -Infinity;
  private inflight: Promise<void> | undefined;

  constructor(
    private readonly jwksUri: string,
    keys: readonly Record<string, unknown>[],
    private readonly options: RealmKeysOptions,
  ) {
    this.keySet = createLocalJWKSet({ keys: keys as JWK[] });
  }

  /** A jose key resolver for `jwtVerify`. */
  readonly resolve = async (header: JWSHeaderParameters, token: FlattenedJWSInput): Promise<CryptoKey> => {
    try {
      return await this.keySet(header, token);
    } catch (e) {
      if (!(e instanceof errors.JWKSNoMatchingKey)) throw e;
      const now = (this.options.now ?? Date.now)();
      if (!this.inflight && now - this.lastFetch < this.options.refreshCooldownMs) throw e;
      await this.refresh(now);
      return this.keySet(header, token);
    }
  };

  private async refresh(now: number): Promise<void> {
    if (!this.inflight) {
      this.lastFetch = now;
      this.inflight = fetchJwks(this.jwksUri, this.options.timeoutMs)
        .then((keys) => {
          this.keySet = createLocalJWKSet({ keys });
        })
        .catch(() => undefined) // an unreachable provider leaves the known keys in place
        .finally(() => {
          this.inflight = undefined;
        });
    }
    await this.inflight;
  }
}
