import type { ResourceState } from '../../domain/resources/Resource.js';
import { resourceEventOf } from '../../domain/resources/ItemKind.js';
import { isContentEvent } from '../../domain/resources/ResourceEvent.js';
import type { EventLog } from '../../events/EventLog.js';
import type { JsonObject } from '../../kernel/json.js';
import type { Change, Projection } from '../../projection/Projection.js';
import { iri } from '../../rdf/terms.js';
import { itemNode } from '../../store/graphNames.js';
import type { SparqlHttpClient } from '../../store/SparqlHttpClient.js';
import { withoutNulls } from '../searchDocument.js';
import type { DocumentOf } from '../TextProjection.js';
import { documentTriples, searchGraphOf } from './searchGraph.js';

/**
 * Writes the search API's documents into the external store (see searchGraph.ts), so that searches
 * run there and no replica keeps a copy of every document. Each change is one idempotent update (the
 * document's triples removed, then its current ones inserted), so a replay or a retry converges.
 * Only resources are searched by the search API.
 */
export class StoreSearchProjection implements Projection {
  constructor(
    private readonly client: SparqlHttpClient,
    private readonly documentOf: DocumentOf,
    private readonly log: EventLog,
  ) {}

  async apply(change: Change): Promise<void> {
    const update = await this.updateOf(change);
    if (update !== undefined) await this.client.update(update);
  }

  /** The change's update of its document (undefined: it touches none), to send alone or with others. */
  async updateOf({ definition, next, previous, logged }: Change): Promise<string | undefined> {
    if (definition.kind !== 'resources') return undefined;
    const state = (next ?? previous) as ResourceState | undefined;
    if (!state) return undefined;
    const node = itemNode('resources', state.project, state.id);
    const graph = iri(searchGraphOf(state.project));
    const steps = [`DELETE WHERE { GRAPH ${graph} { ${iri(node)} ?p ?o } }`];
    const current = next as ResourceState | undefined;
    if (current && !current.deprecated) {
      const payload = await this.payloadOf(current, logged.seq, logged.event);
      if (payload) {
        // The document's `@id` is the absolute one, whatever form the payload wrote it in (as the text index does).
        const { '@id': _written, ...rest } = withoutNulls(payload) as JsonObject;
        steps.push(`INSERT DATA { GRAPH ${graph} {\n${documentTriples(node, this.documentOf(current, { '@id': current.id, ...rest }))}} }`);
      }
    }
    return steps.join(' ;\n');
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
