import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { Log } from '../kernel/Log.js';
import type { Snapshot } from './snapshotText.js';
import { parseSnapshot, snapshotText } from './snapshotText.js';

/** The format this build writes and reads; a snapshot of another (a build before or after) is ignored. */
const SHARED_SNAPSHOT_VERSION = '1';

/**
 * The largest snapshot written: the held kinds are those that do not grow with the data, so a
 * snapshot this large means something does; past it none is written (and the replicas starting on
 * an empty data directory replay the whole log), rather than one Redis value growing without bound.
 */
const SHARED_SNAPSHOT_MAX_BYTES = 64 * 1024 * 1024;

/** A snapshot as the replicas share it: the held kinds' states, and the catalogue's terms learned up to it or past it. */
export interface SharedSnapshot {
  snapshot: Snapshot;
  /** `TermDictionary.serialize()`, at or past the snapshot's position. */
  terms: string;
}

/**
 * Replaces the snapshot in one step, unless the one held is of this format and as far or further
 * (two writers, one late: the furthest stays). KEYS: the hash. ARGV: version, seq, body, terms, digest.
 */
const SAVE = `
local held = tonumber(redis.call('HGET', KEYS[1], 'seq') or '')
if held and redis.call('HGET', KEYS[1], 'version') == ARGV[1] and held >= tonumber(ARGV[2]) then return 0 end
redis.call('DEL', KEYS[1])
redis.call('HSET', KEYS[1], 'version', ARGV[1], 'seq', ARGV[2], 'body', ARGV[3], 'terms', ARGV[4], 'digest', ARGV[5])
return 1
`;

const digestOf = (body: Buffer, terms: string): string => createHash('sha256').update(body).update('\n').update(terms).digest('hex');

/**
 * The states of the kinds every replica holds, in one Redis hash beside the log, written now and
 * then by the store's writer (the lease holder): a replica with no snapshot of its own starts from it
 * and reads only the log after it. Its version, position, text and digest are written together by one
 * script; whatever does not read back whole (another format, a digest that does not match) is
 * ignored and logged, and costs a full replay, never a wrong state.
 */
export class RedisSnapshots {
  private warnedSize = false;

  constructor(
    private readonly redis: Redis,
    private readonly key: string,
    private readonly log: Log,
    private readonly maxBytes = SHARED_SNAPSHOT_MAX_BYTES,
  ) {}

  /** The shared snapshot, or undefined when there is none or it cannot be trusted (logged). */
  async load(): Promise<SharedSnapshot | undefined> {
    const [version, seq, digest, body, terms] = await this.redis.hmgetBuffer(this.key, 'version', 'seq', 'digest', 'body', 'terms');
    if (!version && !body) return undefined;
    try {
      if (version?.toString() !== SHARED_SNAPSHOT_VERSION)
        throw new Error(`format ${version?.toString() ?? 'unknown'}, this build reads ${SHARED_SNAPSHOT_VERSION}`);
      if (!body || !terms || !digest || digestOf(body, terms.toString()) !== digest.toString()) throw new Error('its digest does not match its text');
      const snapshot = parseSnapshot(body.toString());
      if (String(snapshot.seq) !== seq?.toString()) throw new Error(`its text is at ${snapshot.seq}, its record at ${seq?.toString()}`);
      return { snapshot, terms: terms.toString() };
    } catch (error) {
      // The log is the source of truth: a snapshot that cannot be read only costs a full replay.
      this.log.warn(`shared snapshot ${this.key} ignored (${(error as Error).message}): replaying the whole log`);
      return undefined;
    }
  }

  /**
   * Writes the snapshot, built in pieces that yield to the event loop between them (the states
   * are immutable values: the picture stays consistent meanwhile). False when it was not written:
   * larger than the bound (logged once), or one as far or further is held.
   */
  async save(shared: SharedSnapshot): Promise<boolean> {
    const pieces: Buffer[] = [];
    let bytes = 0;
    for (const text of snapshotText(shared.snapshot)) {
      const piece = Buffer.from(text);
      bytes += piece.length;
      if (bytes > this.maxBytes) {
        if (!this.warnedSize)
          this.log.warn(`shared snapshot not written: the held states exceed ${this.maxBytes} bytes; replicas on an empty data directory replay the whole log`);
        this.warnedSize = true;
        return false;
      }
      pieces.push(piece);
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
    const body = Buffer.concat(pieces);
    const written = await this.redis.eval(
      SAVE,
      1,
      this.key,
      SHARED_SNAPSHOT_VERSION,
      String(shared.snapshot.seq),
      body,
      shared.terms,
      digestOf(body, shared.terms),
    );
    return Number(written) === 1;
  }
}
