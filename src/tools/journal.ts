import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError, loadConfig } from '../config/Config.js';
import { DataDirLocked, lockDataDir } from '../config/DataDirLock.js';
import { repairJournal } from '../events/repairJournal.js';

/**
 * `npm run journal -- repair`: moves damaged journal records to a quarantine file so the registry
 * can start again (the data directory comes from the same settings as `npm start`). Runs only
 * while no registry process holds the data directory.
 */
const main = (): number => {
  const [command] = process.argv.slice(2);
  if (command !== 'repair') {
    console.error('usage: npm run journal -- repair   (DATA_DIR or CONFIG_FILE name the data directory, as for npm start)');
    return 2;
  }
  const config = loadConfig();
  const path = join(config.dataDir, 'journal', 'events.log');
  if (!existsSync(path)) {
    console.error(`no journal at ${path}`);
    return 2;
  }
  const unlock = lockDataDir(config.dataDir);
  try {
    const report = repairJournal(path);
    if (!report.quarantined.length) {
      console.log(`journal ${path} is sound: nothing to repair`);
      return 0;
    }
    for (const range of report.quarantined)
      console.log(`journal ${path}: bytes ${range.start}-${range.end} (after event ${range.after}) moved to ${report.quarantineFile}`);
    // The projections may hold what the quarantined records did: they are rebuilt from the repaired log.
    const snapshot = join(config.dataDir, 'projection', 'snapshot.json');
    if (existsSync(snapshot)) {
      rmSync(snapshot);
      console.log(`removed ${snapshot}: the next start replays the whole log`);
    }
    console.log(`repaired: ${report.quarantined.length} damaged range(s) quarantined; the registry replays the log without them at its next start`);
    return 0;
  } finally {
    unlock();
  }
};

try {
  process.exitCode = main();
} catch (error) {
  if (error instanceof ConfigError || error instanceof DataDirLocked) {
    console.error(error.message);
    process.exitCode = 2;
  } else throw error;
}
