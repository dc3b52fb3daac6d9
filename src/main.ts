import { createRegistry } from './app.js';
import { ConfigError, httpLimits, loadConfig } from './config/Config.js';
import { DataDirLocked, lockDataDir } from './config/DataDirLock.js';
import { JournalDamaged } from './events/journalRecords.js';
import { serve } from './http/serve.js';

/** In-flight requests get this long to finish after SIGTERM; the process exits within about two seconds. */
const DRAIN_MILLIS = 1_500;

/** `npm start`: one process serving the API with the embedded defaults unless configured otherwise. */
const main = async () => {
  const config = loadConfig();
  const unlock = lockDataDir(config.dataDir);
  const registry = await createRegistry(config);
  const host = config.host ?? '127.0.0.1';
  const server = await serve(registry.app, {
    ...httpLimits(config),
    host,
    port: config.port,
    bodyLimit: registry.bodyLimit,
    streamedBody: registry.streamedBody,
    log: (line) => console.error(line),
  });
  console.log(`registry listening on ${config.baseUrl} (${host}:${config.port}, data in ${config.dataDir})`);
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    registry.log.info(`${signal}: draining`);
    // Event streams never finish on their own: end them first, so closing waits only for requests.
    registry.endStreams();
    server.close(async () => {
      await registry.close();
      unlock();
      process.exit(0);
    });
    server.closeIdleConnections();
    setTimeout(() => server.closeAllConnections(), DRAIN_MILLIS).unref();
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
};

main().catch((error) => {
  if (error instanceof ConfigError || error instanceof DataDirLocked || error instanceof JournalDamaged) {
    console.error(error.message);
    process.exit(2);
  }
  console.error('start-up failed', error);
  process.exit(1);
});
