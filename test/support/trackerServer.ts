import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { generateKeyPairSync, randomBytes, verify, type KeyObject } from 'node:crypto';

/** RFC 3986 percent-encoding as RFC 5849 §3.6 wants it: only unreserved characters stay as they are. */
export const percentEncode = (value: string): string => encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/** `OAuth k="v", ...` → its parameters, percent-decoded (RFC 5849 §3.5.1). */
export const authorizationParams = (header: string | undefined): [string, string][] | undefined => {
  if (!header || !/^OAuth\s/i.test(header)) return undefined;
  return [...header.slice(6).matchAll(/([A-Za-z0-9_%.~-]+)="([^"]*)"/g)].map((m) => [decodeURIComponent(m[1]!), decodeURIComponent(m[2]!)]);
};

/** The signature base string of RFC 5849 §3.4.1 for a request, from what the tracker received. */
export const signatureBaseString = (method: string, host: string, path: string, params: [string, string][]): string => {
  const [hostname, port] = host.toLowerCase().split(':');
  const authority = port === undefined || port === '80' ? hostname : `${hostname}:${port}`;
  const normalized = params
    .map(([k, v]) => [percentEncode(k), percentEncode(v)] as const)
    .sort(([ak, av], [bk, bv]) => (ak < bk ? -1 : ak > bk ? 1 : av < bv ? -1 : av > bv ? 1 : 0))
    .map(([k, v]) => `${k}=${v}`)
    .join('&');
  return [method.toUpperCase(), percentEncode(`http://${authority}${path}`), percentEncode(normalized)].join('&');
};

/** A request as the tracker reads it for its signature: the raw target (path and query as sent), the headers that count, the body. */
export interface SignedRequest {
  method: string;
  target: string;
  host: string;
  authorization: [string, string][];
  contentType: string | undefined;
  body: string;
}

/**
 * The base string of a received request (RFC 5849 §3.4.1): its parameters are those of the query, of
 * the Authorization header (less realm and the signature) and of a form-encoded body; a JSON body is
 * not signed.
 */
export const requestBaseString = (request: SignedRequest): string => {
  const [path, query] = request.target.split(/\?(.*)/s) as [string, string | undefined];
  const params: [string, string][] = [...new URLSearchParams(query ?? '').entries()];
  params.push(...request.authorization.filter(([k]) => k !== 'realm' && k !== 'oauth_signature'));
  if (/^application\/x-www-form-urlencoded\b/.test(request.contentType ?? '')) params.push(...new URLSearchParams(request.body).entries());
  return signatureBaseString(request.method, request.host, path, params);
};

/** What the tracker received, for the tests to look at (the OAuth header parsed). */
export interface Received {
  method: string;
  path: string;
  query: string;
  oauth: Record<string, string>;
  contentType: string | undefined;
  body: string;
}

interface RequestToken {
  verifier?: string;
  account?: string;
  used: boolean;
}

interface Issue {
  id: string;
  key: string;
  account: string;
  fields: Record<string, unknown>;
}

/**
 * A Jira-like tracker on 127.0.0.1 playing the provider side of OAuth 1.0a as Jira does: every request
 * must carry an RSA-SHA1 signature (verified with the consumer's public key over the RFC 5849 base
 * string), the known consumer key, a fresh timestamp and an unused nonce; request tokens are granted
 * to an account by `authorize` (what a user does in a browser), exchanged once for an access token;
 * REST calls need an access token. Refusals are Jira's: 401 `oauth_problem=...`.
 */
export class TrackerServer {
  readonly consumerKey = 'registry-consumer';
  readonly privateKey: KeyObject;
  readonly publicKey: KeyObject;
  readonly received: Received[] = [];
  /** Every refusal of the OAuth checks, by problem name. */
  readonly refusals: string[] = [];
  /** Accepts every request and never answers while set. */
  hang = false;
  /** Answers request-token with this 200 body (no token in it) while set. */
  garbageRequestToken: string | undefined;
  base = '';
  private server!: Server;
  private readonly hanging = new Set<ServerResponse>();
  private readonly nonces = new Set<string>();
  private readonly requestTokens = new Map<string, RequestToken>();
  /** Access token → the account it acts for. */
  readonly accessTokens = new Map<string, string>();
  private readonly issues = new Map<string, Issue>();
  private issueCount = 0;

  private constructor() {
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    this.privateKey = privateKey;
    this.publicKey = publicKey;
  }

  static async start(): Promise<TrackerServer> {
    const tracker = new TrackerServer();
    tracker.server = createServer((req, res) => void tracker.handle(req, res));
    await new Promise<void>((resolve) => tracker.server.listen(0, '127.0.0.1', () => resolve()));
    tracker.base = `http://127.0.0.1:${(tracker.server.address() as AddressInfo).port}`;
    return tracker;
  }

  /** The consumer's private key as the configuration file holds it. */
  get privateKeyPem(): string {
    return this.privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
  }

  /** What a user does at the authorization address: grants access as `account`; returns the code shown to them. */
  authorize(authorizationAddress: string, account: string): string {
    const url = new URL(authorizationAddress);
    if (`${url.origin}${url.pathname}` !== `${this.base}/plugins/servlet/oauth/authorize`)
      throw new Error(`not an authorization address: ${authorizationAddress}`);
    const token = this.requestTokens.get(url.searchParams.get('oauth_token') ?? '');
    if (!token) throw new Error('unknown request token');
    token.verifier = randomBytes(6).toString('hex');
    token.account = account;
    return token.verifier;
  }

  /** Ends an access token's validity, as Jira does when a user revokes it or it expires. */
  expire(accessToken: string): void {
    this.accessTokens.delete(accessToken);
  }

  /** Every access token and token secret the tracker gave out: none may appear in what the registry answers or stores. */
  secrets(): string[] {
    return [...this.issuedSecrets];
  }

  private readonly issuedSecrets: string[] = [];

  async stop(): Promise<void> {
    for (const res of this.hanging) res.destroy();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<unknown> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    const url = new URL(req.url ?? '/', 'http://tracker');
    const header = authorizationParams(req.headers.authorization);
    const oauth = Object.fromEntries(header ?? []);
    this.received.push({ method: req.method ?? '', path: url.pathname, query: url.search, oauth, contentType: req.headers['content-type'], body });
    if (this.hang) {
      this.hanging.add(res);
      return;
    }
    const refuse = (problem: string, status = 401) => {
      this.refusals.push(problem);
      res
        .writeHead(status, { 'content-type': 'text/plain', 'www-authenticate': `OAuth realm="${this.base}", oauth_problem="${problem}"` })
        .end(`oauth_problem=${problem}`);
    };
    if (!header) return refuse('parameter_absent', 400);
    const problem = this.verify(req, header, body);
    if (problem) return refuse(problem, problem === 'parameter_absent' ? 400 : 401);
    const form = (fields: Record<string, string>) =>
      res.writeHead(200, { 'content-type': 'application/x-www-form-urlencoded' }).end(new URLSearchParams(fields).toString());
    const json = (status: number, value?: unknown) => {
      if (value === undefined) return res.writeHead(status).end();
      res.writeHead(status, { 'content-type': 'application/json;charset=UTF-8' }).end(JSON.stringify(value));
    };

    if (req.method === 'POST' && url.pathname === '/plugins/servlet/oauth/request-token') {
      if (!oauth['oauth_callback']) return refuse('parameter_absent', 400);
      if (this.garbageRequestToken !== undefined) return res.writeHead(200, { 'content-type': 'text/plain' }).end(this.garbageRequestToken);
      const token = randomBytes(16).toString('hex');
      const secret = randomBytes(16).toString('hex');
      this.issuedSecrets.push(secret);
      this.requestTokens.set(token, { used: false });
      return form({ oauth_token: token, oauth_token_secret: secret, oauth_callback_confirmed: 'true' });
    }
    if (req.method === 'POST' && url.pathname === '/plugins/servlet/oauth/access-token') {
      const token = this.requestTokens.get(oauth['oauth_token'] ?? '');
      if (!token) return refuse('token_rejected');
      if (token.used) return refuse('token_used');
      if (token.account === undefined) return refuse('permission_unknown');
      if (!oauth['oauth_verifier']) return refuse('parameter_absent', 400);
      if (oauth['oauth_verifier'] !== token.verifier) return refuse('verifier_invalid');
      token.used = true;
      const access = randomBytes(16).toString('hex');
      const secret = randomBytes(16).toString('hex');
      this.issuedSecrets.push(access, secret);
      this.accessTokens.set(access, token.account);
      return form({
        oauth_token: access,
        oauth_token_secret: secret,
        oauth_expires_in: '157680000',
        oauth_session_handle: randomBytes(8).toString('hex'),
        oauth_authorization_expires_in: '157680000',
      });
    }
    if (!url.pathname.startsWith('/rest/api/2/')) return json(404, { errorMessages: ['Not found'] });
    const account = this.accessTokens.get(oauth['oauth_token'] ?? '');
    if (account === undefined) return refuse('token_rejected');
    if ((req.method === 'POST' || req.method === 'PUT') && !/^application\/json\b/.test(req.headers['content-type'] ?? '')) return json(415);
    let payload: Record<string, unknown> = {};
    try {
      payload = body === '' ? {} : (JSON.parse(body) as Record<string, unknown>);
    } catch {
      return json(400, { errorMessages: ['Unexpected character in the JSON body'], errors: {} });
    }
    const route = url.pathname.slice('/rest/api/2'.length);
    if (req.method === 'POST' && route === '/issue') {
      const fields = (payload['fields'] ?? {}) as Record<string, unknown>;
      if (typeof fields['summary'] !== 'string') return json(400, { errorMessages: [], errors: { summary: 'You must specify a summary of the issue.' } });
      const id = String(10000 + ++this.issueCount);
      const key = `REG-${this.issueCount}`;
      this.issues.set(key, { id, key, account, fields });
      return json(201, { id, key, self: `${this.base}/rest/api/2/issue/${id}` });
    }
    const edit = /^\/issue\/([^/]+)$/.exec(route);
    if (req.method === 'PUT' && edit) {
      const issue = this.issues.get(decodeURIComponent(edit[1]!));
      if (!issue || issue.account !== account)
        return json(404, { errorMessages: ['Issue does not exist or you do not have permission to see it.'], errors: {} });
      Object.assign(issue.fields, (payload['fields'] ?? {}) as Record<string, unknown>);
      return json(204);
    }
    if (req.method === 'GET' && route === '/project') {
      const projects = [
        { id: '10000', key: 'REG', name: 'Registry', lead: account },
        { id: '10001', key: 'OPS', name: 'Operations', lead: account },
      ];
      const recent = url.searchParams.get('recent');
      return json(200, recent === null ? projects : projects.slice(0, Number(recent)));
    }
    if (req.method === 'POST' && route === '/search') {
      const mine = [...this.issues.values()].filter((i) => i.account === account);
      return json(200, {
        startAt: 0,
        maxResults: 50,
        total: mine.length,
        jql: payload['jql'] ?? '',
        issues: mine.map((i) => ({ id: i.id, key: i.key, fields: i.fields })),
      });
    }
    return json(404, { errorMessages: ['Not found'] });
  }

  /** The OAuth 1.0a checks of every request; the problem's name when one fails. */
  private verify(req: IncomingMessage, header: [string, string][], body: string): string | undefined {
    const oauth = Object.fromEntries(header);
    if (oauth['oauth_consumer_key'] !== this.consumerKey) return 'consumer_key_unknown';
    if (oauth['oauth_signature_method'] !== 'RSA-SHA1') return 'signature_method_rejected';
    if (oauth['oauth_version'] !== undefined && oauth['oauth_version'] !== '1.0') return 'version_rejected';
    if (!oauth['oauth_signature'] || !oauth['oauth_timestamp'] || !oauth['oauth_nonce']) return 'parameter_absent';
    if (Math.abs(Number(oauth['oauth_timestamp']) - Date.now() / 1000) > 300) return 'timestamp_refused';
    const nonce = `${oauth['oauth_consumer_key']}:${oauth['oauth_timestamp']}:${oauth['oauth_nonce']}`;
    if (this.nonces.has(nonce)) return 'nonce_used';
    const base = requestBaseString({
      method: req.method ?? 'GET',
      target: req.url ?? '/',
      host: req.headers.host ?? '',
      authorization: header,
      contentType: req.headers['content-type'],
      body,
    });
    if (!verify('RSA-SHA1', Buffer.from(base), this.publicKey, Buffer.from(oauth['oauth_signature'], 'base64'))) return 'signature_invalid';
    this.nonces.add(nonce);
    return undefined;
  }
}
