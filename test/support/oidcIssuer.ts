import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHash, randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { SignJWT, exportJWK, generateKeyPair, type CryptoKey, type JWK, type JWTPayload } from 'jose';

interface SigningKey {
  kid: string;
  privateKey: CryptoKey;
  publicJwk: JWK;
}

const newKey = async (): Promise<SigningKey> => {
  const { privateKey, publicKey } = await generateKeyPair('RS256', { extractable: true });
  const kid = randomUUID();
  return { kid, privateKey, publicJwk: { ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' } };
};

export interface SignOptions {
  /** Seconds from now; negative for an expired token. */
  expiresIn?: number;
  /** Sign with a key the JWKS does not publish. */
  unpublishedKey?: boolean;
  /** Leave out the `iss` claim. */
  noIssuer?: boolean;
  /** Seconds from now before which the token is not valid. */
  notBefore?: number;
}

/**
 * A minimal OpenID provider on 127.0.0.1: a discovery document, a JWKS it can rotate, and RS256
 * access tokens with any claims. Also serves a JSON page that is no discovery document and a path
 * that never answers, for the failure cases of realm creation.
 */
export class OidcIssuer {
  readonly jwksRequests: string[] = [];
  /** Fields merged into the discovery document (undefined removes one), to break it on purpose. */
  documentOverrides: Record<string, unknown> = {};
  /** Served in place of the JWKS when set, with its status. */
  jwksOverride: { status: number; body: unknown } | undefined;
  /** The user the authorization endpoint signs in (a browser test's login); none: it answers `access_denied`. */
  loginAs: JWTPayload | undefined;
  /** Tokens handed out by the token endpoint, in order. */
  readonly issuedTokens: string[] = [];
  private readonly codes = new Map<string, { challenge: string; redirectUri: string; clientId: string; claims: JWTPayload }>();
  private key!: SigningKey;
  private stray!: SigningKey;
  private server!: Server;
  private hanging = new Set<import('node:http').ServerResponse>();
  base = '';

  static async start(): Promise<OidcIssuer> {
    const issuer = new OidcIssuer();
    issuer.key = await newKey();
    issuer.stray = await newKey();
    await issuer.listen();
    return issuer;
  }

  get issuer(): string {
    return `${this.base}/issuer`;
  }

  get openIdConfig(): string {
    return `${this.issuer}/.well-known/openid-configuration`;
  }

  /** Answers 200 JSON that lacks every discovery field. */
  get notDiscovery(): string {
    return `${this.base}/not-discovery/.well-known/openid-configuration`;
  }

  /** Accepts the connection and never answers. */
  get hangingAddress(): string {
    return `${this.base}/hang/.well-known/openid-configuration`;
  }

  /** Publishes a new key in place of the current one; tokens signed before no longer verify. */
  async rotate(): Promise<void> {
    this.key = await newKey();
  }

  async sign(claims: JWTPayload, options: SignOptions = {}): Promise<string> {
    const key = options.unpublishedKey ? this.stray : this.key;
    const now = Math.floor(Date.now() / 1000);
    const jwt = new SignJWT({ ...claims }).setProtectedHeader({ alg: 'RS256', kid: key.kid, typ: 'JWT' });
    if (!options.noIssuer) jwt.setIssuer(this.issuer);
    if (options.notBefore !== undefined) jwt.setNotBefore(now + options.notBefore);
    return jwt
      .setIssuedAt(now)
      .setExpirationTime(now + (options.expiresIn ?? 300))
      .sign(key.privateKey);
  }

  async stop(): Promise<void> {
    for (const res of this.hanging) res.destroy();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private discovery() {
    return {
      issuer: this.issuer,
      jwks_uri: `${this.issuer}/jwks`,
      authorization_endpoint: `${this.issuer}/auth`,
      token_endpoint: `${this.issuer}/token`,
      userinfo_endpoint: `${this.issuer}/userinfo`,
      end_session_endpoint: `${this.issuer}/logout`,
      grant_types_supported: ['authorization_code', 'client_credentials', 'refresh_token', 'urn:ietf:params:oauth:grant-type:device_code'],
      response_types_supported: ['code'],
      subject_types_supported: ['public'],
      id_token_signing_alg_values_supported: ['RS256'],
      ...this.documentOverrides,
    };
  }

  /**
   * The authorization endpoint of the code flow with PKCE (RFC 7636, S256 only): no login form, it
   * signs in `loginAs` at once and redirects back with a one-time code bound to the challenge.
   */
  private authorize(url: URL, res: ServerResponse): void {
    const q = url.searchParams;
    const redirectUri = q.get('redirect_uri');
    const clientId = q.get('client_id');
    const challenge = q.get('code_challenge');
    if (!redirectUri || !clientId || q.get('response_type') !== 'code' || q.get('code_challenge_method') !== 'S256' || !challenge)
      return void res.writeHead(400, { 'content-type': 'text/plain' }).end('invalid_request');
    const back = new URL(redirectUri);
    if (q.get('state') !== null) back.searchParams.set('state', q.get('state')!);
    if (this.loginAs === undefined) back.searchParams.set('error', 'access_denied');
    else {
      const code = randomUUID();
      this.codes.set(code, { challenge, redirectUri, clientId, claims: this.loginAs });
      back.searchParams.set('code', code);
    }
    res.writeHead(302, { location: back.toString() }).end();
  }

  /** The token endpoint: a code once, for the client and redirect it was issued to, with the verifier of its challenge. */
  private async token(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const cors = { 'content-type': 'application/json', 'access-control-allow-origin': '*' };
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const form = new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
    const code = form.get('code') ?? '';
    const grant = this.codes.get(code);
    this.codes.delete(code);
    const verifier = form.get('code_verifier') ?? '';
    const valid =
      form.get('grant_type') === 'authorization_code' &&
      grant !== undefined &&
      grant.clientId === form.get('client_id') &&
      grant.redirectUri === form.get('redirect_uri') &&
      createHash('sha256').update(verifier).digest('base64url') === grant.challenge;
    if (!valid) return void res.writeHead(400, cors).end(JSON.stringify({ error: 'invalid_grant' }));
    const accessToken = await this.sign(grant.claims);
    this.issuedTokens.push(accessToken);
    res.writeHead(200, cors).end(JSON.stringify({ access_token: accessToken, token_type: 'Bearer', expires_in: 300 }));
  }

  private async listen(): Promise<void> {
    this.server = createServer((req, res) => {
      const json = (body: unknown) => res.writeHead(200, { 'content-type': 'application/json', 'access-control-allow-origin': '*' }).end(JSON.stringify(body));
      const url = new URL(req.url ?? '/', 'http://issuer');
      if (url.pathname === '/issuer/auth' && req.method === 'GET') return this.authorize(url, res);
      if (url.pathname === '/issuer/token' && req.method === 'POST') return void this.token(req, res).catch(() => res.writeHead(500).end());
      switch (req.url) {
        case '/issuer/.well-known/openid-configuration':
          return json(this.discovery());
        case '/issuer/jwks':
          this.jwksRequests.push(new Date().toISOString());
          if (this.jwksOverride)
            return res.writeHead(this.jwksOverride.status, { 'content-type': 'application/json' }).end(JSON.stringify(this.jwksOverride.body));
          return json({ keys: [this.key.publicJwk] });
        case '/not-discovery/.well-known/openid-configuration':
          return json({ hello: 'world' });
        case '/hang/.well-known/openid-configuration':
          this.hanging.add(res);
          return;
        default:
          res.writeHead(404).end();
      }
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', () => resolve()));
    this.base = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }
}

/** An address on loopback where nothing listens. */
export const closedPortAddress = async (): Promise<string> => {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}/.well-known/openid-configuration`;
};
