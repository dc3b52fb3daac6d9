import { createRegistry } from './app.js';
import { ConfigError, httpLimits, loadConfig } from './config/Config.js';
import { DataDirLocked, lockDataDir } from './config/DataDirLock.js';
import { JournalDamaged } from './events/journalRecords.js';
import { serve } from './http/serve.js';
import { startupLine } from './config/startupLine.js';

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
    connections: registry.connections,
    log: (line) => console.error(line),
  }).catch(async (error: NodeJS.ErrnoException) => {
    // Released before exiting: the data directory and the snapshot stay as a clean stop leaves them.
    await registry.close();
    unlock();
    throw listenFailure(error, host, config.port) ?? error;
  });
  console.log(startupLine(config, host, registry.openToAnonymous()));
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

/** Why the port could not be opened, in words and with what to do; undefined for any other failure. */
class ListenFailed extends Error {}
const listenFailure = (error: NodeJS.ErrnoException, host: string, port: number): ListenFailed | undefined => {
  const where = `${host}:${port}`;
  if (error.code === 'EADDRINUSE')
    return new ListenFailed(`Cannot listen on ${where}: the port is in use by another process; stop it or set PORT to another port.`);
  if (error.code === 'EACCES') return new ListenFailed(`Cannot listen on ${where}: permission denied; use a port above 1023 (PORT).`);
  if (error.code === 'EADDRNOTAVAIL') return new ListenFailed(`Cannot listen on ${where}: no such local address; set HOST to an address of this machine.`);
  return undefined;
};

main().catch((error) => {
  if (error instanceof ConfigError || error instanceof DataDirLocked || error instanceof JournalDamaged || error instanceof ListenFailed) {
    console.error(error.message);
    process.exit(2);
  }
  console.error('start-up failed', error);
  process.exit(1);
});
