import type { Redis } from 'ioredis';
import type { ProjectRef } from '../../kernel/labels.js';
import type { ArchiveRecord } from './Archive.js';

/**
 * Where archives live until they expire. Delta keeps them ephemeral, out of the event log; here
 * too: in this process's memory with the embedded journal (one process per data directory), in
 * Redis (`SET ... PX ttl NX`) when the event log is on Redis, so every replica sees them.
 */
export interface ArchiveStore {
  /** Keeps the record until `expiresAt`; false when one is already kept under that key. */
  create(key: string, record: ArchiveRecord): Promise<boolean>;
  get(key: string): Promise<ArchiveRecord | undefined>;
  /** Forgets every record of a project (its permanent deletion): a project created again under its label has none. */
  removeProject(project: ProjectRef): Promise<void>;
  close(): Promise<void>;
}

/** The store of a single process: expired records are dropped when read and swept when others are written. */
export class MemoryArchiveStore implements ArchiveStore {
  private readonly records = new Map<string, ArchiveRecord>();

  constructor(private readonly now: () => number = Date.now) {}

  async create(key: string, record: ArchiveRecord): Promise<boolean> {
    this.sweep();
    if (this.records.has(key)) return false;
    this.records.set(key, record);
    return true;
  }

  async get(key: string): Promise<ArchiveRecord | undefined> {
    const record = this.records.get(key);
    if (record && Date.parse(record.expiresAt) <= this.now()) {
      this.records.delete(key);
      return undefined;
    }
    return record;
  }

  async removeProject(project: ProjectRef): Promise<void> {
    for (const [key, record] of this.records) if (record.project === project) this.records.delete(key);
  }

  async close(): Promise<void> {
    this.records.clear();
  }

  private sweep(): void {
    const now = this.now();
    for (const [key, record] of this.records) if (Date.parse(record.expiresAt) <= now) this.records.delete(key);
  }
}

/** Archives in Redis, shared by every replica; Redis expires them. */
export class RedisArchiveStore implements ArchiveStore {
  constructor(
    /** The event log's command connection: archives live beside the log, on the Redis every replica shares (Sentinel included). */
    private readonly redis: Redis,
    /** Where the records are kept: `{key}:{project}/{id}`. */
    private readonly keyPrefix: string,
    private readonly now: () => number = Date.now,
  ) {}

  async create(key: string, record: ArchiveRecord): Promise<boolean> {
    const ttl = Math.max(1, Date.parse(record.expiresAt) - this.now());
    return (await this.redis.set(this.key(key), JSON.stringify(record), 'PX', ttl, 'NX')) === 'OK';
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
  }

  /** The connection is the log's, closed with it. */
  async close(): Promise<void> {}

  private key(key: string): string {
    return `${this.keyPrefix}:${key}`;
  }
}
