import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { replaceFile } from '../../util/replaceFile.js';
import type { UsageSnapshot } from './files/UsageAccounts.js';
import { parseUsageSnapshot } from './files/UsageAccounts.js';
import type { UsageSnapshots } from './UsageSnapshots.js';

/** The storages' accounts in one small file of the data directory, replaced atomically (embedded: the log is this process's alone). */
export class FileUsageSnapshots implements UsageSnapshots {
  constructor(private readonly path: string) {
    mkdirSync(dirname(path), { recursive: true });
  }

  async load(folded: number): Promise<UsageSnapshot | undefined> {
    if (!existsSync(this.path)) return undefined;
    try {
      const snapshot = parseUsageSnapshot(readFileSync(this.path, 'utf8'));
      // Past the log's end (a journal cut back, a restored backup): the accounts are folded again from the log.
      return snapshot && snapshot.position <= folded ? snapshot : undefined;
    } catch {
      // The log is the source of truth: a file that cannot be read only costs folding the log again.
      return undefined;
    }
  }

  async save(snapshot: UsageSnapshot): Promise<void> {
    replaceFile(this.path, JSON.stringify(snapshot));
  }
}
