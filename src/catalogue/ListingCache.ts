import type { ListedItem } from './catalogueModel.js';
import type { ListingFilter } from './ListingQuery.js';

/** A listing's page and total as the store answered it. */
export interface CachedListing {
  total: number;
  rows: ListedItem[];
}

/** Listings kept at most, the least recently used dropped first: a few first pages of the lists people look at. */
const CAPACITY = 256;

/**
 * The pages and totals of listings read from a store every replica shares, kept while nothing
 * they cover has changed: an entry is kept with the store's position before it was asked, and
 * serves while no change of its kind in its projects came after that position. What changed is
 * learned from the catalogue's own following of the log, which a listing waits for (the read
 * barrier), so a write is never hidden by an entry. Bounded twice: `capacity` entries, and one
 * number per (kind, project) and per (kind, organization), never one per item.
 */
export class ListingCache {
  private readonly entries = new Map<string, { at: number; value: CachedListing }>();
  /** The log position of the last change per `kind project`, `kind org/`, and `kind` (every project). */
  private readonly changes = new Map<string, number>();

  constructor(private readonly capacity = CAPACITY) {}

  /** Entries held (at most the capacity). */
  get size(): number {
    return this.entries.size;
  }

  /** An item of `kind` in `project` changed at log position `seq` (every listing of that scope is stale from there). */
  changed(kind: string, project: string, seq: number): void {
    const org = project.slice(0, project.indexOf('/') + 1);
    for (const key of [`${kind} ${project}`, `${kind} ${org}`, kind]) this.changes.set(key, Math.max(seq, this.changes.get(key) ?? 0));
  }

  /** The listing's page and total, when one asked at or after its scope's last change is kept. */
  get(key: string, f: ListingFilter): CachedListing | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (this.lastChange(f) > entry.at) {
      this.entries.delete(key);
      return undefined;
    }
    // Most recently used last: the first in the map goes first.
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
  }

  /** Keeps what the store answered; `at`, the store's position before it was asked. */
  set(key: string, at: number, value: CachedListing): void {
    this.entries.delete(key);
    this.entries.set(key, { at, value });
    while (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value as string);
  }

  private lastChange(f: ListingFilter): number {
    const at = (key: string) => this.changes.get(key) ?? 0;
    if (f.projects) return Math.max(0, ...f.projects.map((p) => at(`${f.kind} ${p}`)));
    return f.org === undefined ? at(f.kind) : at(`${f.kind} ${f.org}/`);
  }
}
