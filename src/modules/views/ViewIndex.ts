import type { KindDefinition, Listed } from '../../domain/KindDefinition.js';
import type { JsonObject } from '../../kernel/json.js';
import { Rejection } from '../../kernel/Rejection.js';
import type { ViewMember } from '../../store/ProjectSparqlStore.js';
import { DocSet } from '../../search/dsl/DocSet.js';
import type { SearchDoc } from '../../search/dsl/fields.js';
import type { Change } from '../../projection/Projection.js';
import type { ViewState } from './View.js';
import type { MetadataOf } from './viewSelection.js';
import { memberItem, selectedRev, sparqlMemberOf } from './viewSelection.js';

/** What an indexed item holds: its document (Elasticsearch views) or its member of the view's graph (SPARQL views). */
interface Entry {
  doc?: SearchDoc;
  member?: ViewMember;
}

/** How an index reads an item's document: `items.body` for resources and schemas. */
export type DocumentOf = (kind: string, listed: Listed, tag: string | undefined) => Promise<JsonObject | undefined>;

export type { MetadataOf };

/** Delta's view statistics, counted by this index since it started. */
export interface IndexCounts {
  processed: number;
  evaluated: number;
  discarded: number;
  failed: number;
  lastEventInstant?: string;
  lastProcessedInstant?: string;
}

/**
 * The selection of one indexing view (ElasticSearchView or SparqlView): the items of its project
 * its filters select, each with its document or its graph, kept by applying every change of the
 * project in log order. Built from the states first, then following the log (`ViewIndexes`).
 */
export class ViewIndex {
  private readonly entries = new Map<string, Entry>();
  private generation = 0;
  private cached: { generation: number; set: DocSet } | undefined;
  readonly counts: IndexCounts = { processed: 0, evaluated: 0, discarded: 0, failed: 0 };
  /** A SPARQL view's members changed since the last `taken`: what its graph in the store is to be set to. */
  private outbox: ViewMember[] = [];

  constructor(
    readonly view: ViewState,
    private readonly documentOf: DocumentOf,
    private readonly metadataOf: MetadataOf,
    /** Whether its SPARQL view's graph is written from here (embedded store): else only what it selects is counted. */
    private readonly writesGraph = true,
  ) {}

  private get es(): boolean {
    return this.view.value.fields.type === 'ElasticSearchView';
  }

  /** The item as a change left it (undefined: deleted). */
  async apply(definition: KindDefinition, key: string, next: unknown, instant: string | undefined): Promise<void> {
    if (!definition.listed) return;
    this.counts.processed++;
    if (instant !== undefined) this.counts.lastEventInstant = this.counts.lastProcessedInstant = instant;
    const listed = next === undefined ? undefined : definition.listed(next);
    if (listed && listed.project !== this.view.project) return;
    const entry = listed && (await this.entryOf(definition.kind, listed, (next as { tags?: Record<string, number> }).tags ?? {}));
    if (!entry) {
      this.counts.discarded++;
      const left = this.entries.get(key);
      if (left && this.entries.delete(key)) this.generation++;
      if (left?.member) this.outbox.push({ item: left.member.item, graph: undefined });
      return;
    }
    this.counts.evaluated++;
    this.entries.set(key, entry);
    this.generation++;
    if (entry.member) this.outbox.push(entry.member);
  }

  /** The members changed since the last call, in order (SPARQL views). */
  taken(): ViewMember[] {
    return this.outbox.splice(0);
  }

  /** Members `taken` that the store did not take: they go first next time. */
  requeue(members: ViewMember[]): void {
    this.outbox.unshift(...members);
  }

  applyChange(change: Change): Promise<void> {
    const { definition, logged, next, previous } = change;
    const state = next ?? previous;
    if (!definition.listed || state === undefined || definition.listed(state).project !== this.view.project) return Promise.resolve();
    return this.apply(definition, `${definition.kind} ${logged.key}`, next, (logged.event as { instant?: string }).instant);
  }

  private async entryOf(kind: string, listed: Listed, tags: Record<string, number>): Promise<Entry | undefined> {
    const f = this.view.value.fields.filters!;
    const rev = selectedRev(f, listed, tags);
    if (rev === undefined) return undefined;
    if (!this.es) return this.writesGraph ? { member: sparqlMemberOf(this.view, kind, listed, tags, this.metadataOf, memberItem(kind, listed)) } : {};
    let body: JsonObject | undefined;
    try {
      body = await this.documentOf(kind, listed, f.resourceTag);
    } catch (error) {
      if (!(error instanceof Rejection)) throw error;
      this.counts.failed++;
      return undefined;
    }
    if (!body) return undefined;
    const source: JsonObject = {};
    for (const [k, v] of Object.entries(body)) if (k !== '@context' && (f.includeMetadata || !k.startsWith('_'))) source[k] = v;
    if (this.view.value.fields.sourceAsText) source['_original_source'] = JSON.stringify(body);
    return { doc: { id: listed.id, project: listed.project, source } };
  }

  /** The documents a `_search` reads, one DocSet per generation. */
  documents(): DocSet {
    if (this.cached?.generation !== this.generation) {
      const docs: SearchDoc[] = [];
      for (const entry of this.entries.values()) if (entry.doc) docs.push(entry.doc);
      this.cached = { generation: this.generation, set: new DocSet(docs) };
    }
    return this.cached.set;
  }

  get size(): number {
    return this.entries.size;
  }
}
