import { importJWK, type JWK } from 'jose';
import { authRejections } from '../../kernel/authRejections.js';
import { protocolProblem } from '../../util/loopback.js';

/**
 * Fetches a provider's JWKS and keeps the keys that can verify RS256 signatures. Every failure is
 * a typed rejection: the caller is creating or using a realm, never facing a 500.
 */
export const fetchJwks = async (jwksUri: string, timeoutMs: number): Promise<JWK[]> => {
  const url = new URL(jwksUri);
  const problem = protocolProblem(url);
  if (problem) throw authRejections.illegalJwksUriFormat(jwksUri, problem);
  let body: unknown;
  try {
    const response = await fetch(url, { redirect: 'manual', signal: AbortSignal.timeout(timeoutMs), headers: { accept: 'application/json' } });
    if (response.status !== 200) throw new Error(`status ${response.status}`);
    body = await response.json();
  } catch (e) {
    throw authRejections.unsuccessfulJwksResponse(jwksUri, describe(e));
  }
  const keys = (body as { keys?: unknown })?.keys;
  if (!Array.isArray(keys)) throw authRejections.illegalJwkFormat(jwksUri, "no 'keys' array");
  const usable: JWK[] = [];
  for (const key of keys) {
    if (key === null || typeof key !== 'object') throw authRejections.illegalJwkFormat(jwksUri, 'a key is not an object');
    const jwk = key as JWK;
    if (jwk.kty !== 'RSA' || (jwk.use !== undefined && jwk.use !== 'sig') || (jwk.alg !== undefined && jwk.alg !== 'RS256')) continue;
    if (typeof jwk.n !== 'string' || jwk.n === '' || typeof jwk.e !== 'string' || jwk.e === '')
      throw authRejections.illegalJwkFormat(jwksUri, `RSA key '${jwk.kid ?? ''}' has no modulus or exponent`);
    try {
      await importJWK(jwk, 'RS256');
    } catch (e) {
      throw authRejections.illegalJwkFormat(jwksUri, describe(e));
    }
    usable.push(publicPart(jwk));
  }
  if (usable.length === 0) throw authRejections.noValidKeysFound(jwksUri);
  return usable;
};

/** Only the public members are stored in realm events. */
const publicPart = ({ kty, kid, use, alg, n, e }: JWK): JWK =>
  Object.fromEntries(Object.entries({ kty, kid, use, alg, n, e }).filter(([, v]) => v !== undefined)) as JWK;

export const describe = (e: unknown): string => {
  if (e instanceof Error) {
    const cause = (e as { cause?: unknown }).cause;
    const timedOut = (x: unknown) => x instanceof Error && (x.name === 'TimeoutError' || x.name === 'AbortError');
    if (timedOut(e) || timedOut(cause)) return 'the provider did not answer in time';
    return cause instanceof Error ? `${e.message} (${cause.message})` : e.message;
  }
  return String(e);
};
