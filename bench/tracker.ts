import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OidcIssuer } from '../test/support/oidcIssuer.js';
import { TrackerServer } from '../test/support/trackerServer.js';
import { json, measure, startProcess } from './harness.js';

const USERS = 8;

/**
 * The issue-tracker integration's cost: searches and project listings through the registry (each
 * signed RSA-SHA1 with the user's token and forwarded to a loopback tracker that verifies the
 * signature), at concurrency 8 for 8 users, against the same tracker's signature checks alone.
 */
export const benchTracker = async (count: number): Promise<void> => {
  const [tracker, provider] = await Promise.all([TrackerServer.start(), OidcIssuer.start()]);
  const dataDir = mkdtempSync(join(tmpdir(), 'registry-bench-tracker-'));
  const config = join(dataDir, 'config.json');
  writeFileSync(
    config,
    JSON.stringify({ plugins: { jira: { enabled: true, base: tracker.base, 'consumer-key': tracker.consumerKey, 'private-key': tracker.privateKeyPem } } }),
  );
  const server = await startProcess(join(dataDir, 'data'), 22_000 + Math.floor(Math.random() * 1000), { CONFIG_FILE: config });
  try {
    const { url } = server;
    await json(`${url}/v1/realms/bench`, 'PUT', { name: 'bench', openIdConfig: provider.openIdConfig });
    const headers = await Promise.all(
      Array.from({ length: USERS }, async (_, i) => ({
        authorization: `Bearer ${await provider.sign({ sub: `user${i}` }, { expiresIn: 3_600 })}`,
        'content-type': 'application/json',
      })),
    );
    const post = async (path: string, user: number, body?: unknown) => {
      const res = await fetch(`${url}${path}`, { method: 'POST', headers: headers[user]!, body: body === undefined ? null : JSON.stringify(body) });
      const answer = (await res.json()) as { value?: string };
      if (res.status >= 300) throw new Error(`${path}: ${res.status} ${JSON.stringify(answer)}`);
      return answer;
    };
    for (let user = 0; user < USERS; user++) {
      const { value } = await post('/v1/tracker/request-token', user);
      await post('/v1/tracker/access-token', user, { value: tracker.authorize(value!, `account${user}`) });
      await post('/v1/tracker/issue', user, { fields: { summary: `issue of user ${user}` } });
    }
    console.log(`\nissue tracker: ${count} calls at concurrency 8 by ${USERS} users, each signed RSA-SHA1 and verified by a loopback tracker`);
    await measure('tracker search', count, 8, async (i) => void (await post('/v1/tracker/search', i % USERS, { jql: 'project = REG' })));
    await measure('tracker project list', count, 8, async (i) => {
      const res = await fetch(`${url}/v1/tracker/project?recent=1`, { headers: headers[i % USERS]! });
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`project: ${res.status}`);
    });
  } finally {
    await server.stop();
    await Promise.all([tracker.stop(), provider.stop()]);
    rmSync(dataDir, { recursive: true, force: true });
  }
};
