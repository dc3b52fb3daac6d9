import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OidcIssuer } from '../test/support/oidcIssuer.js';
import { json, measure, startProcess } from './harness.js';

const get = async (url: string, token?: string) => {
  const res = await fetch(url, token ? { headers: { authorization: `Bearer ${token}` } } : {});
  await res.arrayBuffer();
  if (res.status !== 200) throw new Error(`${url}: ${res.status}`);
};

/**
 * Access control's cost on reads: fetch and listing as anonymous under the bootstrap ACL against
 * the same with a verified bearer token (a realm of a test OpenID provider on loopback), in one run.
 */
export const benchAccessOverhead = async (count: number): Promise<void> => {
  const provider = await OidcIssuer.start();
  const dataDir = mkdtempSync(join(tmpdir(), 'registry-bench-access-'));
  const port = 20_000 + Math.floor(Math.random() * 1000);
  const server = await startProcess(dataDir, port);
  try {
    const { url } = server;
    await json(`${url}/v1/realms/bench`, 'PUT', { name: 'bench', openIdConfig: provider.openIdConfig });
    await json(`${url}/v1/orgs/bench`, 'PUT', {});
    await json(`${url}/v1/projects/bench/main`, 'PUT', {});
    for (let i = 0; i < 200; i++)
      await json(`${url}/v1/resources/bench/main/_/r${i}`, 'PUT', { '@context': { '@vocab': 'http://schema.org/' }, name: `n${i}` });
    const tokens = await Promise.all(Array.from({ length: 50 }, (_, i) => provider.sign({ sub: `user${i}`, groups: ['g1'] }, { expiresIn: 3_600 })));
    console.log(`\naccess control: ${count} fetches and listings at concurrency 8, anonymous (bootstrap ACL) against 50 users' verified tokens`);
    const rate = async (name: string, op: (i: number) => Promise<void>) => {
      const started = performance.now();
      await measure(name, count, 8, op);
      return count / ((performance.now() - started) / 1000);
    };
    // Warm both paths first (compacted forms, token cache, JIT), so neither pays for the other.
    for (let i = 0; i < 1_000; i++)
      await Promise.all([get(`${url}/v1/resources/bench/main/_/r${i % 200}`), get(`${url}/v1/resources/bench/main`, tokens[i % 50])]);
    const fetchAnonymous = await rate('fetch, anonymous', (i) => get(`${url}/v1/resources/bench/main/_/r${i % 200}`));
    const fetchToken = await rate('fetch, bearer token', (i) => get(`${url}/v1/resources/bench/main/_/r${i % 200}`, tokens[i % 50]));
    const listAnonymous = await rate('listing, anonymous', () => get(`${url}/v1/resources/bench/main`));
    const listToken = await rate('listing, bearer token', (i) => get(`${url}/v1/resources/bench/main`, tokens[i % 50]));
    console.log(
      `overhead of a verified token: fetch ${((1 - fetchToken / fetchAnonymous) * 100).toFixed(1)} %, listing ${((1 - listToken / listAnonymous) * 100).toFixed(1)} % (target < 10 %)`,
    );
  } finally {
    await server.stop();
    await provider.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
};
