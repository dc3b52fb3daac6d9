import { existsSync, mkdirSync, readFileSync, renameSync } from 'node:fs';
import { open, rename } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Log } from '../kernel/Log.js';
import type { TokenStore, TrackerToken, TrackerUser } from './TokenStore.js';
import { openToken, rowName, sealToken } from './tokenCipher.js';

/**
 * Users' tokens in one JSON file of the data directory, each encrypted with AES-256-GCM under the
 * configured key (a fresh IV per write, the row's name as associated data, so rows cannot be swapped
 * between users). Every save rewrites the file atomically (write, fsync, rename): a crash leaves the
 * previous or the new file, never half of one. A row that does not decrypt (another key, a damaged
 * file) reads as no token: the user runs the authorization flow again.
 */
export class EncryptedTokenFile implements TokenStore {
  private readonly rows: Map<string, string>;
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly path: string,
    private readonly key: Buffer,
    private readonly log: Log,
  ) {
    if (key.length !== 32) throw new Error('the token key must be 32 bytes');
    this.rows = this.load();
  }

  async get(user: TrackerUser): Promise<TrackerToken | undefined> {
    const name = rowName(user);
    const row = this.rows.get(name);
    if (row === undefined) return undefined;
    try {
      return openToken(this.key, name, row);
    } catch {
      this.log.warn('a stored tracker token could not be decrypted; the user must authorize again', { row: name });
      return undefined;
    }
  }

  async save(user: TrackerUser, token: TrackerToken): Promise<void> {
    const name = rowName(user);
    this.rows.set(name, sealToken(this.key, name, token));
    // Writes follow one another: each writes every row known at its turn.
    const write = this.writing.then(() => this.persist());
    this.writing = write.catch(() => undefined);
    await write;
  }

  /** The rows of the file; a file that cannot be read is set aside (every user authorizes again), never a reason not to start. */
  private load(): Map<string, string> {
    if (!existsSync(this.path)) return new Map();
    try {
      const rows: unknown = JSON.parse(readFileSync(this.path, 'utf8'));
      if (rows === null || typeof rows !== 'object' || Array.isArray(rows) || Object.values(rows).some((row) => typeof row !== 'string'))
        throw new Error('not an object of rows');
      return new Map(Object.entries(rows as Record<string, string>));
    } catch (error) {
      const aside = `${this.path}.damaged-${Date.now()}`;
      renameSync(this.path, aside);
      this.log.warn('the tracker token file could not be read and was set aside; users must authorize again', { aside, error: (error as Error).message });
      return new Map();
    }
  }

  private async persist(): Promise<void> {
    mkdirSync(dirname(this.path), { recursive: true });
    const temporary = `${this.path}.tmp`;
    const file = await open(temporary, 'w', 0o600);
    try {
      await file.writeFile(JSON.stringify(Object.fromEntries(this.rows)));
      await file.sync();
    } finally {
      await file.close();
    }
    await rename(temporary, this.path);
  }
}
