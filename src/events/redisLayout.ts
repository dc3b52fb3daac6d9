import type { Redis } from 'ioredis';
import type { Log } from '../kernel/Log.js';
import type { Scripted } from './redisScripts.js';
import { encodeState, formatRecord } from './itemRecord.js';
import { logKeys, splitItemKeys, untaggedKeys } from './redisLogKeys.js';

/** Items moved in one step (one atomic script, after one read of their older fields and events). */
const BATCH = 500;

/**
 * Brings a log written by an earlier version to the current layout, at the first start of this one
 * (several replicas starting together: each moves what is left, none twice). Run before the log
 * is used: the processes of the earlier version must be stopped, their writes would go to the
 * older keys.
 */
export const migrateLayout = async (redis: Redis, scripts: Scripted, prefix: string, log: Log): Promise<void> => {
  await tagKeys(redis, prefix, log);
  await mergeItems(redis, scripts, prefix, log);
};

/** Keys written before they shared a hash tag are renamed (instant on one Redis, every entry kept). */
const tagKeys = async (redis: Redis, prefix: string, log: Log): Promise<void> => {
  const old = untaggedKeys(prefix);
  const tagged = { ...logKeys(prefix), ...splitItemKeys(prefix) };
  if (!(await redis.exists(old.seq)) || (await redis.exists(tagged.seq))) return;
  try {
    const rename = redis.multi();
    for (const name of ['stream', 'seq', 'revs', 'seqs'] as const) if (await redis.exists(old[name])) rename.rename(old[name], tagged[name]);
    await rename.exec();
    log.info(`event log: keys '${prefix}:*' renamed to '{${prefix}}:*' (one hash tag, for Redis Cluster)`);
  } catch (error) {
    if (!(await redis.exists(tagged.seq))) throw error;
  }
};

/**
 * An item's revision, positions and state, once three hashes each holding its key, become one field
 * of the items hash (~270 B an item less, and the state deflated against its event).
 */
const mergeItems = async (redis: Redis, scripts: Scripted, prefix: string, log: Log): Promise<void> => {
  const old = splitItemKeys(prefix);
  if (!(await redis.exists(old.revs))) return;
  let moved = 0;
  // A key whose positions changed between the read and the move is read again in the next pass.
  while ((await redis.hlen(old.revs)) > 0) {
    let cursor = '0';
    do {
      const [next, fields] = await redis.hscan(old.revs, cursor, 'COUNT', BATCH);
      cursor = next;
      const revs = new Map<string, string>();
      for (let i = 0; i < fields.length; i += 2) revs.set(fields[i]!, fields[i + 1]!);
      if (revs.size) moved += await scripts.registryMerge(logKeys(prefix).items, old.revs, old.seqs, old.states, ...(await records(redis, prefix, revs)));
    } while (cursor !== '0');
  }
  await redis.del(old.seqs, old.states);
  log.info(`event log: ${moved} items moved from '${old.revs}', '${old.seqs}' and '${old.states}' into '${logKeys(prefix).items}' (one field an item)`);
};

/** For each key: key, its older positions (what the move checks), its record. */
const records = async (redis: Redis, prefix: string, revs: Map<string, string>): Promise<(string | Buffer)[]> => {
  const old = splitItemKeys(prefix);
  const names = [...revs.keys()];
  const [seqsOf, statesOf] = await Promise.all([redis.hmget(old.seqs, ...names), redis.hmget(old.states, ...names)]);
  // A state (`{seq} {json}`) of the item's last position is kept, deflated against that event.
  const kept = names.map((_, i) => {
    const seqs = (seqsOf[i] ?? '').split(',').filter(Boolean).map(Number);
    const state = statesOf[i];
    if (!state || !seqs.length) return { seqs };
    const space = state.indexOf(' ');
    return Number(state.slice(0, space)) === seqs[seqs.length - 1] ? { seqs, json: state.slice(space + 1) } : { seqs };
  });
  const reads = redis.pipeline();
  for (const { seqs, json } of kept) if (json) reads.xrange(logKeys(prefix).stream, `${seqs[seqs.length - 1]}-0`, `${seqs[seqs.length - 1]}-0`);
  const events = ((await reads.exec()) ?? []).map(([error, entries]) => {
    if (error) throw error;
    const fields = (entries as [string, string[]][])[0]?.[1] ?? [];
    const at = fields.indexOf('e');
    return at < 0 ? undefined : fields[at + 1];
  });
  return names.flatMap((name, i) => {
    const { seqs, json } = kept[i]!;
    const payload = json ? events.shift() : undefined;
    // The stored state is filled in already: a template without holes.
    const state = json && payload ? encodeState([json], payload) : undefined;
    return [name, seqsOf[i] ?? '', formatRecord({ rev: Number(revs.get(name)), seqs, ...(state ? { state } : {}) })];
  });
};
