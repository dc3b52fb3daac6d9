import { freePort, ready, start } from './process.js';
import type { Proc } from './process.js';
import { REDIS_URL } from './redis.js';

/** Two replicas as a deployment runs them: separate processes, separate data directories, one Redis log. */
export const startReplicas = async (prefix: string, dirs: string[], extra: Record<string, string> = {}): Promise<Proc[]> => {
  const replicas: Proc[] = [];
  for (const dir of dirs) {
    const port = await freePort();
    replicas.push(
      start({
        PORT: String(port),
        DATA_DIR: dir,
        REDIS_URL,
        REDIS_PREFIX: prefix,
        LOG_LEVEL: 'warn',
        WORKERS: '1',
        STORAGE_PASSWORD: 'replicas-share-this-password',
        ...extra,
      }),
    );
  }
  await Promise.all(replicas.map(ready));
  return replicas;
};
