import type { ProjectRef } from '../../kernel/labels.js';
import { Rejection } from '../../kernel/Rejection.js';
import type { JsonObject } from '../../kernel/json.js';
import type { ResourceState } from './Resource.js';
import type { Revision } from './RevisionReader.js';
import type { ResourceService } from './ResourceService.js';
import type { Selector } from './resourcePorts.js';
import type { ItemRefs } from '../projects/itemRefs.js';
import type { ItemRef } from '../../kernel/ItemRef.js';

export interface MultiFetchEntry {
  /** The id exactly as requested, `?rev=` or `?tag=` included. */
  id: string;
  project: ProjectRef;
}

/** Every representation of an item of a kind kept whole in its state (storages, files' metadata). */
export interface ItemViews {
  id: string;
  source: JsonObject;
  body: JsonObject;
  annotated: JsonObject;
  expanded: JsonObject[];
}

/** A kind multi-fetch reads through its views; `fetch` rejects when the project holds no such item. */
export interface ViewedKind {
  kind: string;
  fetch(item: ItemRef, selector: Selector): ItemViews | Promise<ItemViews>;
}

/** One entry's outcome: the revision of the kind that holds the id, or why there is none. */
export type MultiFetched =
  | { entry: MultiFetchEntry; kind: string; state: ResourceState; content?: Revision['content']; compacted?: JsonObject }
  | { entry: MultiFetchEntry; kind: string; views: ItemViews }
  | { entry: MultiFetchEntry; error: 'NotFound' | 'AuthorizationFailed' };

/** `iri?rev=3` or `iri?tag=v1`: the id and its selector. */
const selected = (raw: string): { id: string; selector: Selector } => {
  const match = /^(.*)\?(rev|tag)=([^?&]+)$/.exec(raw);
  if (!match) return { id: raw, selector: {} };
  const [, id, name, value] = match as unknown as [string, string, 'rev' | 'tag', string];
  if (name === 'tag') return { id, selector: { tag: decodeURIComponent(value) } };
  return /^\d+$/.test(value) ? { id, selector: { rev: Number(value) } } : { id: raw, selector: {} };
};

/**
 * Fetches many items of any kind at once, concurrently, each exactly as its single fetch would; an
 * entry that cannot be read is an error of its own (`NotFound`, `AuthorizationFailed`), never a
 * failure of the whole request.
 */
export class MultiFetch {
  constructor(
    private readonly kinds: readonly { kind: string; service: ResourceService }[],
    /** Kinds kept whole in their states, tried after the others. */
    private readonly viewed: readonly ViewedKind[],
    /** Resolves an entry's id as a path's id segment would be (aliases, CURIEs, the project's base). */
    private readonly refs: ItemRefs,
  ) {}

  fetch(entries: readonly MultiFetchEntry[], compacted: boolean, readable: (project: ProjectRef) => boolean): Promise<MultiFetched[]> {
    return Promise.all(entries.map((entry) => this.one(entry, compacted, readable)));
  }

  private async one(entry: MultiFetchEntry, compacted: boolean, readable: (project: ProjectRef) => boolean): Promise<MultiFetched> {
    if (!readable(entry.project)) return { entry, error: 'AuthorizationFailed' };
    const { id, selector } = selected(entry.id);
    const item = await Promise.resolve()
      .then(() => this.refs(entry.project, { id }) as ItemRef)
      .catch((error: unknown) => {
        if (!(error instanceof Rejection)) throw error;
        return undefined;
      });
    for (const { kind, service } of item ? this.kinds : []) {
      try {
        if (!compacted) {
          const { state, content } = await service.fetch(item!, selector);
          return { entry, kind, state, content };
        }
        const { state, compacted: body } = await service.fetchCompacted(item!, selector);
        return { entry, kind, state, compacted: body };
      } catch (error) {
        // Any refusal (unknown project, id, revision or tag) is "not found" for this entry; the next kind may hold the id.
        if (!(error instanceof Rejection)) throw error;
      }
    }
    for (const { kind, fetch } of item ? this.viewed : []) {
      try {
        return { entry, kind, views: await fetch(item!, selector) };
      } catch (error) {
        if (!(error instanceof Rejection)) throw error;
      }
    }
    return { entry, error: 'NotFound' };
  }
}
