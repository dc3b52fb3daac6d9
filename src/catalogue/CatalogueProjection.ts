import type { KindDefinition, Listed } from '../domain/KindDefinition.js';
import type { ProjectRef } from '../kernel/labels.js';
import type { Change, Projection } from '../projection/Projection.js';
import type { GraphStore } from '../store/GraphStore.js';
import { CATALOGUE, itemNode, revisionGraph } from '../store/graphNames.js';
import type { CatalogueItem } from './catalogue.js';
import { catalogueQuads, catalogueTriples, removeCatalogueUpdate, replaceCatalogueUpdates } from './catalogue.js';
import type { CatalogueMemory } from './CatalogueQueries.js';
import type { ListingCache } from './ListingCache.js';
import type { TermDictionary } from './TermDictionary.js';
import type { TermsFile } from './TermsFile.js';
import type { EventLog } from '../events/EventLog.js';
import type { Log } from '../kernel/Log.js';
import { learnTerms } from './learnTerms.js';
import { relearnTerms } from './relearnTerms.js';

/** Shortest interval between two saves of the terms. */
const SAVE_TERMS_MILLIS = 1_000;

/** Where the catalogue persists the terms it learns, and the log it learns them again from when they are missing or behind. */
export interface TermsPersistence {
  file: TermsFile;
  log: Pick<EventLog, 'read' | 'lastSeq'>;
  logger: Log;
}

/**
 * The catalogue of current states of every listable item: a graph of the store (the SPARQL truth
 * listings fall back on), the in-memory index of the default order, the payload sort indexes and
 * the field names payloads use.
 *
 * In a store shared by every replica (the external one) the graph is durable content like the
 * revision graphs: only the lease holder writes it (`writeAll`, in its batches, in log order, at the
 * position it records), and replicas keep no in-memory indexes (`memory` undefined): their listings
 * are SPARQL over it, so nothing in a replica grows with the items. A replica that writes its
 * catalogue graph itself would write it N times per change and reload it whole at each start.
 *
 * The term dictionary (`sort=<field name>`) is learned here, at the catalogue's own position, and
 * persisted with that position (not with the states' snapshot, which is taken at another one).
 */
export class CatalogueProjection implements Projection {
  constructor(
    private readonly store: GraphStore,
    /** The in-memory indexes; none where the store is shared (listings are SPARQL there). */
    private readonly memory: CatalogueMemory | undefined,
    private readonly terms: TermDictionary,
    /** Address prefix of subjects in the catalogue (`{base_url}/v1/`). */
    private readonly subjectBase: string,
    /** False where the store is shared by every replica: the lease holder writes the graph (`writeAll`). */
    private readonly writesGraph = true,
    /** None: the terms are learned in memory only (tests of the indexes). */
    private readonly persisted?: TermsPersistence,
    /** Listings of the shared store kept by this replica: told what changed where, so that none outlives a write. */
    private readonly listings?: ListingCache,
  ) {}

  async apply(change: Change): Promise<void> {
    const { definition, previous, next, triples } = change;
    learnTerms(this.terms, change);
    this.saveTermsSoon();
    if (!definition.listed) return;
    const changed = next ?? previous;
    if (this.listings && changed !== undefined) this.listings.changed(definition.kind, definition.listed(changed).project, change.logged.seq);
    if (next === undefined) {
      if (previous === undefined) return;
      const { project, id } = definition.listed(previous);
      await this.drop(definition.kind, project, id);
      return;
    }
    const item = this.item(definition.kind, definition.listed(next));
    await this.set(item, previous !== undefined, triples);
  }

  /** Records an item's current state; `triples` are those of its new head revision, when it has one. */
  async set(item: CatalogueItem, replace: boolean, triples?: string): Promise<void> {
    const memory = this.memory;
    if (triples !== undefined) memory?.sorts.revision(item.head, triples);
    if (this.writesGraph) {
      if (replace) await this.store.update(removeCatalogueUpdate(item.kind, item.project, item.id));
      await this.store.load(catalogueQuads(item));
    }
    memory?.index.set(item);
    memory?.sorts.current(item);
  }

  async drop(kind: string, project: ProjectRef, id: string): Promise<void> {
    if (this.writesGraph) await this.store.update(removeCatalogueUpdate(kind, project, id));
    this.memory?.index.remove(kind, project, id);
    this.memory?.sorts.dropped(kind, project, id);
  }

  /** Restart: the catalogue is derived from the states, never persisted itself; the terms are restored at `position` or beyond. */
  async restore(states: ReadonlyMap<KindDefinition, ReadonlyMap<string, unknown>>, position: number): Promise<void> {
    await this.restoreTerms([...states.keys()], position);
    // Nothing to load where neither the indexes nor the graph are this replica's to hold.
    if (!this.memory && !this.writesGraph) return;
    const items: CatalogueItem[] = [];
    for (const [definition, map] of states)
      if (definition.listed) for (const state of map.values()) items.push(this.item(definition.kind, definition.listed(state)));
    await this.load(items);
  }

  /** Bulk form for restarts. */
  async load(items: CatalogueItem[]): Promise<void> {
    this.memory?.index.load(items);
    this.memory?.sorts.clear();
    if (!this.writesGraph) return;
    // Loaded as bytes: encoding concatenated strings for WASM took a fifth of a restart.
    let batch: string[] = [];
    let size = 0;
    for (const item of items) {
      const text = catalogueTriples(item);
      batch.push(text);
      size += text.length;
      if (size > 4_000_000) {
        await this.store.loadGraph(CATALOGUE, Buffer.from(batch.join('')));
        batch = [];
        size = 0;
      }
    }
    await this.store.loadGraph(CATALOGUE, Buffer.from(batch.join('')));
  }

  /**
   * The catalogue graph's part of a batch of changes, for the writer of a shared store, in a few
   * updates: each item's entry replaced by the one its last change leaves (or removed), so writing
   * the batch again, in a replay after a takeover, leaves what writing it once did.
   */
  async writeAll(changes: readonly Change[]): Promise<void> {
    const entries = new Map<string, CatalogueItem | undefined>();
    for (const { definition, previous, next } of changes) {
      const state = next ?? previous;
      if (!definition.listed || state === undefined) continue;
      const listed = definition.listed(state);
      const node = itemNode(definition.kind, listed.project, listed.id);
      entries.delete(node);
      entries.set(node, next === undefined ? undefined : this.item(definition.kind, listed));
    }
    for (const update of replaceCatalogueUpdates([...entries].map(([node, item]) => ({ node, item })))) await this.store.update(update);
  }

  /**
   * Terms persisted at or past `position` (and within the log) are kept: the replay from `position`
   * skips what they already counted. Missing or behind, they are learned again from the log.
   */
  private async restoreTerms(definitions: KindDefinition[], position: number): Promise<void> {
    if (!this.persisted) return;
    const stored = this.persisted.file.load();
    if (stored && stored.position >= position && stored.position <= (await this.persisted.log.lastSeq())) {
      this.terms.replace(stored);
      return;
    }
    const started = performance.now();
    await relearnTerms(this.persisted.log, definitions, this.terms, position);
    this.persisted.logger.info(
      `catalogue: terms ${stored ? `persisted at ${stored.position}` : 'not persisted'}; learned again from the log up to ${position} in ${Math.round(performance.now() - started)} ms`,
    );
    this.saveTerms();
  }

  private saveTimer: NodeJS.Timeout | undefined;

  private saveTermsSoon(): void {
    if (!this.persisted || this.saveTimer) return;
    this.saveTimer = setTimeout(() => this.saveTerms(), SAVE_TERMS_MILLIS);
    this.saveTimer.unref();
  }

  /** Persists the terms now, at the catalogue's position (a snapshot about to be committed, a shutdown). */
  saveTerms(): void {
    clearTimeout(this.saveTimer);
    this.saveTimer = undefined;
    if (!this.persisted) return;
    try {
      this.persisted.file.save(this.terms.serialize());
    } catch (error) {
      // Terms behind the states' snapshot are learned again from the log at the next start.
      this.persisted.logger.warn(`catalogue: cannot save the terms: ${(error as Error).message}`);
    }
  }

  private item(kind: string, r: Listed): CatalogueItem {
    return {
      kind,
      ...r,
      createdBy: this.subjectBase + r.createdBy,
      updatedBy: this.subjectBase + r.updatedBy,
      head: revisionGraph(kind, r.project, r.id, r.rev),
    };
  }
}
