import { expect } from 'chai';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, httpLimits, loadConfig } from '../../src/config/Config.js';

const refused = (env: NodeJS.ProcessEnv): ConfigError => {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error(`accepted ${JSON.stringify(env)}`);
};

describe('connection shares and trusted proxies: settings', () => {
  it('defaults: a tenth of MAX_CONNECTIONS per client, 16 streams per caller, no trusted proxy', () => {
    const config = loadConfig({});
    expect([config.http?.maxConnections, config.http?.maxConnectionsPerClient, config.sseStreamsPerCaller, config.trustedProxies]).to.deep.equal([
      1_000,
      100,
      16,
      [],
    ]);
    // Derived from a smaller cap, within the share.
    const small = loadConfig({ MAX_CONNECTIONS: '30' });
    expect([small.http?.maxConnectionsPerClient, small.sseStreamsPerCaller]).to.deep.equal([3, 3]);
    // Without a configured share (tests, embedding), the same default.
    expect(httpLimits({ http: { maxConnections: 50 } } as never).maxConnectionsPerClient).to.equal(5);
  });

  it('reads them from the environment and the config file (a list or an array)', () => {
    const config = loadConfig({
      MAX_CONNECTIONS_PER_CLIENT: '40',
      SSE_STREAMS_PER_CALLER: '4',
      TRUSTED_PROXIES: '10.0.0.1, 172.16.0.0/12,loopback,::1,fd00::/8',
    });
    expect([config.http?.maxConnectionsPerClient, config.sseStreamsPerCaller, config.trustedProxies]).to.deep.equal([
      40,
      4,
      ['10.0.0.1', '172.16.0.0/12', 'loopback', '::1', 'fd00::/8'],
    ]);
    const dir = mkdtempSync(join(tmpdir(), 'config-'));
    try {
      const file = join(dir, 'config.json');
      writeFileSync(file, JSON.stringify({ http: { 'trusted-proxies': ['uniquelocal', '10.0.0.0/255.0.0.0'], 'max-connections-per-client': 7 } }));
      const fromFile = loadConfig({ CONFIG_FILE: file });
      expect([fromFile.trustedProxies, fromFile.http?.maxConnectionsPerClient]).to.deep.equal([['uniquelocal', '10.0.0.0/255.0.0.0'], 7]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses bad values at start-up, naming the setting', () => {
    for (const [env, setting] of [
      [{ MAX_CONNECTIONS_PER_CLIENT: '0' }, 'MAX_CONNECTIONS_PER_CLIENT'],
      [{ MAX_CONNECTIONS: '10', MAX_CONNECTIONS_PER_CLIENT: '11' }, 'MAX_CONNECTIONS_PER_CLIENT'],
      [{ MAX_CONNECTIONS_PER_CLIENT: 'many' }, 'MAX_CONNECTIONS_PER_CLIENT'],
      [{ SSE_STREAMS_PER_CALLER: '0' }, 'SSE_STREAMS_PER_CALLER'],
      [{ MAX_CONNECTIONS_PER_CLIENT: '5', SSE_STREAMS_PER_CALLER: '6' }, 'SSE_STREAMS_PER_CALLER'],
      [{ TRUSTED_PROXIES: 'balancer.local' }, 'TRUSTED_PROXIES'],
      [{ TRUSTED_PROXIES: '10.0.0.1,' }, 'TRUSTED_PROXIES'],
      [{ TRUSTED_PROXIES: '10.0.0.0/33' }, 'TRUSTED_PROXIES'],
      [{ TRUSTED_PROXIES: '10.0.0.0/8/8' }, 'TRUSTED_PROXIES'],
      [{ TRUSTED_PROXIES: '*' }, 'TRUSTED_PROXIES'],
    ] as const)
      expect(refused(env).setting, JSON.stringify(env)).to.equal(setting);
  });
});
