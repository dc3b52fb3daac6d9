import { rejections } from '../domain/rejections.js';
import type { Caller } from '../kernel/Caller.js';
import { TrackerConnectionFailed, TrackerTimedOut } from './TrackerClient.js';
import type { TrackerAnswer, TrackerClient } from './TrackerClient.js';
import type { TokenStore, TrackerToken, TrackerUser } from './TokenStore.js';
import { trackerRejections } from './trackerRejections.js';

/** A configured integration: the signing client, where tokens are kept, and the bound of every call. */
export interface TrackerParts {
  client: TrackerClient;
  tokens: TokenStore;
  timeoutMillis: number;
}

/** Only a user of a realm has tracker tokens (the public system refuses anyone else with AuthorizationFailed). */
const userOf = (caller: Caller): TrackerUser => {
  for (const identity of caller.identities) if (identity.type === 'User') return { realm: identity.realm, subject: identity.subject };
  throw rejections.authorizationFailed();
};

/**
 * A parameter spec §4.8 makes unavailable for an operation (`updateHistory` on create, `notifyUsers`
 * on edit; no query string reaches the tracker at all) dropped from the body as well, in case a
 * client sends it there. The rest of the body reaches the tracker unchanged.
 */
const without = (name: string, payload: Record<string, unknown>): Record<string, unknown> =>
  Object.fromEntries(Object.entries(payload).filter(([field]) => field !== name));

/** The tracker's error body as it was: JSON when it is JSON, else the text as a JSON string. */
const contentOf = (body: string): unknown => {
  try {
    return JSON.parse(body);
  } catch {
    return body;
  }
};

/** A form-encoded OAuth answer's `oauth_token`; the other parameters (secret, expiries, session) are not kept. */
const oauthToken = (answer: TrackerAnswer, step: string): string => {
  const token = new URLSearchParams(answer.body).get('oauth_token');
  if (!token) throw trackerRejections.unexpectedAnswer(`the ${step} answer holds no oauth_token`);
  return token;
};

/**
 * Spec §4.8: the OAuth 1.0a flow run for each user (request token, then the verifier exchanged for an
 * access token), and the tracker's create, edit, list and search operations made with the user's own
 * access token. The tracker decides what the user may do; no ACL is checked here. Tokens never leave
 * the service: only the authorization address (which names the public request token) is answered.
 */
export class TrackerService {
  constructor(private readonly parts: TrackerParts | undefined) {}

  async requestToken(caller: Caller): Promise<{ value: string }> {
    const { client, tokens } = this.configured();
    const user = userOf(caller);
    const token = oauthToken(await this.call(() => client.requestToken()), 'request-token');
    await tokens.save(user, { kind: 'request', value: token });
    return { value: client.authorizeAddress(token) };
  }

  async accessToken(caller: Caller, verifier: string): Promise<void> {
    const { client, tokens } = this.configured();
    const user = userOf(caller);
    const stored = await tokens.get(user);
    if (stored === undefined) throw trackerRejections.noToken();
    if (stored.kind !== 'request') throw trackerRejections.requestTokenExpected();
    const token = oauthToken(await this.call(() => client.accessToken(stored.value, verifier)), 'access-token');
    await tokens.save(user, { kind: 'access', value: token });
  }

  /** Create an issue; no query reaches the tracker (its `updateHistory` is unavailable). */
  createIssue(caller: Caller, payload: Record<string, unknown>): Promise<unknown> {
    return this.rest(caller, (client, token) => client.rest('POST', 'issue', token, without('updateHistory', payload)));
  }

  /** Edit an issue; no query reaches the tracker (its `notifyUsers` is unavailable). */
  async editIssue(caller: Caller, issueId: string, payload: Record<string, unknown>): Promise<void> {
    await this.rest(caller, (client, token) => client.rest('PUT', `issue/${encodeURIComponent(issueId)}`, token, without('notifyUsers', payload)));
  }

  /** List projects; `recent` is the only parameter that reaches the tracker. */
  listProjects(caller: Caller, recent: number | undefined): Promise<unknown> {
    const query = new URLSearchParams(recent === undefined ? {} : { recent: String(recent) });
    return this.rest(caller, (client, token) => client.rest('GET', 'project', token, undefined, query));
  }

  /** Search with the tracker's own search request, unchanged (its `expand` field included: spec §4.8 keeps it). */
  search(caller: Caller, payload: Record<string, unknown>): Promise<unknown> {
    return this.rest(caller, (client, token) => client.rest('POST', 'search', token, payload));
  }

  private configured(): TrackerParts {
    if (this.parts === undefined) throw trackerRejections.notConfigured();
    return this.parts;
  }

  /** A REST call with the caller's access token; the tracker's JSON answer (undefined when empty). */
  private async rest(caller: Caller, send: (client: TrackerClient, accessToken: string) => Promise<TrackerAnswer>): Promise<unknown> {
    const { client, tokens } = this.configured();
    const stored: TrackerToken | undefined = await tokens.get(userOf(caller));
    if (stored === undefined) throw trackerRejections.noToken();
    if (stored.kind !== 'access') throw trackerRejections.accessTokenExpected();
    const answer = await this.call(() => send(client, stored.value));
    if (answer.body.trim() === '') return undefined;
    try {
      return JSON.parse(answer.body);
    } catch {
      throw trackerRejections.unexpectedAnswer('the answer is not JSON');
    }
  }

  /** One exchange with the tracker: its refusals, its silence and broken connections as typed rejections. */
  private async call(exchange: () => Promise<TrackerAnswer>): Promise<TrackerAnswer> {
    let answer: TrackerAnswer;
    try {
      answer = await exchange();
    } catch (error) {
      if (error instanceof TrackerTimedOut) throw trackerRejections.timeout(this.configured().timeoutMillis);
      if (error instanceof TrackerConnectionFailed) throw trackerRejections.unreachable(error.message);
      throw error;
    }
    if (answer.status < 200 || answer.status > 299) throw trackerRejections.responseError(answer.status, contentOf(answer.body));
    return answer;
  }
}
