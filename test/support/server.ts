import type { AddressInfo } from 'node:net';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { createRegistry } from '../../src/app.js';
import type { Registry, RegistryHooks } from '../../src/app.js';
import type { Config } from '../../src/config/Config.js';
import { client } from './client.js';
import { httpLimits } from '../../src/config/Config.js';
import { dropPrefix, REDIS_URL } from './redis.js';
import { serve as listen } from '../../src/http/serve.js';

export interface TestServer {
  url: string;
  dataDir: string;
  registry: Registry;
  /** The key prefix its log is kept under when on Redis (`TEST_LOG=redis`, or its overrides); none when the log is the journal's file. */
  redisPrefix?: string;
  /** Stops the server; keeps the data directory unless `remove`. */
  stop(remove?: boolean): Promise<void>;
}

/** The registry on a random loopback port with its own data directory. */
export const startServer = async (overrides: Partial<Config> = {}, dataDir?: string, hooks: RegistryHooks = {}): Promise<TestServer> => {
  const dir = dataDir ?? mkdtempSync(join(tmpdir(), 'registry-test-'));
  // The prefix follows the data directory, so a restart on it finds its log again.
  const redisPrefix = process.env['TEST_LOG'] === 'redis' ? `test-http-${basename(dir)}` : undefined;
  const config: Config = {
    port: 0,
    baseUrl: 'http://127.0.0.1',
    dataDir: dir,
    maxPayloadBytes: 256 * 1024,
    maxStoreQuads: 8_000_000,
    snapshotEvents: 1_000_000,
    snapshotMillis: 3_600_000,
    logLevel: 'silent',
    // `TEST_LOG=redis` runs a suite on the Redis layout (its log, and the states kept beside it).
    ...(redisPrefix ? { redisUrl: REDIS_URL, redisPrefix } : {}),
    ...overrides,
  };
  // The base URL must name the port, which is known only once listening: listen first on an ephemeral port.
  const probe: Server = await new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => resolve(s));
  });
  const port = (probe.address() as AddressInfo).port;
  await new Promise((r) => probe.close(r));
  const base = overrides.baseUrl ?? `http://127.0.0.1:${port}`;
  const registry = await createRegistry({ ...config, port, baseUrl: base }, undefined, hooks);
  const server: Server = await listen(registry.app, {
    ...httpLimits(config),
    host: '127.0.0.1',
    port,
    bodyLimit: registry.bodyLimit,
    streamedBody: registry.streamedBody,
    connections: registry.connections,
    log: () => undefined,
  });
  return {
    url: base,
    dataDir: dir,
    registry,
    ...(config.redisUrl && config.redisPrefix ? { redisPrefix: config.redisPrefix } : {}),
    stop: async (remove = false) => {
      await new Promise((r) => {
        server.close(r);
        server.closeAllConnections();
      });
      await registry.close();
      if (remove) rmSync(dir, { recursive: true, force: true });
      if (remove && redisPrefix) await dropPrefix(redisPrefix);
    },
  };
};

/**
 * One registry for a `describe` block: started before its tests, stopped (data removed) after.
 * `bind` receives the server and a client bound to it.
 */
export const serve = (bind: (server: TestServer, api: ReturnType<typeof client>) => void, overrides: Partial<Config> = {}): void => {
  let server: TestServer | undefined;
  before(async () => {
    server = await startServer(overrides);
    bind(server, client(server.url));
  });
  after(() => server?.stop(true));
};
