import { createRegistry } from '../app.js';
import { ConfigError, loadConfig } from '../config/Config.js';
import { DataDirLocked, lockDataDir } from '../config/DataDirLock.js';
import { progressBar } from './progressBar.js';

/**
 * `npm run migrate-store`: moves a deployment onto the external SPARQL store by replaying its log
 * into it. Run with the deployment's configuration plus `SPARQL_ENDPOINT` (and its siblings), the
 * registry stopped (its data directory is locked while this runs). The store is projected exactly
 * as a replica would (the lease holder, from the position recorded in the store), so an interrupted
 * migration resumes where it stopped when run again, and a store already up to date is left as is.
 * Progress: one line that updates on a terminal, plain lines otherwise.
 */
const main = async (): Promise<void> => {
  const config = loadConfig();
  if (!config.sparqlStore)
    throw new ConfigError('SPARQL_ENDPOINT', 'set it (and SPARQL_UPDATE_ENDPOINT, SPARQL_GSP_ENDPOINT if the server wants them) to the external store');
  const unlock = lockDataDir(config.dataDir);
  const bar = progressBar(process.stdout.isTTY === true, (line) => process.stdout.write(line));
  let progress: (() => Promise<{ position: number; head: number }>) | undefined;
  let target: number | undefined;
  let done = false;
  const watch = (async () => {
    while (!done) {
      if (progress) {
        const { position, head } = await progress();
        target ??= head;
        bar.show(Math.min(position, target), target);
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  })();
  const registry = await createRegistry({ ...config, logLevel: config.logLevel ?? 'warn' }, undefined, { storeProgress: (p) => (progress = p) });
  try {
    // Events appended meanwhile by running replicas are theirs to project: the migration ends at the head it found.
    for (;;) {
      const { position, head } = await progress!();
      target ??= head;
      if (position >= target) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  } finally {
    done = true;
    await watch;
    await registry.close();
    unlock();
  }
  bar.show(target!, target!);
  bar.end(target!);
};

main().catch((error: Error) => {
  const expected = error instanceof ConfigError || error instanceof DataDirLocked;
  console.error(expected ? `migrate-store: ${error.message}` : error);
  process.exit(1);
});
