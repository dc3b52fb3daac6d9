import { createHash } from 'node:crypto';
import { expect } from 'chai';
import { serve } from '../support/server.js';
import type { TestServer } from '../support/server.js';
import { client } from '../support/client.js';
import { OidcIssuer } from '../support/oidcIssuer.js';

/** The settings the page is given, from its inline JSON. */
const settingsOf = (html: string): Record<string, string> =>
  JSON.parse(/<script type="application\/json" id="registry-settings">(.*?)<\/script>/s.exec(html)![1]!);

describe('the built-in frontend is served by the registry from its own files', function () {
  this.timeout(30_000);
  let server: TestServer;
  let api: ReturnType<typeof client>;
  let provider: OidcIssuer;
  before(async () => (provider = await OidcIssuer.start()));
  after(() => provider?.stop());
  serve((s, a) => ((server = s), (api = a)), { frontend: { enableRedirects: false, realm: 'r1', clientId: 'web-ui' } });

  it('answers every page below /web with the same HTML, naming its own script and style sheet and no other host', async () => {
    for (const path of [
      '/web',
      '/web/',
      '/web/o',
      '/web/o/p',
      '/web/o/p/events',
      `/web/o/p/resources/${encodeURIComponent('http://ex.org/a')}`,
      '/web/callback?code=x',
    ]) {
      const res = await api.get(path);
      expect([path, res.status, res.headers.get('content-type')]).to.deep.equal([path, 200, 'text/html; charset=utf-8']);
      expect(res.text).to.include('<script type="module" src="/web/assets/app.js">').and.include('href="/web/assets/style.css"');
      expect(res.text).to.include('<main id="main"');
      expect(res.headers.get('content-security-policy')).to.include("script-src 'self'").and.include("frame-ancestors 'none'");
      expect(res.headers.get('referrer-policy')).to.equal('no-referrer');
      expect(res.text.match(/(?:src|href)="([^"]+)"/g)).to.deep.equal([
        'href="/web/assets/style.css"',
        'src="/web/assets/app.js"',
        'href="#main"',
        'href="/web/"',
      ]);
    }
    const script = await api.get('/web/assets/app.js');
    expect([script.status, script.headers.get('content-type')]).to.deep.equal([200, 'text/javascript; charset=utf-8']);
    expect(script.text).to.include('code_challenge_method').and.not.include('import ');
    expect((await api.get('/web/assets/style.css')).headers.get('content-type')).to.equal('text/css; charset=utf-8');
    expect((await api.get('/web/assets/other.js')).status).to.equal(404);
  });

  it('names the configured realm and its discovery document once the realm exists, and leaves sign-in out before', async () => {
    expect(settingsOf((await api.get('/web/')).text)).to.deep.equal({ api: server.url, web: `${server.url}/web`, clientId: 'web-ui' });
    expect((await api.put('/v1/realms/r1', { name: 'r1', openIdConfig: provider.openIdConfig })).status).to.equal(201);
    expect(settingsOf((await api.get('/web/')).text)).to.deep.equal({
      api: server.url,
      web: `${server.url}/web`,
      clientId: 'web-ui',
      realm: 'r1',
      openIdConfig: provider.openIdConfig,
    });
  });
});

describe('the test OpenID provider: authorization code with PKCE (S256)', function () {
  let provider: OidcIssuer;
  before(async () => {
    provider = await OidcIssuer.start();
    provider.loginAs = { sub: 'alice' };
  });
  after(() => provider?.stop());
  const VERIFIER = 'a-verifier-of-at-least-43-characters-0123456789abcdef';
  const CHALLENGE = createHash('sha256').update(VERIFIER).digest('base64url');
  const code = async () => {
    const query = new URLSearchParams({
      response_type: 'code',
      client_id: 'web',
      redirect_uri: 'http://127.0.0.1/cb',
      code_challenge: CHALLENGE,
      code_challenge_method: 'S256',
      state: 's1',
    });
    const res = await fetch(`${provider.issuer}/auth?${query}`, { redirect: 'manual' });
    const back = new URL(res.headers.get('location')!);
    expect([res.status, back.searchParams.get('state')]).to.deep.equal([302, 's1']);
    return back.searchParams.get('code')!;
  };
  const exchange = (c: string, verifier: string) =>
    fetch(`${provider.issuer}/token`, {
      method: 'POST',
      body: new URLSearchParams({ grant_type: 'authorization_code', code: c, client_id: 'web', redirect_uri: 'http://127.0.0.1/cb', code_verifier: verifier }),
    });

  it('exchanges a code once, and only with the verifier of its challenge', async () => {
    expect((await exchange(await code(), 'another-verifier')).status).to.equal(400);
    const c = await code();
    const granted = await exchange(c, VERIFIER);
    expect(granted.status).to.equal(200);
    expect(((await granted.json()) as { access_token: string }).access_token).to.equal(provider.issuedTokens[0]);
    expect((await exchange(c, VERIFIER)).status).to.equal(400);
  });
});
