import { expect } from 'chai';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { call } from '../support/client.js';
import { OidcIssuer } from '../support/oidcIssuer.js';
import { freePort, killStarted, ready, start } from '../support/process.js';
import { TrackerServer } from '../support/trackerServer.js';

/** The registry as `npm start` runs it, configured by a JSON file: the tracker works, and nothing secret reaches its log. */
describe('Issue tracker configured by plugins.jira in the configuration file (a separate process)', () => {
  let tracker: TrackerServer;
  let provider: OidcIssuer;
  let dir: string;

  before(async () => {
    [tracker, provider] = await Promise.all([TrackerServer.start(), OidcIssuer.start()]);
    dir = mkdtempSync(join(tmpdir(), 'tracker-process-'));
  });
  after(async () => {
    killStarted();
    await Promise.all([tracker.stop(), provider.stop()]);
    rmSync(dir, { recursive: true, force: true });
  });

  const configFile = (jira: Record<string, unknown>): string => {
    const path = join(dir, `config-${Math.random().toString(36).slice(2)}.json`);
    writeFileSync(path, JSON.stringify({ plugins: { jira } }));
    return path;
  };

  it('reads enabled (a JSON boolean), base, consumer-key, private-key and timeout (a number), and logs no token, secret or key', async () => {
    const port = await freePort();
    const jira = { enabled: true, base: tracker.base, 'consumer-key': tracker.consumerKey, 'private-key': tracker.privateKeyPem, timeout: 3000 };
    const registry = start({
      PORT: String(port),
      BASE_URL: `http://127.0.0.1:${port}`,
      DATA_DIR: join(dir, 'data'),
      CONFIG_FILE: configFile(jira),
      LOG_LEVEL: 'info',
      WORKERS: '0',
    });
    await ready(registry);
    expect((await call(registry.url, 'PUT', '/v1/realms/r1', { name: 'r1', openIdConfig: provider.openIdConfig })).status).to.equal(201);
    const auth = { authorization: `Bearer ${await provider.sign({ sub: 'alice' })}` };
    const requested = await call(registry.url, 'POST', '/v1/tracker/request-token', undefined, auth);
    expect(requested.status, requested.text).to.equal(200);
    const verifier = tracker.authorize(requested.body.value, 'alice-jira');
    expect((await call(registry.url, 'POST', '/v1/tracker/access-token', { value: verifier }, auth)).status).to.equal(200);
    expect((await call(registry.url, 'POST', '/v1/tracker/issue', { fields: { summary: 'logged?' } }, auth)).status).to.equal(201);
    expect((await call(registry.url, 'POST', '/v1/tracker/issue', { fields: {} }, auth)).status).to.equal(400);
    expect((await call(registry.url, 'POST', '/v1/tracker/access-token', { value: verifier }, auth)).status).to.equal(400);
    registry.child.kill('SIGTERM');
    await registry.exited;
    const log = registry.output();
    expect(log).to.contain('/v1/tracker/issue');
    for (const secret of [...tracker.secrets(), verifier]) expect(log).to.not.contain(secret);
    const keyBody = tracker.privateKeyPem.split('\n')[5]!;
    expect(log).to.not.contain(keyBody);
  });

  it('stops the start-up naming a private key it cannot read', async () => {
    const port = await freePort();
    const jira = { enabled: true, base: tracker.base, 'consumer-key': tracker.consumerKey, 'private-key': 'not a key' };
    const registry = start({ PORT: String(port), DATA_DIR: join(dir, 'bad'), CONFIG_FILE: configFile(jira), WORKERS: '0' });
    expect(await registry.exited).to.not.equal(0);
    expect(registry.output()).to.contain('plugins.jira.private-key');
  });
});
