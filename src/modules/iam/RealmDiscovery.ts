import * as oidc from 'openid-client';
import type { RealmFields, WellKnown } from './realms/Realm.js';
import { authRejections } from '../../kernel/authRejections.js';
import { describe, fetchJwks } from './fetchJwks.js';
import { isLoopbackHost, protocolProblem } from '../../util/loopback.js';

export interface RealmDiscoveryOptions {
  /** Bound of each request to the provider (discovery document, then JWKS). */
  timeoutMs: number;
}

/** `grant_types_supported` in the camelCase Delta renders (wire-iam.md); unknown grants are left out. */
const GRANTS: Record<string, string> = {
  authorization_code: 'authorizationCode',
  implicit: 'implicit',
  password: 'password',
  client_credentials: 'clientCredentials',
  refresh_token: 'refreshToken',
  device_code: 'deviceCode',
  'urn:ietf:params:oauth:grant-type:device_code': 'deviceCode',
};

/** The OpenID Connect default when a provider does not list its grant types. */
const DEFAULT_GRANTS = ['authorization_code', 'implicit'];

/**
 * Learns a realm's issuer, endpoints and keys from its discovery address. Anything other than a
 * well-formed answer becomes a 400-family rejection naming the reason, within the timeout.
 */
export class RealmDiscovery {
  constructor(private readonly options: RealmDiscoveryOptions = { timeoutMs: 5000 }) {}

  async discover(openIdConfig: string): Promise<WellKnown> {
    let url: URL;
    try {
      url = new URL(openIdConfig);
    } catch {
      throw authRejections.unsuccessfulOpenIdConfigResponse(openIdConfig, 'it is not an absolute address');
    }
    const problem = protocolProblem(url);
    if (problem) throw authRejections.unsuccessfulOpenIdConfigResponse(openIdConfig, problem);
    const metadata = await this.fetchDocument(url, openIdConfig);
    const issuer = metadata.issuer;
    try {
      new URL(issuer);
    } catch {
      throw authRejections.illegalIssuerFormat(openIdConfig, `'${issuer}' is not an address`);
    }
    const jwksUri = metadata.jwks_uri;
    if (typeof jwksUri !== 'string' || !URL.canParse(jwksUri))
      throw authRejections.illegalJwksUriFormat(openIdConfig, "'jwks_uri' is missing or not an address");
    const endpoint = (name: string, required: boolean): string | undefined => {
      const value = (metadata as Record<string, unknown>)[name];
      if (value === undefined && !required) return undefined;
      if (typeof value !== 'string' || !URL.canParse(value)) throw authRejections.illegalEndpointFormat(openIdConfig, name, 'missing or not an address');
      return value;
    };
    const grants = metadata.grant_types_supported ?? DEFAULT_GRANTS;
    if (!Array.isArray(grants)) throw authRejections.illegalEndpointFormat(openIdConfig, 'grant_types_supported', 'not an array');
    const wellKnown: WellKnown = {
      issuer,
      jwksUri,
      keys: [],
      grantTypes: [...new Set(grants.map((g) => GRANTS[g]).filter((g): g is string => g !== undefined))],
      authorizationEndpoint: endpoint('authorization_endpoint', true)!,
      tokenEndpoint: endpoint('token_endpoint', true)!,
      userInfoEndpoint: endpoint('userinfo_endpoint', true)!,
    };
    const revocation = endpoint('revocation_endpoint', false);
    const endSession = endpoint('end_session_endpoint', false);
    if (revocation) wellKnown.revocationEndpoint = revocation;
    if (endSession) wellKnown.endSessionEndpoint = endSession;
    wellKnown.keys = (await fetchJwks(jwksUri, this.options.timeoutMs)) as Record<string, unknown>[];
    return wellKnown;
  }

  /** Discovery plus the fields the client sent: the command payload of a realm create or update. */
  async resolve(fields: RealmFields): Promise<{ fields: RealmFields; wellKnown: WellKnown }> {
    return { fields, wellKnown: await this.discover(fields.openIdConfig) };
  }

  private async fetchDocument(url: URL, openIdConfig: string): Promise<oidc.ServerMetadata> {
    const insecure = url.protocol === 'http:' && isLoopbackHost(url.hostname);
    try {
      // The client id is unused: only the discovery half of openid-client serves here.
      const config = await oidc.discovery(url, 'registry', undefined, undefined, {
        timeout: this.options.timeoutMs / 1000,
        ...(insecure ? { execute: [oidc.allowInsecureRequests] } : {}),
      });
      return config.serverMetadata();
    } catch (e) {
      const why = describe(e);
      if (/"issuer"/.test(why)) throw authRejections.illegalIssuerFormat(openIdConfig, why);
      throw authRejections.unsuccessfulOpenIdConfigResponse(openIdConfig, why);
    }
  }
}
