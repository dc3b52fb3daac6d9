import type { Redis } from 'ioredis';
import type { ProjectRef } from '../../kernel/labels.js';
import type { ArchiveRecord } from './Archive.js';

/** How many archives, and how many bytes of them, one caller and one project may hold at once. */
export interface ArchiveCaps {
  perCaller: { count: number; bytes: number };
  perProject: { count: number; bytes: number };
}

/** What keeping a record came to: kept, a record already under its key, or a cap it would pass (and when the oldest archive under that cap expires, if any). */
export type Keeping = 'kept' | 'exists' | { over: 'caller' | 'project'; limit: 'count' | 'bytes'; max: number; freedAt?: number };

/**
 * Where archives live until they expire. Delta keeps them ephemeral, out of the event log; here
 * too: in this process's memory with the embedded journal (one process per data directory), in
 * Redis when the event log is on Redis, so every replica sees them. Each record counts against its
 * caller's (`owner`) and its project's caps until it expires: past either, nothing is kept.
 */
export interface ArchiveStore {
  /** Keeps the record until `expiresAt`, unless one is kept under that key or a cap would be passed. */
  create(key: string, record: ArchiveRecord, owner: string): Promise<Keeping>;
  get(key: string): Promise<ArchiveRecord | undefined>;
  /** Forgets every record of a project (its permanent deletion): a project created again under its label has none. */
  removeProject(project: ProjectRef): Promise<void>;
  close(): Promise<void>;
}

/** What a record weighs against the caps: its JSON, as Redis keeps it (the heap holds a small multiple of it). */
const weight = (json: string) => Buffer.byteLength(json);

interface Held {
  record: ArchiveRecord;
  bytes: number;
  owner: string;
  expires: number;
}

/** One caller's or one project's archives: their keys, oldest first, and their bytes. */
interface Usage {
  keys: Set<string>;
  bytes: number;
}

/**
 * The store of a single process. Every archive lives as long (one TTL), so the order records are
 * made in is the order they expire in: the sweep drops expired ones from the front and stops at
 * the first that is not, work in proportion to what expired, never to what is kept.
 */
export class MemoryArchiveStore implements ArchiveStore {
  private readonly records = new Map<string, Held>();
  private readonly usage = new Map<string, Usage>();

  constructor(
    private readonly caps: ArchiveCaps,
    private readonly now: () => number = Date.now,
  ) {}

  async create(key: string, record: ArchiveRecord, owner: string): Promise<Keeping> {
    this.sweep();
    if (this.records.has(key)) return 'exists';
    const bytes = weight(JSON.stringify(record));
    const refused =
      this.over('caller', `caller ${owner}`, this.caps.perCaller, bytes) ?? this.over('project', `project ${record.project}`, this.caps.perProject, bytes);
    if (refused) return refused;
    this.records.set(key, { record, bytes, owner, expires: Date.parse(record.expiresAt) });
    for (const u of [`caller ${owner}`, `project ${record.project}`]) {
      const usage = this.usage.get(u) ?? { keys: new Set<string>(), bytes: 0 };
      usage.keys.add(key);
      usage.bytes += bytes;
      this.usage.set(u, usage);
    }
    return 'kept';
  }

  async get(key: string): Promise<ArchiveRecord | undefined> {
    const held = this.records.get(key);
    if (held && held.expires <= this.now()) {
      this.drop(key, held);
      return undefined;
    }
    return held?.record;
  }

  async removeProject(project: ProjectRef): Promise<void> {
    for (const [key, held] of this.records) if (held.record.project === project) this.drop(key, held);
  }

  async close(): Promise<void> {
    this.records.clear();
    this.usage.clear();
  }

  private over(over: 'caller' | 'project', name: string, cap: { count: number; bytes: number }, bytes: number): Keeping | undefined {
    const usage = this.usage.get(name);
    const count = usage?.keys.size ?? 0;
    const limit = count + 1 > cap.count ? 'count' : (usage?.bytes ?? 0) + bytes > cap.bytes ? 'bytes' : undefined;
    if (!limit) return undefined;
    const oldest = usage?.keys.values().next().value;
    const freedAt = oldest === undefined ? undefined : this.records.get(oldest)?.expires;
    return { over, limit, max: cap[limit], ...(freedAt !== undefined ? { freedAt } : {}) };
  }

  private sweep(): void {
    const now = this.now();
    for (const [key, held] of this.records) {
      if (held.expires > now) break;
      this.drop(key, held);
    }
  }

  private drop(key: string, held: Held): void {
    this.records.delete(key);
    for (const u of [`caller ${held.owner}`, `project ${held.record.project}`]) {
      const usage = this.usage.get(u);
      if (!usage) continue;
      usage.keys.delete(key);
      usage.bytes -= held.bytes;
      if (!usage.keys.size) this.usage.delete(u);
    }
  }
}

/**
 * In one step on the Redis server, so that replicas creating at once cannot pass a cap together:
 * drops what expired from the caller's and the project's usage (sorted sets of `{bytes}:{key}`
 * scored by expiry, and their byte totals: work in proportion to what expired), then keeps the
 * record, or says which cap it would pass and when that cap's oldest archive expires.
 * KEYS: record, caller's set, caller's bytes, project's set, project's bytes.
 * ARGV: json, ttl ms, now ms, expiry ms, bytes, member, caller count, caller bytes, project count, project bytes.
 */
const KEEP = `
local function sweep(set, total)
  local gone = redis.call('ZRANGEBYSCORE', set, '-inf', ARGV[3])
  if #gone == 0 then return end
  local freed = 0
  for _, m in ipairs(gone) do freed = freed + tonumber(string.match(m, '^(%d+):')) end
  redis.call('ZREMRANGEBYSCORE', set, '-inf', ARGV[3])
  redis.call('DECRBY', total, freed)
end
local function over(set, total, maxCount, maxBytes, who)
  local limit = false
  if redis.call('ZCARD', set) + 1 > tonumber(maxCount) then limit = 'count'
  elseif tonumber(redis.call('GET', total) or '0') + tonumber(ARGV[5]) > tonumber(maxBytes) then limit = 'bytes' end
  if not limit then return false end
  local oldest = redis.call('ZRANGE', set, 0, 0, 'WITHSCORES')
  return {who, limit, oldest[2] or ''}
end
sweep(KEYS[2], KEYS[3])
sweep(KEYS[4], KEYS[5])
if redis.call('EXISTS', KEYS[1]) == 1 then return {'exists'} end
local refused = over(KEYS[2], KEYS[3], ARGV[7], ARGV[8], 'caller') or over(KEYS[4], KEYS[5], ARGV[9], ARGV[10], 'project')
if refused then return refused end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
for i = 2, 4, 2 do
  redis.call('ZADD', KEYS[i], ARGV[4], ARGV[6])
  redis.call('INCRBY', KEYS[i + 1], ARGV[5])
  redis.call('PEXPIREAT', KEYS[i], ARGV[4])
  redis.call('PEXPIREAT', KEYS[i + 1], ARGV[4])
end
return {'kept'}
`;

/** Archives in Redis, shared by every replica; Redis expires them, and the usage keys with the last of theirs. */
export class RedisArchiveStore implements ArchiveStore {
  constructor(
    /** The event log's command connection: archives live beside the log, on the Redis every replica shares (Sentinel included). */
    private readonly redis: Redis,
    /** Where the records are kept: `{key}:{project}/{id}`; usage under `{key}:usage:…` (the log's hash tag: one slot). */
    private readonly keyPrefix: string,
    private readonly caps: ArchiveCaps,
    private readonly now: () => number = Date.now,
  ) {}

  async create(key: string, record: ArchiveRecord, owner: string): Promise<Keeping> {
    const now = this.now();
    const expires = Date.parse(record.expiresAt);
    const json = JSON.stringify(record);
    const bytes = weight(json);
    const { perCaller, perProject } = this.caps;
    const caller = `${this.keyPrefix}:usage:caller ${owner}`;
    const project = `${this.keyPrefix}:usage:project ${record.project}`;
    const answer = (await this.redis.eval(
      KEEP,
      5,
      this.key(key),
      caller,
      `${caller}:bytes`,
      project,
      `${project}:bytes`,
      json,
      Math.max(1, expires - now),
      now,
      expires,
      bytes,
      `${bytes}:${key}`,
      perCaller.count,
      perCaller.bytes,
      perProject.count,
      perProject.bytes,
    )) as string[];
    const [outcome, limit, oldest] = answer;
    if (outcome === 'kept' || outcome === 'exists') return outcome;
    const over = outcome as 'caller' | 'project';
    const which = limit as 'count' | 'bytes';
    return { over, limit: which, max: this.caps[over === 'caller' ? 'perCaller' : 'perProject'][which], ...(oldest ? { freedAt: Number(oldest) } : {}) };
  }

  async get(key: string): Promise<ArchiveRecord | undefined> {
    const raw = await this.redis.get(this.key(key));
    return raw === null ? undefined : (JSON.parse(raw) as ArchiveRecord);
  }

  /** Keys are `{prefix}:{org}/{project}/{id}` (labels hold no glob character; the prefix is escaped). */
  async removeProject(project: ProjectRef): Promise<void> {
    const match = `${this.key(project).replace(/[*?[\]\\]/g, '\\$&')}/*`;
    let cursor = '0';
    do {
      const [next, keys] = await this.redis.scan(cursor, 'MATCH', match, 'COUNT', 1000);
      if (keys.length) await this.redis.unlink(...keys);
      cursor = next;
    } while (cursor !== '0');
    // The project's usage goes with it; its callers' shares of these archives lapse when they would have expired.
    const usage = `${this.keyPrefix}:usage:project ${project}`;
    await this.redis.unlink(usage, `${usage}:bytes`);
  }

  /** The connection is the log's, closed with it. */
  async close(): Promise<void> {}

  private key(key: string): string {
    return `${this.keyPrefix}:${key}`;
  }
}
