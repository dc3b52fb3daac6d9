import type { Server } from 'node:http';
import { createRegistry } from './app.js';
import { ConfigError, loadConfig } from './config/Config.js';
import { DataDirLocked, lockDataDir } from './config/DataDirLock.js';
import { JournalDamaged } from './events/journalRecords.js';

/** `npm start`: one process serving the API with the embedded defaults unless configured otherwise. */
const main = async () => {
  const config = loadConfig();
  const unlock = lockDataDir(config.dataDir);
  const registry = await createRegistry(config);
  const server: Server = registry.app.listen(config.port, () => {
    console.log(`registry listening on ${config.baseUrl} (port ${config.port}, data in ${config.dataDir})`);
  });
  server.keepAliveTimeout = 65_000;
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal}: draining`);
    // Stop accepting, let in-flight requests finish, then persist and release the data directory.
    server.close(async () => {
      await registry.close();
      unlock();
      process.exit(0);
    });
    server.closeIdleConnections();
    setTimeout(() => server.closeAllConnections(), 10_000).unref();
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
