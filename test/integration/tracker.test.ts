import { expect } from 'chai';
import { generateKeyPairSync } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { OAuth } from 'oauth';
import type { TrackerOptions } from '../../src/tracker/TrackerOptions.js';
import { call, type Reply } from '../support/client.js';
import { OidcIssuer, closedPortAddress } from '../support/oidcIssuer.js';
import { startServer, type TestServer } from '../support/server.js';
import { TrackerServer } from '../support/trackerServer.js';

/** Every file below a directory, as text. */
const filesBelow = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesBelow(path) : [readFileSync(path, 'latin1')];
  });

describe('Issue tracker (spec §4.8): OAuth 1.0a with a tracker that verifies every signature', () => {
  let tracker: TrackerServer;
  let provider: OidcIssuer;
  let server: TestServer;
  const tokens: Record<string, string> = {};
  const replies: Reply[] = [];
  const trackerConfig = (overrides: Partial<TrackerOptions> = {}): TrackerOptions => ({
    base: tracker.base,
    consumerKey: tracker.consumerKey,
    privateKey: tracker.privateKey,
    timeoutMillis: 1_000,
    ...overrides,
  });

  /** A request as `user` (a realm user, or undefined for anonymous); every answer is kept to look for leaked secrets. */
  const as = async (user: string | undefined, method: string, path: string, body?: unknown, base = server.url): Promise<Reply> => {
    const reply = await call(base, method, path, body, user ? { authorization: `Bearer ${tokens[user]}` } : {});
    replies.push(reply);
    return reply;
  };

  /** The whole authorization flow for `user`, granting access at the tracker as `account`. */
  const authorize = async (user: string, account: string): Promise<void> => {
    const requested = await as(user, 'POST', '/v1/tracker/request-token');
    expect(requested.status, requested.text).to.equal(200);
    const verifier = tracker.authorize(requested.body.value, account);
    const granted = await as(user, 'POST', '/v1/tracker/access-token', { value: verifier });
    expect(granted.status, granted.text).to.equal(200);
  };

  const accessTokenOf = (account: string): string => [...tracker.accessTokens].find(([, a]) => a === account)![0];

  before(async () => {
    [tracker, provider] = await Promise.all([TrackerServer.start(), OidcIssuer.start()]);
    server = await startServer({ tracker: trackerConfig() });
    const realm = await call(server.url, 'PUT', '/v1/realms/r1', { name: 'r1', openIdConfig: provider.openIdConfig });
    expect(realm.status, realm.text).to.equal(201);
    for (const name of ['alice', 'bob', 'carol', 'dave', 'erin', 'frank']) tokens[name] = await provider.sign({ sub: name });
  });
  after(async () => {
    await server.stop(true);
    await Promise.all([tracker.stop(), provider.stop()]);
  });
  afterEach(() => {
    tracker.hang = false;
    tracker.garbageRequestToken = undefined;
  });

  it('runs the flow: request token, the authorization address, the verifier, then create, edit, list and search with the access token', async () => {
    const refusedBefore = tracker.refusals.length;
    const requested = await as('alice', 'POST', '/v1/tracker/request-token');
    expect(requested.status).to.equal(200);
    expect(Object.keys(requested.body)).to.deep.equal(['value']);
    expect(requested.body.value).to.match(new RegExp(`^${tracker.base}/plugins/servlet/oauth/authorize\\?oauth_token=[0-9a-f]{32}$`));
    const sent = tracker.received.at(-1)!;
    expect(sent.path).to.equal('/plugins/servlet/oauth/request-token');
    expect(sent.oauth['oauth_callback']).to.equal('oob');
    expect(sent.oauth['oauth_signature_method']).to.equal('RSA-SHA1');

    const verifier = tracker.authorize(requested.body.value, 'alice-jira');
    const granted = await as('alice', 'POST', '/v1/tracker/access-token', { value: verifier });
    expect(granted.status, granted.text).to.equal(200);
    expect(granted.body).to.deep.equal({});
    expect(tracker.received.at(-1)!.oauth['oauth_verifier']).to.equal(verifier);

    const created = await as('alice', 'POST', '/v1/tracker/issue', {
      fields: { project: { key: 'REG' }, summary: 'A broken link', issuetype: { name: 'Bug' } },
    });
    expect(created.status, created.text).to.equal(201);
    expect(created.body).to.have.keys('id', 'key', 'self');
    expect(tracker.received.at(-1)!.contentType).to.match(/^application\/json/);
    expect(JSON.parse(tracker.received.at(-1)!.body)).to.deep.equal({
      fields: { project: { key: 'REG' }, summary: 'A broken link', issuetype: { name: 'Bug' } },
    });

    const edited = await as('alice', 'PUT', `/v1/tracker/issue/${created.body.key}`, { fields: { summary: 'Two broken links' } });
    expect(edited.status, edited.text).to.equal(204);
    expect(edited.text).to.equal('');

    const projects = await as('alice', 'GET', '/v1/tracker/project');
    expect(projects.status).to.equal(200);
    expect(projects.body.map((p: { key: string }) => p.key)).to.deep.equal(['REG', 'OPS']);
    expect((await as('alice', 'GET', '/v1/tracker/project?recent=1')).body).to.have.length(1);

    const found = await as('alice', 'POST', '/v1/tracker/search', { jql: 'project = REG', maxResults: 10 });
    expect(found.status).to.equal(200);
    // Alice's other issues (of other tests) may be there too: this one is, edited.
    expect(found.body.total).to.equal(found.body.issues.length).and.be.at.least(1);
    expect(found.body.issues.map((i: { fields: { summary: string } }) => i.fields.summary)).to.include('Two broken links');
    expect(found.body.jql).to.equal('project = REG');
    expect(tracker.refusals.slice(refusedBefore)).to.deep.equal([]);
  });

  it('forwards no query but `recent`: updateHistory, notifyUsers, expand, includeArchived and browseArchive never reach the tracker', async () => {
    await authorize('frank', 'frank-jira');
    const created = await as('frank', 'POST', '/v1/tracker/issue?updateHistory=true', { fields: { summary: 'x' } });
    expect(created.status).to.equal(201);
    expect(tracker.received.at(-1)!.query).to.equal('');
    expect((await as('frank', 'PUT', `/v1/tracker/issue/${created.body.key}?notifyUsers=false`, { fields: {} })).status).to.equal(204);
    expect(tracker.received.at(-1)!.query).to.equal('');
    const listed = await as('frank', 'GET', '/v1/tracker/project?recent=1&expand=description&includeArchived=true&browseArchive=true');
    expect(listed.status).to.equal(200);
    expect(tracker.received.at(-1)!.query).to.equal('?recent=1');
    expect((await as('frank', 'GET', '/v1/tracker/project?expand=lead')).status).to.equal(200);
    expect(tracker.received.at(-1)!.query).to.equal('');
    expect((await as('frank', 'POST', '/v1/tracker/search?expand=names', { jql: '' })).status).to.equal(200);
    expect(tracker.received.at(-1)!.query).to.equal('');

    // Nor as a field of the operation's body; the rest of a body reaches the tracker unchanged.
    expect((await as('frank', 'POST', '/v1/tracker/issue', { fields: { summary: 'y' }, updateHistory: true })).status).to.equal(201);
    expect(JSON.parse(tracker.received.at(-1)!.body)).to.deep.equal({ fields: { summary: 'y' } });
    expect((await as('frank', 'PUT', `/v1/tracker/issue/${created.body.key}`, { fields: {}, notifyUsers: false })).status).to.equal(204);
    expect(JSON.parse(tracker.received.at(-1)!.body)).to.deep.equal({ fields: {} });
    const search = { jql: 'project = REG', startAt: 0, expand: ['names'], fields: ['summary'] };
    expect((await as('frank', 'POST', '/v1/tracker/search', search)).status).to.equal(200);
    expect(JSON.parse(tracker.received.at(-1)!.body)).to.deep.equal(search);

    const count = tracker.received.length;
    const bad = await as('frank', 'GET', '/v1/tracker/project?recent=many');
    expect(bad.status).to.equal(400);
    expect(bad.body['@type']).to.equal('MalformedQueryParamRejection');
    expect(tracker.received.length).to.equal(count);
  });

  it('keeps an issue id inside the issue path: it reaches the tracker encoded', async () => {
    await authorize('frank', 'frank-jira');
    const r = await as('frank', 'PUT', '/v1/tracker/issue/..%2F..%2Fproject', { fields: {} });
    expect(r.status).to.equal(404);
    expect(tracker.received.at(-1)!.path).to.equal('/rest/api/2/issue/..%2F..%2Fproject');
  });

  it('NoTokenError before any flow, AccessTokenExpected with only a request token, RequestTokenExpected once the flow is complete', async () => {
    const count = tracker.received.length;
    for (const [method, path, body] of [
      ['POST', '/v1/tracker/access-token', { value: 'code' }],
      ['POST', '/v1/tracker/issue', { fields: {} }],
      ['PUT', '/v1/tracker/issue/REG-1', { fields: {} }],
      ['GET', '/v1/tracker/project', undefined],
      ['POST', '/v1/tracker/search', {}],
    ] as const) {
      const r = await as('carol', method, path, body);
      expect(r.status, path).to.equal(400);
      expect(r.body).to.deep.equal({
        '@context': 'https://bluebrain.github.io/nexus/contexts/error.json',
        '@type': 'NoTokenError',
        reason: 'No token has been found for the current user.',
      });
    }
    expect(tracker.received.length).to.equal(count);

    const requested = await as('carol', 'POST', '/v1/tracker/request-token');
    const early = await as('carol', 'POST', '/v1/tracker/search', {});
    expect(early.status).to.equal(400);
    expect(early.body['@type']).to.equal('AccessTokenExpected');
    expect(early.body.reason).to.equal('An access token was expected for the current user.');

    const verifier = tracker.authorize(requested.body.value, 'carol-jira');
    expect((await as('carol', 'POST', '/v1/tracker/access-token', { value: verifier })).status).to.equal(200);
    const again = await as('carol', 'POST', '/v1/tracker/access-token', { value: verifier });
    expect(again.status).to.equal(400);
    expect(again.body['@type']).to.equal('RequestTokenExpected');
    expect(again.body.reason).to.equal('A request token was expected for the current user.');
  });

  it('refuses callers that are not a realm user (AuthorizationFailed) without calling the tracker', async () => {
    const count = tracker.received.length;
    for (const [method, path] of [
      ['POST', '/v1/tracker/request-token'],
      ['POST', '/v1/tracker/search'],
      ['GET', '/v1/tracker/project'],
    ]) {
      const r = await as(undefined, method!, path!, method === 'POST' && path !== '/v1/tracker/request-token' ? {} : undefined);
      expect(r.status, path).to.equal(403);
      expect(r.body['@type']).to.equal('AuthorizationFailed');
    }
    expect(tracker.received.length).to.equal(count);
  });

  it('refuses a malformed verifier or a body that is no JSON object, before calling the tracker', async () => {
    const count = tracker.received.length;
    for (const body of [{}, { value: 3 }, { value: 'a', other: 1 }, []]) {
      const r = await as('dave', 'POST', '/v1/tracker/access-token', body);
      expect(r.status, JSON.stringify(body)).to.equal(400);
      expect(r.body['@type']).to.equal('MalformedRequestContentRejection');
    }
    const r = await as('dave', 'POST', '/v1/tracker/issue', ['not', 'an', 'object']);
    expect(r.body['@type']).to.equal('MalformedRequestContentRejection');
    const notJson = await as('dave', 'POST', '/v1/tracker/search', '{"jql": ');
    expect(notJson.body['@type']).to.equal('MalformedRequestContentRejection');
    expect(tracker.received.length).to.equal(count);
  });

  it("relays the tracker's errors as JiraResponseError with its status and body in content (JSON, or text as a string)", async () => {
    await authorize('dave', 'dave-jira');
    const invalid = await as('dave', 'POST', '/v1/tracker/issue', { fields: { project: { key: 'REG' } } });
    expect(invalid.status).to.equal(400);
    expect(invalid.body).to.deep.equal({
      '@context': 'https://bluebrain.github.io/nexus/contexts/error.json',
      '@type': 'JiraResponseError',
      reason: 'Jira responded with an error with status code 400',
      content: { errorMessages: [], errors: { summary: 'You must specify a summary of the issue.' } },
    });
    const missing = await as('dave', 'PUT', '/v1/tracker/issue/REG-999', { fields: {} });
    expect(missing.status).to.equal(404);
    expect(missing.body['@type']).to.equal('JiraResponseError');
    expect(missing.body.content.errorMessages).to.deep.equal(['Issue does not exist or you do not have permission to see it.']);

    // A request token the user never authorized at the tracker.
    await as('erin', 'POST', '/v1/tracker/request-token');
    const unauthorized = await as('erin', 'POST', '/v1/tracker/access-token', { value: 'any-code' });
    expect(unauthorized.status).to.equal(401);
    expect(unauthorized.body.content).to.equal('oauth_problem=permission_unknown');

    const requested = await as('erin', 'POST', '/v1/tracker/request-token');
    tracker.authorize(requested.body.value, 'erin-jira');
    const wrongCode = await as('erin', 'POST', '/v1/tracker/access-token', { value: 'not-the-code' });
    expect(wrongCode.status).to.equal(401);
    expect(wrongCode.body['@type']).to.equal('JiraResponseError');
    expect(wrongCode.body.content).to.equal('oauth_problem=verifier_invalid');
  });

  it("an expired or unknown access token is the tracker's 401 token_rejected, relayed", async () => {
    await authorize('erin', 'erin-jira');
    expect((await as('erin', 'GET', '/v1/tracker/project')).status).to.equal(200);
    tracker.expire(accessTokenOf('erin-jira'));
    const r = await as('erin', 'GET', '/v1/tracker/project');
    expect(r.status).to.equal(401);
    expect(r.body['@type']).to.equal('JiraResponseError');
    expect(r.body.content).to.equal('oauth_problem=token_rejected');
    expect(tracker.refusals.at(-1)).to.equal('token_rejected');
    // A new flow replaces the user's token.
    await authorize('erin', 'erin-jira');
    expect((await as('erin', 'GET', '/v1/tracker/project')).status).to.equal(200);
  });

  it('keeps separate tokens for two users: each acts at the tracker as their own account', async () => {
    await authorize('alice', 'alice-jira');
    await authorize('bob', 'bob-jira');
    expect((await as('alice', 'POST', '/v1/tracker/issue', { fields: { summary: "Alice's issue" } })).status).to.equal(201);
    expect((await as('bob', 'POST', '/v1/tracker/issue', { fields: { summary: "Bob's issue" } })).status).to.equal(201);
    const bobToken = tracker.received.at(-1)!.oauth['oauth_token'];
    const alices = await as('alice', 'POST', '/v1/tracker/search', { jql: '' });
    const aliceToken = tracker.received.at(-1)!.oauth['oauth_token'];
    expect(aliceToken).to.not.equal(bobToken);
    expect(tracker.accessTokens.get(aliceToken!)).to.equal('alice-jira');
    expect(tracker.accessTokens.get(bobToken!)).to.equal('bob-jira');
    expect(alices.body.issues.map((i: { fields: { summary: string } }) => i.fields.summary)).to.not.include("Bob's issue");
    const bobs = await as('bob', 'POST', '/v1/tracker/search', { jql: '' });
    expect(bobs.body.issues.map((i: { fields: { summary: string } }) => i.fields.summary)).to.deep.equal(["Bob's issue"]);
    // Bob cannot edit Alice's issues: the tracker decides, with Bob's token.
    const alicesKey = alices.body.issues[0].key as string;
    expect((await as('bob', 'PUT', `/v1/tracker/issue/${alicesKey}`, { fields: { summary: 'mine now' } })).status).to.equal(404);
  });

  it('answers 502 TrackerTimeout when the tracker does not answer within plugins.jira.timeout', async () => {
    await authorize('alice', 'alice-jira');
    tracker.hang = true;
    // The tracker never answers while hanging: any answer is the timeout's.
    const r = await as('alice', 'POST', '/v1/tracker/search', { jql: '' });
    expect(r.status).to.equal(502);
    expect(r.body['@type']).to.equal('TrackerTimeout');
    expect(r.body.reason).to.contain('1000 ms');
    const flow = await as('alice', 'POST', '/v1/tracker/request-token');
    expect(flow.status).to.equal(502);
    tracker.hang = false;
    // The unanswered request-token did not replace the user's access token.
    expect((await as('alice', 'POST', '/v1/tracker/search', { jql: '' })).status).to.equal(200);
  });

  it('answers 502 TrackerUnexpectedAnswer when the tracker grants no token', async () => {
    await authorize('dave', 'dave-jira');
    tracker.garbageRequestToken = 'hello';
    const r = await as('dave', 'POST', '/v1/tracker/request-token');
    tracker.garbageRequestToken = undefined;
    expect(r.status).to.equal(502);
    expect(r.body['@type']).to.equal('TrackerUnexpectedAnswer');
    // Dave's access token was not replaced.
    expect((await as('dave', 'GET', '/v1/tracker/project')).status).to.equal(200);
  });

  it('never answers an access token, a token secret or the consumer key', async () => {
    await authorize('frank', 'frank-jira');
    await authorize('dave', 'dave-jira');
    expect((await as('frank', 'POST', '/v1/tracker/issue', { fields: { summary: "Frank's issue" } })).status).to.equal(201);
    const secrets = tracker.secrets();
    expect(secrets.length).to.be.greaterThan(5);
    const keyLine = tracker.privateKeyPem.split('\n')[5]!;
    for (const reply of replies) for (const secret of [...secrets, keyLine]) expect(reply.text).to.not.contain(secret);
  });

  it('keeps the tokens across a restart, encrypted: no token or secret appears in the data directory', async () => {
    await authorize('alice', 'alice-jira');
    const dataDir = server.dataDir;
    await server.stop();
    expect(statSync(join(dataDir, 'tracker', 'tokens.json')).isFile()).to.equal(true);
    for (const text of filesBelow(dataDir)) for (const secret of tracker.secrets()) expect(text).to.not.contain(secret);
    server = await startServer({ tracker: trackerConfig() }, dataDir);
    const r = await as('alice', 'POST', '/v1/tracker/search', { jql: '' });
    expect(r.status, r.text).to.equal(200);
    expect(tracker.accessTokens.get(tracker.received.at(-1)!.oauth['oauth_token']!)).to.equal('alice-jira');
  });

  describe('a registry the tracker does not trust, or cannot reach', () => {
    it('a signature made with another key is signature_invalid, relayed as JiraResponseError 401', async () => {
      const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
      const other = await startServer({ tracker: trackerConfig({ privateKey }) });
      try {
        await call(other.url, 'PUT', '/v1/realms/r1', { name: 'r1', openIdConfig: provider.openIdConfig });
        const refused = await as('alice', 'POST', '/v1/tracker/request-token', undefined, other.url);
        expect(refused.status).to.equal(401);
        expect(refused.body['@type']).to.equal('JiraResponseError');
        expect(refused.body.content).to.equal('oauth_problem=signature_invalid');
        const unknown = await startServer({ tracker: trackerConfig({ consumerKey: 'someone-else' }) }, other.dataDir);
        await other.stop();
        try {
          const r2 = await as('alice', 'POST', '/v1/tracker/request-token', undefined, unknown.url);
          expect(r2.status).to.equal(401);
          expect(r2.body.content).to.equal('oauth_problem=consumer_key_unknown');
        } finally {
          await unknown.stop(true);
        }
      } finally {
        await other.stop().catch(() => undefined);
      }
    });

    it('a tracker that cannot be reached is 502 TrackerUnreachable', async () => {
      const closed = new URL(await closedPortAddress()).origin;
      const other = await startServer({ tracker: trackerConfig({ base: closed }) });
      try {
        await call(other.url, 'PUT', '/v1/realms/r1', { name: 'r1', openIdConfig: provider.openIdConfig });
        const r = await as('alice', 'POST', '/v1/tracker/request-token', undefined, other.url);
        expect(r.status).to.equal(502);
        expect(r.body['@type']).to.equal('TrackerUnreachable');
      } finally {
        await other.stop(true);
      }
    });

    it('without plugins.jira configured every tracker route is 400 TrackerNotConfigured, at once', async () => {
      const plain = await startServer();
      try {
        for (const [method, path, body] of [
          ['POST', '/v1/tracker/request-token', undefined],
          ['POST', '/v1/tracker/access-token', { value: 'code' }],
          ['POST', '/v1/tracker/issue', { fields: {} }],
          ['PUT', '/v1/tracker/issue/REG-1', { fields: {} }],
          ['GET', '/v1/tracker/project', undefined],
          ['POST', '/v1/tracker/search', {}],
        ] as const) {
          const r = await as(undefined, method, path, body, plain.url);
          expect(r.status, path).to.equal(400);
          expect(r.body['@type']).to.equal('TrackerNotConfigured');
          expect(r.body.reason).to.contain('not configured');
        }
      } finally {
        await plain.stop(true);
      }
    });
  });

  describe('the test tracker itself', () => {
    /** A request-token request signed by the oauth library (oauth_callback signed in its header), its header changed by `mutate`. */
    const signedFetch = (mutate: (header: string) => string, query = '') => {
      const url = `${tracker.base}/plugins/servlet/oauth/request-token`;
      const client = new OAuth(url, url, tracker.consumerKey, tracker.privateKeyPem, '1.0', 'oob', 'RSA-SHA1');
      const header = client.authHeader(`${url}?oauth_callback=oob`, '', '', 'POST');
      return fetch(`${url}${query}`, { method: 'POST', headers: { authorization: mutate(header) } });
    };

    it('accepts a request signed by the oauth library, and refuses it tampered, moved, replayed, stale or unsigned', async () => {
      let sent = '';
      const ok = await signedFetch((h) => (sent = h));
      expect(ok.status).to.equal(200);
      expect(await ok.text()).to.match(/^oauth_token=[0-9a-f]{32}&oauth_token_secret=[0-9a-f]{32}&oauth_callback_confirmed=true$/);
      const replayed = await fetch(`${tracker.base}/plugins/servlet/oauth/request-token`, { method: 'POST', headers: { authorization: sent } });
      expect(await replayed.text()).to.equal('oauth_problem=nonce_used');
      // The query is part of the signed base string: the same signature does not cover another one.
      const moved = await signedFetch((h) => h, '?project=other');
      expect(moved.status).to.equal(401);
      expect(await moved.text()).to.equal('oauth_problem=signature_invalid');
      const tampered = await signedFetch((h) => h.replace(/oauth_signature="(.)/, (_m, c: string) => `oauth_signature="${c === 'A' ? 'B' : 'A'}`));
      expect(tampered.status).to.equal(401);
      expect(await tampered.text()).to.equal('oauth_problem=signature_invalid');
      expect(tampered.headers.get('www-authenticate')).to.match(/^OAuth /);
      const otherCallback = await signedFetch((h) => h.replace('oauth_callback="oob"', 'oauth_callback="http%3A%2F%2Fevil.example"'));
      expect(await otherCallback.text()).to.equal('oauth_problem=signature_invalid');
      const stale = await signedFetch((h) => h.replace(/oauth_timestamp="(\d+)"/, (_m, t: string) => `oauth_timestamp="${Number(t) - 1000}"`));
      expect(await stale.text()).to.equal('oauth_problem=timestamp_refused');
      const hmac = await signedFetch((h) => h.replace('RSA-SHA1', 'HMAC-SHA1'));
      expect(await hmac.text()).to.equal('oauth_problem=signature_method_rejected');
      const unsigned = await fetch(`${tracker.base}/rest/api/2/project`);
      expect(unsigned.status).to.equal(400);
      expect(await unsigned.text()).to.equal('oauth_problem=parameter_absent');
    });
  });
});
