import type { LogEvent } from '../../../events/EventLog.js';
import type { FileEvent } from './File.js';

/** What a storage holds, as its statistics show it. */
export interface StorageStatistics {
  files: number;
  spaceUsed: number;
  lastProcessedEventDateTime?: string;
}

/** The accounts at a log position, as they are kept between starts (one entry per storage ever written to). */
export interface UsageSnapshot {
  position: number;
  accounts: [string, StorageStatistics][];
}

/**
 * The running account of every storage (issue 34): files written (every revision that wrote bytes
 * counts as one physical file, as Delta counts), bytes and the instant of the last one, folded from
 * the logged events alone. A file's creation or update carries its storage and size, and a
 * project's deletion takes its storages' accounts along, so no file's state is ever read and nothing
 * here grows with the number of files: one entry per storage.
 */
export class UsageAccounts {
  private readonly accounts = new Map<string, StorageStatistics>();
  /** Every event up to it is in the accounts (applying one again changes nothing). */
  private at = 0;

  constructor(snapshot?: UsageSnapshot) {
    if (!snapshot) return;
    this.at = snapshot.position;
    for (const [key, account] of snapshot.accounts) this.accounts.set(key, { ...account });
  }

  get position(): number {
    return this.at;
  }

  /** Folds one logged event, in log order; an event at or before the position is already in. */
  apply(logged: LogEvent): void {
    if (logged.seq <= this.at) return;
    this.at = logged.seq;
    const type = logged.event.type;
    if (logged.kind === 'files' && (type === 'FileCreated' || type === 'FileUpdated')) {
      const event = logged.event as FileEvent & { type: typeof type };
      const key = accountKey(event.project, event.storage.id);
      const account = this.accounts.get(key) ?? { files: 0, spaceUsed: 0 };
      const last = account.lastProcessedEventDateTime;
      this.accounts.set(key, {
        files: account.files + 1,
        spaceUsed: account.spaceUsed + event.attributes.bytes,
        lastProcessedEventDateTime: last === undefined || event.instant > last ? event.instant : last,
      });
    } else if (logged.kind === 'projects' && type === 'ProjectMarkedForDeletion') {
      // The project's files are pruned from the log with it: a project created again under its label starts empty.
      const { org, label } = logged.event as unknown as { org: string; label: string };
      const prefix = `${org}/${label}/`;
      for (const key of [...this.accounts.keys()]) if (key.startsWith(prefix)) this.accounts.delete(key);
    }
  }

  /** Marks positions up to `position` as passed (events that changed no account, pruned ones). */
  passed(position: number): void {
    this.at = Math.max(this.at, position);
  }

  statistics(project: string, storageId: string): StorageStatistics {
    const account = this.accounts.get(accountKey(project, storageId));
    return account ? { ...account } : { files: 0, spaceUsed: 0 };
  }

  snapshot(): UsageSnapshot {
    return { position: this.at, accounts: [...this.accounts].map(([key, account]) => [key, { ...account }]) };
  }
}

const accountKey = (project: string, storageId: string): string => `${project}/${storageId}`;

/** A snapshot read back, or undefined when the text is not one. */
export const parseUsageSnapshot = (text: string): UsageSnapshot | undefined => {
  const parsed = JSON.parse(text) as Partial<UsageSnapshot> | null;
  if (!parsed || !Number.isSafeInteger(parsed.position) || !Array.isArray(parsed.accounts)) return undefined;
  return parsed as UsageSnapshot;
};
