import type { EventLog } from '../events/EventLog.js';
import type { KindDefinition } from '../domain/KindDefinition.js';
import type { ResourceState } from '../domain/resources/Resource.js';
import { resourceEventOf } from '../domain/resources/ItemKind.js';
import { isContentEvent } from '../domain/resources/ResourceEvent.js';
import type { JsonObject } from '../kernel/json.js';
import type { Log } from '../kernel/Log.js';
import type { Change, Projection } from '../projection/Projection.js';
import { itemNode } from '../store/graphNames.js';
import { searchableText, withoutNulls } from './searchDocument.js';
import type { TextIndex } from './TextIndex.js';

/** How an item of a kind reads as a search document: its payload (as compaction shows it) with the kind's metadata. */
export type DocumentOf = (state: ResourceState, payload: JsonObject) => JsonObject;

/**
 * Kinds whose state holds everything a document shows (storages, files): the document is read off the
 * state at every event, and the words are those of its attributes (`_` metadata left out).
 */
export interface StateDocument {
  /** Typed `never` so that each kind's function takes its own state type. */
  document(state: never): JsonObject;
  /** The `_` metadata fields whose words are searched too (a file's name), besides the attributes. */
  searchedMetadata?: readonly string[];
}

/** What every listed state has, whatever its kind. */
export interface ListedState {
  id: string;
  project: string;
  rev: number;
  deprecated: boolean;
}

/** A state document and its searched text: its attributes (`_` metadata left out but the searched ones). */
export const stateText = (fromState: StateDocument, state: ListedState): { doc: JsonObject; body: string } => {
  const doc = withoutNulls(fromState.document(state as never)) as JsonObject;
  const searched = (k: string) => (k.startsWith('_') ? (fromState.searchedMetadata ?? []).includes(k) : k !== '@id' && k !== '@context');
  const attributes = Object.fromEntries(Object.entries(doc).filter(([k]) => searched(k))) as JsonObject;
  return { doc, body: searchableText(state.id, attributes) };
};

const withoutId = (payload: JsonObject): JsonObject => {
  const { '@id': _written, ...rest } = payload;
  return rest;
};

/** The searched text of an item's payload as written: its `@id` (the absolute one, not as written) and its values. */
export const payloadText = (id: string, payload: JsonObject): string => searchableText(id, withoutId(withoutNulls(payload) as JsonObject));

/** Content events read back per position below this many; beyond, the log is scanned once. */
const SCAN_ABOVE = 2_000;

/**
 * Keeps the text index in step with the log for the kinds it is given (resources, schemas): a
 * content event replaces an item's document and words, any other event its metadata, a permanent
 * deletion removes it. On restart, every restored state whose content or revision the index does
 * not hold is indexed again from the log: a missing index file is rebuilt that way.
 */
export class TextProjection implements Projection {
  constructor(
    private readonly index: TextIndex,
    private readonly documents: Readonly<Record<string, DocumentOf>>,
    private readonly log: EventLog,
    private readonly logger: Log,
    private readonly stateDocuments: Readonly<Record<string, StateDocument>> = {},
  ) {}

  async apply({ definition, next, previous, logged }: Change): Promise<void> {
    const fromState = this.stateDocuments[definition.kind];
    if (fromState && definition.listed)
      return this.applyState(definition.kind, fromState, next as ListedState | undefined, previous as ListedState, logged.seq);
    const documentOf = this.documents[definition.kind];
    if (!documentOf || !definition.listed) return;
    const state = (next ?? previous) as ResourceState | undefined;
    if (!state) return;
    const node = itemNode(definition.kind, state.project, state.id);
    if (next === undefined) this.index.remove(definition.kind, state.project, node);
    else {
      const event = resourceEventOf(logged.event);
      if (isContentEvent(event)) this.put(definition.kind, next as ResourceState, documentOf, event.source);
      else {
        const kept = this.index.document(definition.kind, state.project, node);
        if (kept) this.put(definition.kind, next as ResourceState, documentOf, kept, false);
      }
    }
    this.index.advance(state.project, logged.seq);
  }

  async restore(states: ReadonlyMap<KindDefinition, ReadonlyMap<string, unknown>>): Promise<void> {
    const started = performance.now();
    const indexed = this.index.versions();
    const stale: { kind: string; state: ResourceState }[] = [];
    let touched = 0;
    for (const [definition, map] of states) {
      const fromState = this.stateDocuments[definition.kind];
      if (fromState && definition.listed) {
        for (const value of map.values()) {
          const state = value as ListedState;
          const node = itemNode(definition.kind, state.project, state.id);
          if (indexed.get(node)?.rev !== state.rev) {
            this.putState(definition.kind, fromState, state);
            touched++;
          }
          indexed.delete(node);
        }
        continue;
      }
      const documentOf = this.documents[definition.kind];
      if (!documentOf || !definition.listed) continue;
      for (const value of map.values()) {
        const state = value as ResourceState;
        const node = itemNode(definition.kind, state.project, state.id);
        const version = indexed.get(node);
        indexed.delete(node);
        if (!version || version.contentSeq !== state.contentSeq) stale.push({ kind: definition.kind, state });
        else if (version.rev !== state.rev) {
          const kept = this.index.document(definition.kind, state.project, node);
          if (kept) this.put(definition.kind, state, documentOf, kept, false);
          touched++;
        }
      }
    }
    // What the index holds beyond the states was deleted since.
    for (const node of indexed.keys()) {
      const [kind, org, project] = node.slice('urn:registry:'.length).split('/');
      this.index.remove(kind!, `${org}/${project}`, node);
    }
    const sources = await this.contents(stale.map((s) => s.state.contentSeq));
    for (const { kind, state } of stale) {
      const source = sources.get(state.contentSeq);
      if (source) this.put(kind, state, this.documents[kind]!, source);
    }
    this.index.commit();
    if (stale.length || touched || indexed.size)
      this.logger.info(
        `text index: ${stale.length} items indexed from the log, ${touched} updated, ${indexed.size} removed in ${Math.round(performance.now() - started)} ms`,
      );
  }

  private applyState(kind: string, fromState: StateDocument, next: ListedState | undefined, previous: ListedState | undefined, seq: number): void {
    const state = next ?? previous;
    if (!state) return;
    if (next === undefined) this.index.remove(kind, state.project, itemNode(kind, state.project, state.id));
    else this.putState(kind, fromState, next);
    this.index.advance(state.project, seq);
  }

  /** A document read off the state; its revision stands for its content version. */
  private putState(kind: string, fromState: StateDocument, state: ListedState): void {
    const { doc, body } = stateText(fromState, state);
    this.index.put({
      node: itemNode(kind, state.project, state.id),
      kind,
      project: state.project,
      id: state.id,
      contentSeq: state.rev,
      rev: state.rev,
      deprecated: state.deprecated,
      doc,
      body,
    });
  }

  private put(kind: string, state: ResourceState, documentOf: DocumentOf, payload: JsonObject, content = true): void {
    // The document's `@id` is the absolute one, whatever form the payload wrote it in.
    const rest = withoutId(content ? (withoutNulls(payload) as JsonObject) : payload);
    const source: JsonObject = { '@id': state.id, ...rest };
    this.index.put({
      node: itemNode(kind, state.project, state.id),
      kind,
      project: state.project,
      id: state.id,
      contentSeq: state.contentSeq,
      rev: state.rev,
      deprecated: state.deprecated,
      doc: documentOf(state, source),
      ...(content ? { body: searchableText(state.id, rest) } : {}),
    });
  }

  /** The sources of the content events at these positions. */
  private async contents(seqs: number[]): Promise<Map<number, JsonObject>> {
    const wanted = new Set(seqs);
    const out = new Map<number, JsonObject>();
    const take = (logged: { seq: number; event: { type: string } } | undefined) => {
      if (!logged || !wanted.has(logged.seq)) return;
      const event = resourceEventOf(logged.event);
      if (isContentEvent(event)) out.set(logged.seq, event.source);
    };
    if (wanted.size <= SCAN_ABOVE) {
      for (const seq of wanted) take(await this.log.get(seq));
      return out;
    }
    const sorted = [...wanted].sort((a, b) => a - b);
    const last = sorted[sorted.length - 1]!;
    let after = sorted[0]! - 1;
    while (after < last) {
      const events = await this.log.read(after, 1000);
      if (!events.length) break;
      for (const logged of events) take(logged);
      after = events[events.length - 1]!.seq;
    }
    return out;
  }
}
