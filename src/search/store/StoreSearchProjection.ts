import type { ResourceState } from '../../domain/resources/Resource.js';
import { resourceEventOf } from '../../domain/resources/ItemKind.js';
import { isContentEvent } from '../../domain/resources/ResourceEvent.js';
import type { EventLog } from '../../events/EventLog.js';
import type { JsonObject } from '../../kernel/json.js';
import type { Change } from '../../projection/Projection.js';
import { itemNode } from '../../store/graphNames.js';
import { withoutNulls } from '../searchDocument.js';
import type { DocumentOf } from '../TextProjection.js';
import type { ItemTriples } from './itemTriples.js';
import { documentTriples, searchGraphOf } from './searchGraph.js';

/**
 * The search API's documents in the external store (see searchGraph.ts), so that searches run there
 * and no replica keeps a copy of every document: what a change leaves of its document, written by
 * the store's lease holder with the rest of a batch (storeSearch.ts). Only resources are searched
 * by the search API; a deprecated one has no document.
 */
export class StoreSearchProjection {
  constructor(
    private readonly documentOf: DocumentOf,
    private readonly log: EventLog,
    /** The store indexes the documents' texts (searchGraph.ts): no word triples. */
    private readonly indexed = false,
  ) {}

  /** The change's document (undefined: it touches none). */
  async itemOf({ definition, next, previous, logged }: Change): Promise<ItemTriples | undefined> {
    if (definition.kind !== 'resources') return undefined;
    const state = (next ?? previous) as ResourceState | undefined;
    if (!state) return undefined;
    const node = itemNode('resources', state.project, state.id);
    const item = { graph: searchGraphOf(state.project), node, fresh: previous === undefined };
    const current = next as ResourceState | undefined;
    if (!current || current.deprecated) return { ...item, triples: undefined };
    const payload = await this.payloadOf(current, logged.seq, logged.event);
    if (!payload) return { ...item, triples: undefined };
    // The document's `@id` is the absolute one, whatever form the payload wrote it in (as the text index does).
    const { '@id': _written, ...rest } = withoutNulls(payload) as JsonObject;
    return { ...item, triples: documentTriples(node, this.documentOf(current, { '@id': current.id, ...rest }), this.indexed) };
  }

  /** The payload of the state's content: in the event itself when it is a content event, else read back from the log. */
  private async payloadOf(state: ResourceState, seq: number, event: { type: string }): Promise<JsonObject | undefined> {
    const own = resourceEventOf(event as never);
    if (seq === state.contentSeq && isContentEvent(own)) return own.source;
    const logged = await this.log.get(state.contentSeq);
    if (!logged) return undefined;
    const content = resourceEventOf(logged.event);
    return isContentEvent(content) ? content.source : undefined;
  }
}
