import { decodeJwt, decodeProtectedHeader, errors, jwtVerify, type JWTPayload } from 'jose';
import type { RealmState } from './realms/Realm.js';
import { Lru } from '../../util/Lru.js';
import { authRejections } from '../../kernel/authRejections.js';
import { anonymousCaller, callerFromClaims, groupsClaim, subjectClaim, type Caller } from '../../kernel/Identity.js';
import { RealmKeys } from './RealmKeys.js';

/** Finds the non-deprecated realm whose issuer a token names. */
export type RealmByIssuer = (issuer: string) => RealmState | undefined;

export interface TokenVerifierOptions {
  /** Verified tokens remembered until they expire. */
  cacheSize: number;
  /** Bound of a JWKS refetch. */
  timeoutMs: number;
  /** Least time between two JWKS refetches of one realm. */
  refreshCooldownMs: number;
  /** Seconds of clock skew tolerated on `exp`/`nbf`. */
  clockToleranceS: number;
  now?: () => number;
}

const DEFAULTS: TokenVerifierOptions = { cacheSize: 10_000, timeoutMs: 5000, refreshCooldownMs: 30_000, clockToleranceS: 0 };

interface Verified {
  caller: Caller;
  issuer: string;
  realm: string;
  realmRev: number;
  /** Milliseconds since the epoch. */
  expiresAt: number;
}

const BEARER = /^bearer\s+(\S+)\s*$/i;

/**
 * Turns an `Authorization` header into the caller. No header: anonymous. Anything else must be a
 * valid bearer JWT of an active realm, or the request is refused (401 family): a bad token is never
 * read as anonymous.
 */
export class TokenVerifier {
  private readonly options: TokenVerifierOptions;
  private readonly cache: Lru<string, Verified>;
  private readonly keys = new Map<string, { rev: number; keys: RealmKeys }>();

  constructor(
    private readonly realmByIssuer: RealmByIssuer,
    options: Partial<TokenVerifierOptions> = {},
  ) {
    this.options = { ...DEFAULTS, ...options };
    this.cache = new Lru(this.options.cacheSize);
  }

  async callerOf(authorization: string | undefined): Promise<Caller> {
    if (authorization === undefined) return anonymousCaller;
    const match = BEARER.exec(authorization);
    if (!match) throw authRejections.authenticationFailed();
    return this.verify(match[1]!);
  }

  async verify(token: string): Promise<Caller> {
    const now = this.now();
    const cached = this.cache.get(token);
    if (cached) {
      const realm = this.realmByIssuer(cached.issuer);
      // A realm deprecated or updated since then (new audiences, new provider) re-verifies the token.
      if (cached.expiresAt > now && realm?.label === cached.realm && realm.rev === cached.realmRev) return cached.caller;
      this.cache.delete(token);
    }
    const verified = await this.verifyUncached(token);
    this.cache.set(token, verified);
    return verified.caller;
  }

  private async verifyUncached(token: string): Promise<Verified> {
    let claims: JWTPayload;
    try {
      decodeProtectedHeader(token);
      claims = decodeJwt(token);
    } catch (e) {
      throw authRejections.invalidAccessTokenFormat(e instanceof Error ? e.message : String(e));
    }
    if (typeof claims.iss !== 'string' || claims.iss === '') throw authRejections.accessTokenDoesNotContainAnIssuer();
    const realm = this.realmByIssuer(claims.iss);
    if (!realm || realm.deprecated) throw authRejections.unknownAccessTokenIssuer();
    const subject = subjectClaim(claims);
    try {
      await jwtVerify(token, this.keysOf(realm).resolve, {
        issuer: realm.issuer,
        algorithms: ['RS256'],
        requiredClaims: ['exp'],
        clockTolerance: this.options.clockToleranceS,
        currentDate: new Date(this.now()),
        ...(realm.acceptedAudiences?.length ? { audience: realm.acceptedAudiences } : {}),
      });
    } catch (e) {
      throw authRejections.invalidAccessToken(subject, claims.iss, reasonOf(e));
    }
    if (subject === undefined) throw authRejections.accessTokenDoesNotContainSubject();
    return {
      caller: callerFromClaims(realm.label, subject, groupsClaim(claims)),
      issuer: claims.iss,
      realm: realm.label,
      realmRev: realm.rev,
      expiresAt: (claims.exp as number) * 1000,
    };
  }

  private keysOf(realm: RealmState): RealmKeys {
    const known = this.keys.get(realm.label);
    if (known && known.rev === realm.rev) return known.keys;
    const keys = new RealmKeys(realm.jwksUri, realm.keys, {
      timeoutMs: this.options.timeoutMs,
      refreshCooldownMs: this.options.refreshCooldownMs,
      now: () => this.now(),
    });
    this.keys.set(realm.label, { rev: realm.rev, keys });
    return keys;
  }

  private now(): number {
    return (this.options.now ?? Date.now)();
  }
}

const reasonOf = (e: unknown): string => {
  if (e instanceof errors.JWTExpired) return 'the token has expired';
  if (e instanceof errors.JWKSNoMatchingKey) return 'no key of the realm matches the token';
  if (e instanceof errors.JWSSignatureVerificationFailed) return 'the signature does not verify';
  if (e instanceof errors.JWTClaimValidationFailed) return `claim '${e.claim}' failed validation: ${e.reason}`;
  return e instanceof Error ? e.message : String(e);
};
