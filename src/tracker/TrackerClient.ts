import type { ClientRequest } from 'node:http';
import { OAuth } from 'oauth';
import type { dataCallback } from 'oauth';
import type { TrackerOptions } from './TrackerOptions.js';

/** What the tracker answered: its status and its body as text. */
export interface TrackerAnswer {
  status: number;
  body: string;
}

/** The tracker did not answer in time. */
export class TrackerTimedOut extends Error {}

/** The tracker could not be reached, or the connection broke. */
export class TrackerConnectionFailed extends Error {}

/** Answers larger than this are not read to the end (a tracker's JSON answers are far smaller). */
const MAX_ANSWER_BYTES = 32 * 1024 * 1024;

/** The library sends a request itself only when given a callback; without one it hands the request back to send. */
const NO_CALLBACK = undefined as unknown as dataCallback;

/**
 * The tracker's HTTP interface, every request signed as OAuth 1.0a with RSA-SHA1 by the `oauth`
 * library (the consumer key and private key of the configuration; the token secret is not used by
 * RSA-SHA1). The library builds and signs the request; this class bounds it in time and reads the
 * answer.
 */
export class TrackerClient {
  private readonly oauth: OAuth;

  constructor(private readonly config: TrackerOptions) {
    const pem = config.privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
    this.oauth = new OAuth(this.requestTokenUrl, this.accessTokenUrl, config.consumerKey, pem, '1.0', 'oob', 'RSA-SHA1');
  }

  /** Where the user grants access to a request token. */
  authorizeAddress(requestToken: string): string {
    return `${this.config.base}/plugins/servlet/oauth/authorize?oauth_token=${encodeURIComponent(requestToken)}`;
  }

  /** `oauth_callback=oob`: the tracker shows the user a code to bring back (the verifier). */
  requestToken(): Promise<TrackerAnswer> {
    return this.send(this.oauth.post(this.requestTokenUrl, '', '', { oauth_callback: 'oob' }, undefined, NO_CALLBACK));
  }

  accessToken(requestToken: string, verifier: string): Promise<TrackerAnswer> {
    return this.send(this.oauth.post(this.accessTokenUrl, requestToken, '', { oauth_verifier: verifier }, undefined, NO_CALLBACK));
  }

  /** A REST call under `/rest/api/2/` with the user's access token; `query` is signed with the rest. */
  rest(method: 'GET' | 'POST' | 'PUT', path: string, accessToken: string, json?: unknown, query?: URLSearchParams): Promise<TrackerAnswer> {
    const url = `${this.config.base}/rest/api/2/${path}${query && query.size > 0 ? `?${query}` : ''}`;
    if (method === 'GET') return this.send(this.oauth.get(url, accessToken, '', NO_CALLBACK));
    const body = JSON.stringify(json ?? {});
    if (method === 'POST') return this.send(this.oauth.post(url, accessToken, '', body, 'application/json', NO_CALLBACK));
    return this.send(this.oauth.put(url, accessToken, '', body, 'application/json', NO_CALLBACK));
  }

  private get requestTokenUrl(): string {
    return `${this.config.base}/plugins/servlet/oauth/request-token`;
  }

  private get accessTokenUrl(): string {
    return `${this.config.base}/plugins/servlet/oauth/access-token`;
  }

  /** Ends the signed request and reads the whole answer, all within the configured time. */
  private send(request: ClientRequest): Promise<TrackerAnswer> {
    return new Promise((resolve, reject) => {
      let settled = false;
      const settle = (outcome: () => void) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        outcome();
      };
      const timer = setTimeout(() => {
        settle(() => reject(new TrackerTimedOut(`no answer within ${this.config.timeoutMillis} ms`)));
        request.destroy();
      }, this.config.timeoutMillis);
      request.on('error', (error) => settle(() => reject(new TrackerConnectionFailed(error.message))));
      request.on('response', (response) => {
        const chunks: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > MAX_ANSWER_BYTES) {
            settle(() => reject(new TrackerConnectionFailed(`the answer exceeds ${MAX_ANSWER_BYTES} bytes`)));
            request.destroy();
          } else chunks.push(chunk);
        });
        response.on('error', (error) => settle(() => reject(new TrackerConnectionFailed(error.message))));
        response.on('end', () => settle(() => resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') })));
        response.on('close', () => settle(() => reject(new TrackerConnectionFailed('the connection closed before the answer was complete'))));
      });
      request.end();
    });
  }
}
