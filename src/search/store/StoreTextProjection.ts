import { resourceEventOf } from '../../domain/resources/ItemKind.js';
import { isContentEvent } from '../../domain/resources/ResourceEvent.js';
import type { ProjectRef } from '../../kernel/labels.js';
import type { Change } from '../../projection/Projection.js';
import { itemNode } from '../../store/graphNames.js';
import { payloadText, stateText } from '../TextProjection.js';
import type { ListedState, StateDocument } from '../TextProjection.js';
import type { ItemTriples } from './itemTriples.js';
import { textGraphOf, textTriples } from './textGraph.js';

/**
 * Keeps listings' text index in the external store (textGraph.ts) for the same items as the embedded
 * TextProjection: the listed items of the payload kinds (resources, schemas), whose words change with
 * a content event only, and of the kinds whose words are read off their state (storages, files).
 * What a change leaves of an item's words is written by the store's lease holder with the rest of a
 * batch (storeSearch.ts); every replica notes the projects' positions once the store's covers them.
 */
export class StoreTextProjection {
  private readonly payloadKinds: ReadonlySet<string>;
  /** Log position of the last event applied per project since start (the search view's offset). */
  private readonly positions = new Map<ProjectRef, number>();

  constructor(
    payloadKinds: readonly string[],
    private readonly stateDocuments: Readonly<Record<string, StateDocument>> = {},
    /** The store indexes the texts itself (textGraph.ts): no word triples. */
    private readonly indexed = false,
  ) {
    this.payloadKinds = new Set(payloadKinds);
  }

  /** What the change leaves of its item's words (undefined: it changes none). */
  itemOf({ definition, next, previous, logged }: Change): ItemTriples | undefined {
    const covered = this.covered(definition);
    if (!covered) return undefined;
    const current = next as ListedState | undefined;
    const state = current ?? (previous as ListedState | undefined);
    return state && this.itemUpdate(definition.kind, covered.fromState, state, current, previous as ListedState | undefined, logged);
  }

  /** Notes that a change is in the store (every replica, once the store's position covers it): the project's offset. */
  note({ definition, next, previous, logged }: Change): void {
    const state = (next ?? previous) as ListedState | undefined;
    if (this.covered(definition) && state) this.positions.set(state.project, logged.seq);
  }

  private covered(definition: Change['definition']): { fromState: StateDocument | undefined } | undefined {
    const fromState = this.stateDocuments[definition.kind];
    return definition.listed && (fromState || this.payloadKinds.has(definition.kind)) ? { fromState } : undefined;
  }

  /** The log position of the last event of the project applied since start; undefined when none was. */
  positionOf(project: ProjectRef): number | undefined {
    return this.positions.get(project);
  }

  private itemUpdate(
    kind: string,
    fromState: StateDocument | undefined,
    state: ListedState,
    current: ListedState | undefined,
    previous: ListedState | undefined,
    logged: Change['logged'],
  ): ItemTriples | undefined {
    let body: string | undefined;
    if (current && fromState) {
      body = stateText(fromState, current).body;
      // A change that leaves the words as they were (most of a file's) writes nothing.
      if (previous && body === stateText(fromState, previous).body) return undefined;
    } else if (current) {
      const event = resourceEventOf(logged.event);
      if (!isContentEvent(event)) return undefined;
      body = payloadText(current.id, event.source);
    }
    const node = itemNode(kind, state.project, state.id);
    return {
      graph: textGraphOf(kind, state.project),
      node,
      triples: body === undefined ? undefined : textTriples(node, body, this.indexed),
      fresh: previous === undefined,
    };
  }
}
