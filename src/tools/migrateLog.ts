import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { ConfigError, loadConfig } from '../config/Config.js';
import { DataDirLocked, lockDataDir } from '../config/DataDirLock.js';
import { JournalEventLog } from '../events/JournalEventLog.js';
import { RedisEventLog } from '../events/RedisEventLog.js';
import { redisTargetOf } from '../platform/redisTarget.js';
import type { Log } from '../kernel/Log.js';
import { progressBar } from './progressBar.js';

/** The Redis log is not a copy of this journal (so far): copying more would mix two histories. */
class NotACopy extends Error {}

const quiet: Log = { info: () => undefined, warn: (line) => console.error(line), error: (line) => console.error(line) };

/**
 * `npm run migrate-log`: copies the embedded journal (`DATA_DIR/journal/events.log`) into the Redis
 * log that `REDIS_URL` (or Sentinel) names, every event at its own position, so snapshots, stream
 * offsets (`Last-Event-Id`) and the external store's recorded position keep their meaning. Run with
 * the registry stopped (the data directory is locked meanwhile). An interrupted copy resumes where
 * it stopped when run again; a Redis log that is not a prefix of this journal is refused untouched.
 */
const main = async (): Promise<void> => {
  const config = configOfReplicas();
  const target = redisTargetOf(config);
  if (!target) throw new ConfigError('REDIS_URL', 'set it (or REDIS_SENTINELS) to the Redis the journal is copied into');
  const path = join(config.dataDir, 'journal', 'events.log');
  if (!existsSync(path)) throw new ConfigError('DATA_DIR', `no journal at ${path}`);
  const unlock = lockDataDir(config.dataDir);
  const journal = await JournalEventLog.open(path, quiet);
  const redis = await RedisEventLog.open(target, config.redisPrefix ?? 'registry', undefined, quiet);
  try {
    const head = await journal.lastSeq();
    const copied = await redis.lastSeq();
    await checkPrefix(journal, redis, copied, head);
    const bar = progressBar(process.stdout.isTTY === true, (line) => process.stdout.write(line), 30, {
      name: 'log migration',
      done: `copied from ${path} into Redis`,
    });
    let position = copied;
    bar.show(position, head);
    for (;;) {
      const batch = await journal.read(position, 1_000);
      if (!batch.length) break;
      await redis.copy(batch);
      position = batch[batch.length - 1]!.seq;
      bar.show(position, head);
    }
    // Pruned events at the end leave positions the next append must not take again.
    await redis.advanceTo(head);
    bar.show(head, head);
    bar.end(head);
  } finally {
    await redis.close();
    await journal.close();
    unlock();
  }
};

/**
 * The replicas' configuration. They need the password the journal's storage secrets are sealed with:
 * an embedded deployment without one configured kept a random one in its data directory.
 */
const configOfReplicas = () => {
  try {
    return loadConfig();
  } catch (error) {
    if (!(error instanceof ConfigError) || error.setting !== 'plugins.storage.storages.password') throw error;
    throw new ConfigError(
      'STORAGE_PASSWORD',
      "set it, here and on every replica, to the password the journal's storage secrets are sealed with: the embedded deployment's STORAGE_PASSWORD, or the content of DATA_DIR/storage-secrets.key where it had none",
    );
  }
};

/** A Redis log of `copied` events continues this journal only if its last event is the journal's at that position. */
const checkPrefix = async (journal: JournalEventLog, redis: RedisEventLog, copied: number, head: number): Promise<void> => {
  if (copied === 0) return;
  if (copied > head) throw new NotACopy(`the Redis log is at event ${copied}, past this journal's last (${head}): it holds another history`);
  const [ours, theirs] = await Promise.all([journal.get(copied), redis.get(copied)]);
  if (!isDeepStrictEqual(ours, theirs))
    throw new NotACopy(
      `event ${copied} of the Redis log differs from the journal's: it holds another history (start from an empty Redis, or another REDIS_PREFIX)`,
    );
};

main().catch((error: Error) => {
  const expected = error instanceof ConfigError || error instanceof DataDirLocked || error instanceof NotACopy;
  console.error(expected ? `migrate-log: ${error.message}` : error);
  process.exit(1);
});
